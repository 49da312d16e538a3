/*
 * The kernel's named slab caches (kernel/slab.h): one per kind of object
 * made on every fork, exec, open or path lookup, named as Linux names
 * them in /proc/slabinfo. proc_caches_init (kernel/fork.c) makes the
 * process ones before the first task; vfs_caches_init (kernel/fs/dcache.c)
 * the file-system ones, from vfs_init, which host tests call too.
 */
#ifndef KERNEL_CACHES_H
#define KERNEL_CACHES_H

#include <kernel/slab.h>

extern struct kmem_cache *task_struct_cachep;	/* "task_struct" */
extern struct kmem_cache *sighand_cachep;	/* "sighand_cache" */
extern struct kmem_cache *signal_cachep;	/* "signal_cache" */
extern struct kmem_cache *mm_cachep;		/* "mm_struct" */
extern struct kmem_cache *vm_area_cachep;	/* "vm_area_struct" */

extern struct kmem_cache *files_cachep;		/* "files_cache" */
extern struct kmem_cache *fs_cachep;		/* "fs_cache" */
extern struct kmem_cache *filp_cachep;		/* "filp" */
extern struct kmem_cache *dentry_cachep;	/* "dentry" */
extern struct kmem_cache *inode_cachep;		/* "inode_cache" */
extern struct kmem_cache *names_cachep;		/* "names_cache": PATH_MAX buffers */

void proc_caches_init(void);
void vfs_caches_init(void);

#endif
