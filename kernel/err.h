/*
 * Error pointers, as in Linux: a function returning a pointer can return
 * a negative errno in it instead (the top 4095 addresses are never valid
 * objects). Pure.
 */
#ifndef KERNEL_ERR_H
#define KERNEL_ERR_H

#include <kernel/types.h>

#define MAX_ERRNO	4095

#define IS_ERR_VALUE(x)	unlikely((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long err) { return (void *)err; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p) { return IS_ERR_VALUE(p); }
static inline bool IS_ERR_OR_NULL(const void *p) { return !p || IS_ERR_VALUE(p); }

#endif
