/*
 * Access to user memory from the kernel. Every pointer a process hands the
 * kernel goes through these: the range is checked to lie below TASK_SIZE
 * (a kernel address, or one crossing into the kernel half, is refused at
 * once) and the copy itself runs with an exception-table fixup, so an
 * unmapped or protected address makes the call fail with -EFAULT instead
 * of an oops. Pages not yet present are faulted in on the way
 * (arch/x86_64/fault.c), as a ring-3 access would.
 */
#ifndef ASM_UACCESS_H
#define ASM_UACCESS_H

#include <kernel/types.h>
#include <kernel/errno.h>

#define USER_ADDR_LIMIT		0x00007ffffffff000UL

static inline bool access_ok(unsigned long addr, unsigned long size)
{
	return size <= USER_ADDR_LIMIT && addr <= USER_ADDR_LIMIT - size;
}

/* The raw copies (uaccess.S): bytes NOT copied, 0 on success. */
unsigned long __copy_user(void *to, const void *from, unsigned long n);
/* Copies a NUL-terminated string of at most n bytes: its length, n if no NUL within n, -EFAULT. */
long __strncpy_from_user(char *dst, const char *src, long n);
/* Zeroes n user bytes: bytes not zeroed. */
unsigned long __clear_user(void *to, unsigned long n);

static inline unsigned long copy_from_user(void *to, const void *from, unsigned long n)
{
	if (!access_ok((unsigned long)from, n))
		return n;
	return __copy_user(to, from, n);
}

static inline unsigned long copy_to_user(void *to, const void *from, unsigned long n)
{
	if (!access_ok((unsigned long)to, n))
		return n;
	return __copy_user(to, from, n);
}

static inline unsigned long clear_user(void *to, unsigned long n)
{
	if (!access_ok((unsigned long)to, n))
		return n;
	return __clear_user(to, n);
}

/* How many of count bytes at src a user string may span: up to the limit; -EFAULT if none. */
static inline long user_string_span(const void *src, long count)
{
	if ((unsigned long)src >= USER_ADDR_LIMIT)
		return -EFAULT;
	if ((unsigned long)count > USER_ADDR_LIMIT - (unsigned long)src)
		count = (long)(USER_ADDR_LIMIT - (unsigned long)src);
	return count;
}

/* A string from user space into dst (count bytes): its length, or -EFAULT, or count if it did not end. */
static inline long strncpy_from_user(char *dst, const char *src, long count)
{
	if (count <= 0)
		return 0;
	count = user_string_span(src, count);
	return count < 0 ? count : __strncpy_from_user(dst, src, count);
}

/*
 * Reads from any address, user or kernel, from any context (kprobes'
 * fetch arguments): a page not present is not faulted in, an unmapped or
 * non-canonical address fails. copy_from_kernel_nofault: 0 or -EFAULT;
 * strncpy_from_nofault: as __strncpy_from_user.
 */
long copy_from_kernel_nofault(void *dst, const void *src, size_t n);
long strncpy_from_nofault(char *dst, const void *src, long n);
/*
 * The same for user memory alone (kprobes' +u<offset>(...) and :ustring):
 * a kernel address fails as access_ok refuses it.
 */
long copy_from_user_nofault(void *dst, const void *src, size_t n);
long strncpy_from_user_nofault(char *dst, const void *src, long n);

/* get_user(x, ptr) / put_user(x, ptr): 0 or -EFAULT, for scalar types. */
#define get_user(x, ptr) ({						\
	unsigned long __gu_w = 0;					\
	_Static_assert(sizeof(*(ptr)) <= sizeof(__gu_w), "get_user of a scalar"); \
	int __gu_e = copy_from_user(&__gu_w, (ptr), sizeof(*(ptr))) ? -EFAULT : 0; \
	(x) = (__typeof__(*(ptr)))__gu_w;				\
	__gu_e; })
#define put_user(x, ptr) ({						\
	__typeof__(*(ptr)) __pu_v = (x);				\
	copy_to_user((ptr), &__pu_v, sizeof(__pu_v)) ? -EFAULT : 0; })

#endif
