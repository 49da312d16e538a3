/*
 * The user-memory copies. Each instruction that touches user memory has
 * an exception-table entry; the fixup returns how much was left. With
 * SMAP on, stac/clac open the window in which supervisor code may touch
 * user pages (smap_enabled tells whether the CPU has the instructions).
 */
#include <asm/extable.h>

	.macro user_begin
	testb $1, smap_enabled(%rip)
	jz 98f
	stac
98:
	.endm
	.macro user_end
	testb $1, smap_enabled(%rip)
	jz 99f
	clac
99:
	.endm

	.text
/* unsigned long __copy_user(void *to, const void *from, unsigned long n) */
	.globl __copy_user
__copy_user:
	user_begin
	movq %rdx, %rcx
1:	rep movsb
2:	user_end
	movq %rcx, %rax
	ret
	_ASM_EXTABLE(1b, 2b)

/* unsigned long __clear_user(void *to, unsigned long n) */
	.globl __clear_user
__clear_user:
	user_begin
	movq %rsi, %rcx
	xorl %eax, %eax
1:	rep stosb
2:	user_end
	movq %rcx, %rax
	ret
	_ASM_EXTABLE(1b, 2b)

/* long __strncpy_from_user(char *dst, const char *src, long n): length, n, or -EFAULT (-14) */
	.globl __strncpy_from_user
__strncpy_from_user:
	user_begin
	xorl %eax, %eax
3:	cmpq %rdx, %rax
	je 5f
4:	movb (%rsi, %rax), %cl
	movb %cl, (%rdi, %rax)
	testb %cl, %cl
	jz 5f
	incq %rax
	jmp 3b
5:	user_end
	ret
6:	user_end
	movq $-14, %rax
	ret
	_ASM_EXTABLE(4b, 6b)
