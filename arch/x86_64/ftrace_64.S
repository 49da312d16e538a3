/*
 * ftrace_caller: the function tracer's trampoline. A traced function's
 * first instruction calls it, so on entry 0(%rsp) is the site + 5 and
 * 8(%rsp) is the traced function's return into its parent. It builds two
 * frames so a frame-pointer walk from the callbacks sees the trampoline,
 * the traced function and its parent, saves the caller-saved registers
 * (the traced function's arguments), and calls
 *   ftrace_ops_list_func(ip = site, parent_ip, struct ftrace_regs *)
 * The layout is struct ftrace_regs (asm/ftrace.h).
 */
#include <asm/calling.h>

	.text
	.globl ftrace_caller
	.type ftrace_caller, @function
ftrace_caller:
	pushq	8(%rsp)			/* the parent's return address */
	pushq	%rbp
	movq	%rsp, %rbp		/* frame of the traced function */
	pushq	16(%rsp)		/* site + 5 */
	pushq	%rbp
	movq	%rsp, %rbp		/* frame of the trampoline */
	push_caller_saved
	subq	$8, %rsp
	movq	112(%rsp), %rdi		/* ftrace_regs.ret_ip */
	subq	$5, %rdi
	movq	120(%rsp), %rsi		/* ftrace_regs.parent_ip */
	movq	%rsp, %rdx
	call	ftrace_ops_list_func
	addq	$8, %rsp
	pop_caller_saved
	addq	$16, %rsp
	popq	%rbp
	addq	$8, %rsp
	ret
	.size ftrace_caller, . - ftrace_caller

/*
 * return_to_handler: where a call hooked by the function_graph tracer
 * returns instead of its parent. The function's return values are in
 * rax and rdx; everything else caller-saved is dead at a return. It
 * passes the stack pointer it returned with (one above the slot that was
 * hooked) to ftrace_return_to_handler (trace/fgraph.c), which records the
 * exit and gives the real return address back.
 */
	.globl return_to_handler
	.type return_to_handler, @function
return_to_handler:
	subq	$16, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	leaq	16(%rsp), %rdi
	call	ftrace_return_to_handler
	movq	%rax, %r11
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	addq	$16, %rsp
	jmp	*%r11
	.size return_to_handler, . - return_to_handler
