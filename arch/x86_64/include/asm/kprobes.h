/*
 * What arch/x86_64/kprobes.c (int3 sites) and kprobes_opt.c (their
 * jump-optimized form) share. Not for other users: kernel/kprobes.h is
 * the interface.
 */
#ifndef ASM_KPROBES_H
#define ASM_KPROBES_H

#include <kernel/types.h>
#include <asm/insn.h>

#define INT3_OPCODE		0xcc
#define JMP32_OPCODE		0xe9
#define JMP32_SIZE		5
/* The most bytes an optimized site's jmp covers: whole instructions from the site on. */
#define KPROBE_REGION_MAX	(JMP32_SIZE - 1 + INSN_MAX_LEN)

struct kprobe;
struct pt_regs;

/*
 * One probed instruction. While registered its first byte is int3, or,
 * once optimized, the region (opt_len bytes of whole instructions from
 * addr) starts with a jmp to its detour. Fields after probes are written
 * under kprobe_lock; readers in the int3 and interrupt paths see detour
 * published with a release.
 */
struct kprobe_site {
	unsigned long addr;		/* where the int3 (or jmp) is */
	struct insn insn;
	u8 orig[KPROBE_REGION_MAX];	/* the text as it was */
	u8 *slot;			/* INSN_FLOW_NONE: where its copy runs */
	struct kprobe *probes;		/* in registration order; readers: the int3 handler */
	struct kprobe_site *next;	/* hash chain */
	/* optimization (kprobes_opt.c) */
	u8 *detour;			/* prepared: handlers, then the region's copy; never freed */
	u8 opt_len;			/* bytes of the region (>= JMP32_SIZE) */
	bool optimized;			/* the jmp is in the text */
	bool opt_wanted;		/* queued for the optimizer */
	bool opt_refused;		/* the region can never be optimized: no retry */
};

/* kprobes.c */
extern u8 kprobe_insn_slots[], kprobe_insn_slots_end[];
struct kprobe_site *kprobe_site_lookup(unsigned long addr);
/* The text at addr without our int3s and jmps. */
void kprobe_read_text(unsigned long addr, u8 *buf, unsigned int len);
/* Serializes registration, optimization and the listing; preemptible. */
void kprobe_lock(void);
void kprobe_unlock(void);
/* Call fn for every site, under kprobe_lock. */
void kprobe_for_each_site(void (*fn)(struct kprobe_site *s, void *arg), void *arg);
/* Are sites in the text (/sys/kernel/debug/kprobes/enabled)? */
bool kprobe_sites_armed(void);
/* Run the site's handlers on regs (the int3's or the detour's); irqs off. */
void kprobe_site_run_handlers(struct kprobe_site *s, struct pt_regs *regs);
bool kprobe_site_is_return(const struct kprobe_site *s);
/* Per-CPU counts of handlers in flight (see kprobe_synchronize). */
void kprobe_enter(void);
void kprobe_exit(void);

/* kprobes_opt.c, under kprobe_lock but kprobe_opt_region_copy (any context) */
/*
 * The optimizer's kthread, started by the first registration before its
 * probe is armed (a probe on kernel_clone would see the fork otherwise).
 */
void kprobe_opt_start(void);
/* Queue a new site for the optimizer. */
void kprobe_opt_queue(struct kprobe_site *s);
/* Put the int3 back in place of the jmp (a probe in the region, a kretprobe). */
void kprobe_opt_unoptimize(struct kprobe_site *s);
/* An optimized site's last probe goes: its original bytes back in place of the jmp. */
void kprobe_opt_remove(struct kprobe_site *s);
/* A site at addr went: the sites whose regions it was in may be optimized. */
void kprobe_opt_requeue_around(unsigned long addr);
/* A new site at addr: unoptimize the site whose region holds it. */
void kprobe_opt_make_room(unsigned long addr);
/* The detour copy of the region where a CPU at a region's ip carries on, or 0. */
unsigned long kprobe_opt_region_copy(const struct kprobe_site *s, unsigned long ip);
/* Substitute the original bytes of optimized regions in buf (text at addr). */
void kprobe_opt_read_text(unsigned long addr, u8 *buf, unsigned int len);

#endif
