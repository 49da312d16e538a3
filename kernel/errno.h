/* Linux's errno numbers, which Spoor returns as negative values. Pure. */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#ifdef SPOOR_HOST
#include <errno.h>
#else
#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define ECHILD		10
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EXDEV		18
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define EMFILE		24
#define ENOTTY		25
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define EROFS		30
#define EPIPE		32
#define EDOM		33
#define ERANGE		34
#define EDEADLK		35
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ENOTEMPTY	39
#define ELOOP		40
#define ENODATA		61
#define EOVERFLOW	75
#define EILSEQ		84
#define EMSGSIZE	90
#define ENOTSOCK	88
#define ENOPROTOOPT	92
#define EPROTONOSUPPORT	93
#define ESOCKTNOSUPPORT	94
#define EOPNOTSUPP	95
#define EAFNOSUPPORT	97
#define EADDRINUSE	98
#define EADDRNOTAVAIL	99
#define ENETUNREACH	101
#define ECONNABORTED	103
#define EISCONN		106
#define ENOTCONN	107
#define ETIMEDOUT	110
#define ECONNREFUSED	111
#define EINPROGRESS	115
#endif

/* The text `strerror` gives for an errno ("Invalid argument"). */
const char *errno_text(int err);

#endif
