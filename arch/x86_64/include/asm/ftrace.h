/*
 * The x86_64 half of the function tracer: the call sites (-mfentry's
 * 5-byte NOPs), the trampoline they call when on (ftrace_64.S) and the
 * registers it saves. The generic half is trace/ftrace.c.
 */
#ifndef ASM_FTRACE_H
#define ASM_FTRACE_H

#include <kernel/types.h>

#define MCOUNT_INSN_SIZE	5

/*
 * What ftrace_caller saved, from its stack pointer up: the caller-saved
 * registers (the traced function's arguments among them), two stack
 * frames for frame-pointer walks (the trampoline's, returning into the
 * traced function, and the traced function's, returning to its parent),
 * then the traced function's own return slots: ret_ip is site + 5 and
 * parent_ip is the real slot the traced function returns through.
 */
struct ftrace_regs {
	unsigned long pad;
	unsigned long r11, r10, r9, r8, rax, rcx, rdx, rsi, rdi;
	unsigned long frames[4];
	unsigned long ret_ip;
	unsigned long parent_ip;
};

/* The traced function's n-th argument register (0..5). */
static inline unsigned long ftrace_regs_get_argument(const struct ftrace_regs *f, unsigned int n)
{
	switch (n) {
	case 0: return f->rdi;
	case 1: return f->rsi;
	case 2: return f->rdx;
	case 3: return f->rcx;
	case 4: return f->r8;
	case 5: return f->r9;
	default: return 0;
	}
}

/* The trampoline every patched site calls. */
void ftrace_caller(void);

/*
 * Rewrite the sites at ips (ascending) to call ftrace_caller (call) or to
 * be the NOP again, by the int3 protocol, in batches. Sleeps.
 */
void ftrace_arch_patch_sites(const unsigned long *ips, unsigned int n, bool call);
/* 1 if the site calls ftrace_caller now, 0 if it is the NOP, -1 if neither. */
int ftrace_arch_site_state(unsigned long ip);

struct pt_regs;
/*
 * int3 at ip, which no batch being patched claims: if ip is a tracer site
 * (a stale translation of an int3 patched away), continue past it.
 */
bool ftrace_arch_stale_int3(struct pt_regs *regs, unsigned long ip);

#endif
