/*
 * kmalloc: the general-purpose allocator. Implemented in kernel/mm/slab.c;
 * on the host, tests/host/kshim.c maps it to malloc. kmalloc and kfree are
 * out-of-line so the kmem events see their caller as call_site.
 */
#ifndef KERNEL_SLAB_H
#define KERNEL_SLAB_H

#include <kernel/types.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL	0x0u	/* may sleep (Spoor's kmalloc never does) */
#define GFP_ATOMIC	0x1u	/* any context, irq and NMI-free paths */
#define __GFP_ZERO	0x100u

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *krealloc(const void *p, size_t size, gfp_t flags);
void kfree(const void *p);
char *kstrdup(const char *s, gfp_t flags);
char *kstrndup(const char *s, size_t max, gfp_t flags);
/* Usable size of a kmalloc'd block (bytes_alloc of the kmalloc event). */
size_t ksize(const void *p);

#endif
