/*
 * Basic types and compiler helpers. Pure: compiles freestanding in the
 * kernel and hosted (SPOOR_HOST) for unit tests and benchmarks.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>
#ifdef SPOOR_HOST
#include <sys/types.h>
#else
typedef int pid_t;
typedef long ssize_t;
typedef long off_t;
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uintptr_t uptr;

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#define __aligned(n)	__attribute__((aligned(n)))
#define __packed	__attribute__((packed))
#define __noreturn	__attribute__((noreturn))
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline	__attribute__((noinline))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __unused	__attribute__((unused))
#define __section(s)	__attribute__((section(s)))
#define __used		__attribute__((used))
/*
 * A static inline function the compiler keeps out of line gets no
 * function-tracer call site, as in Linux: a header's helper belongs to
 * whatever calls it (notrace: kernel/ftrace.h).
 */
#ifndef SPOOR_HOST
#define inline		inline __attribute__((no_instrument_function))
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define BIT(n)		(1UL << (n))

/* The return address of the current function: Linux's _RET_IP_. */
#define _RET_IP_	((unsigned long)__builtin_return_address(0))
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })

#endif
