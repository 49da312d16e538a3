/*
 * Kprobes: a handler run when the CPU reaches a kernel instruction, by an
 * int3 written over its first byte (arch/x86_64/kprobes.c), and
 * kretprobes: a handler run when a function returns, by swapping the
 * return address on entry for a trampoline's.
 *
 * A probe may sit on any instruction boundary of a function the function
 * tracer could trace (one with an entry site): not in notrace, entry or
 * NMI code, nor in kprobes themselves, not on a static-key or ftrace site
 * (a probe on a function's entry site hits just past it, where the
 * registers and stack are still the entry's), nor on an instruction that
 * cannot run away from its address (calls, indirect branches, system
 * instructions, instructions with an exception fixup).
 *
 * Handlers run with interrupts off. A hit on a CPU already running a
 * handler (a probe on something a handler calls), or in NMI context, runs
 * no handler and counts in nmissed: the probed instruction still runs.
 */
#ifndef KERNEL_KPROBES_H
#define KERNEL_KPROBES_H

#include <kernel/types.h>

struct pt_regs;
struct kprobe_site;
struct task_struct;

struct kprobe {
	unsigned long addr;	/* the probed address, as asked */
	/* regs->rip is the probed address while it runs */
	void (*pre_handler)(struct kprobe *p, struct pt_regs *regs);
	unsigned long nmissed;	/* hits that ran no handler */
	/* private to kprobes.c */
	struct kprobe_site *site;
	struct kprobe *next;	/* the site's probes */
};

struct kretprobe_pool;

/* The argument registers a kretprobe keeps from the call (rdi, rsi, rdx, rcx, r8, r9). */
#define KRETPROBE_ARGS	6

struct kretprobe {
	struct kprobe kp;	/* on the function's entry */
	/*
	 * At the return: regs->rax is the return value, ret_ip where it returns
	 * to, args the KRETPROBE_ARGS argument registers as they were at the call.
	 */
	void (*handler)(struct kretprobe *rp, struct pt_regs *regs, unsigned long ret_ip,
			const unsigned long *args);
	unsigned int maxactive;	/* calls tracked at once; 0: the default */
	unsigned long nmissed;	/* calls not tracked: all maxactive in use */
	struct kretprobe_pool *pool;	/* private */
};

/*
 * Arm p at p->addr. -ENOENT: not kernel text; -EILSEQ: not an
 * instruction boundary; -EINVAL: not probeable; -EBUSY: a patched site;
 * -ENOMEM. Sleeps.
 */
int register_kprobe(struct kprobe *p);
/* Would register_kprobe take a probe at addr? Its errors, nothing armed. */
int kprobe_check(unsigned long addr);
/* Disarm p; when this returns no CPU runs its handler any more. Sleeps. */
void unregister_kprobe(struct kprobe *p);
/* The same for a function's return; rp->kp.addr must be a function start. */
int register_kretprobe(struct kretprobe *rp);
void unregister_kretprobe(struct kretprobe *rp);
/*
 * Is the function starting at func one no probe may enter (notrace, entry
 * and NMI code, kprobes' own slots)? /sys/kernel/debug/kprobes/blacklist
 * lists them.
 */
bool kprobe_blacklisted(unsigned long func);
/* The default maxactive (Linux's for a preemptible kernel). */
unsigned int kretprobe_default_maxactive(void);

/*
 * Jump optimization (arch/x86_64/kprobes_opt.c): a probe whose
 * instructions allow it is hit through a jmp to a detour instead of
 * int3, some time after it is registered. /proc/sys/debug/kprobes-
 * optimization: 0 puts every probe back to int3 before returning.
 */
int kprobes_optimization_get(void);
void kprobes_optimization_set(bool on);

/* One registered probe, for /sys/kernel/debug/kprobes/list. */
struct kprobe_info {
	unsigned long addr;	/* where it is in the text */
	bool is_return;		/* a kretprobe's */
	bool optimized;		/* hit through a jmp */
};
/* fn for every registered probe (kprobes in a site's registration order). Sleeps. */
void kprobes_list(void (*fn)(void *arg, const struct kprobe_info *info), void *arg);

/*
 * /sys/kernel/debug/kprobes/enabled: at 0 every probe stays registered
 * but none is in the text (no hits) until it is 1 again. Sleeps.
 */
int kprobes_get_armed(void);
void kprobes_set_armed(bool on);

/* /sys/kernel/debug/kprobes/{list,enabled,blacklist} (kernel/kprobes_debugfs.c). */
int kprobes_debugfs_init(void);

/*
 * entry.S, on every return from an interrupt or exception while
 * kprobe_opt_prepared (sites with a detour) is nonzero: a CPU that would
 * resume inside an optimized probe's region (or the slot of its first
 * instruction) resumes at the same point of the detour's copy instead.
 */
extern unsigned int kprobe_opt_prepared;
void kprobe_fixup_interrupted(struct pt_regs *regs);

/* traps.c: an int3 that may be a probe's; true if handled. */
bool kprobe_int3_handler(struct pt_regs *regs);
/* do_exit: the task's pending returns will never happen. */
void kretprobe_flush_task(struct task_struct *t);

#endif
