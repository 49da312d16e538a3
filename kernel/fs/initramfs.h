/*
 * Unpacking the initrd: a cpio "newc" archive (what `spoor mkinitrd`
 * and host-tools/cpio.c write) into the root file system. Pure.
 */
#ifndef KERNEL_FS_INITRAMFS_H
#define KERNEL_FS_INITRAMFS_H

#include <kernel/types.h>

/* What an unpack did; on failure, what was wrong and where. */
struct initramfs_result {
	unsigned int entries;	/* directories, files and symlinks made */
	const char *error;	/* NULL, or why unpacking stopped */
	size_t error_offset;	/* byte offset of the bad entry */
};

/*
 * Unpack the archive into /. Entries before a corrupt or truncated one
 * stay; returns 0, or a negative errno with res->error set.
 */
int unpack_initramfs(const void *archive, size_t len, struct initramfs_result *res);

#endif
