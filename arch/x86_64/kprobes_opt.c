/*
 * Jump-optimized kprobes (Linux's optprobes): a probe whose site starts a
 * run of whole fall-through instructions covering 5 bytes (its region)
 * gets a jmp rel32 over that region, to a detour that builds the struct
 * pt_regs the int3 handler would, runs the site's handlers, restores the
 * registers, runs a copy of the region and jumps back past it. A hit then
 * costs a jmp and a call instead of a trap.
 *
 * A region qualifies when no other probe, static-key site or exception
 * fixup is in it, a RIP-relative operand still reaches its target from
 * the copy, and no jump in its function (decoded from its kallsyms start
 * to its end) lands inside it; a function with an indirect jmp (a jump
 * table) never qualifies. Kretprobes stay int3 (Linux's are ftrace-based).
 *
 * No CPU may be left inside a region when its jmp goes in, nor come back
 * to one later (a preempted task, an interrupted CPU): once a detour is
 * prepared, the int3 handler resumes in its copy of the region, and every
 * return from an interrupt that would land inside the region (or in the
 * site's out-of-line slot) lands at the same point of the copy instead
 * (kprobe_fixup_interrupted). A sync of every CPU moves those that are
 * inside now; only then does the text poke protocol write the jmp.
 *
 * Optimization is lazy, as Linux's: a kthread does it OPTIMIZE_DELAY after
 * a registration. /proc/sys/debug/kprobes-optimization turns it off (every
 * jmp goes back to int3 before the write returns) and on. Detours, like
 * slots, stay their address's for good: a preempted task may still run
 * one. All of it runs under kprobe_lock.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/kallsyms.h>
#include <kernel/jump_label.h>
#include <kernel/kprobes.h>
#include <asm/ptrace.h>
#include <asm/extable.h>
#include <asm/insn.h>
#include <asm/kprobes.h>
#include <asm/text_patch.h>
#include <trace/ftrace.h>

#define OPTIMIZE_DELAY		5	/* jiffies, as Linux's */
#define DETOUR_SIZE		256

extern u8 kprobe_detour_template[], kprobe_detour_template_addr[],
	kprobe_detour_template_call[], kprobe_detour_template_end[];
extern u8 kprobe_detours[], kprobe_detours_end[];
extern struct jump_entry __start___jump_table[], __stop___jump_table[];
extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

void kprobe_opt_handler(struct pt_regs *regs, unsigned long addr);

static bool optimization_on = true;
/* Sites with a prepared detour: interrupt returns check for regions only while nonzero. */
unsigned int kprobe_opt_prepared;
/* Detours handed out, each its address's (detour_addr) for good. */
static unsigned int detours_used;
static unsigned long detour_addr[(128 * 1024) / DETOUR_SIZE];

static bool optimizer_work;
static struct task_struct *optimizer_task;
static DECLARE_WAIT_QUEUE_HEAD(optimizer_wq);

static unsigned int template_len(void)
{
	return (unsigned int)(kprobe_detour_template_end - kprobe_detour_template);
}

unsigned long kprobe_opt_region_copy(const struct kprobe_site *s, unsigned long ip)
{
	u8 *d = smp_load_acquire(&s->detour);

	if (!d || ip < s->addr || ip >= s->addr + s->opt_len)
		return 0;
	return (unsigned long)d + template_len() + (ip - s->addr);
}

void kprobe_opt_read_text(unsigned long addr, u8 *buf, unsigned int len)
{
	for (unsigned long a = addr - (KPROBE_REGION_MAX - 1); a < addr + len; a++) {
		struct kprobe_site *s = kprobe_site_lookup(a);

		if (!s || !s->optimized)
			continue;
		for (unsigned int i = 0; i < s->opt_len; i++)
			if (a + i >= addr && a + i < addr + len)
				buf[a + i - addr] = s->orig[i];
	}
}

/* Does a jump of the function [start, end) land in (addr, addr + len)? */
static bool jump_into(unsigned long start, unsigned long end, unsigned long addr,
		      unsigned int len)
{
	unsigned long keys[16], ip, target;
	unsigned int nkeys = 0;
	u8 buf[INSN_MAX_LEN];
	struct insn insn;

	/* the function's static-key sites: may be mid-patch, so known 5-byte jumps */
	for (const struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++) {
		if (jump_entry_code(e) < start || jump_entry_code(e) >= end)
			continue;
		target = jump_entry_target(e);
		if ((target > addr && target < addr + len) || nkeys == ARRAY_SIZE(keys))
			return true;
		keys[nkeys++] = jump_entry_code(e);
	}
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table;
	     e++)
		if (e->fixup > addr && e->fixup < addr + len)
			return true;
	for (ip = start; ip < end; ip += insn.len) {
		bool site = ip == start && ftrace_location(ip);

		for (unsigned int i = 0; i < nkeys && !site; i++)
			site = keys[i] == ip;
		if (site) {
			insn.len = TEXT_POKE_SITE_SIZE;
			continue;
		}
		kprobe_read_text(ip, buf, sizeof(buf));
		if (insn_decode(&insn, buf, sizeof(buf)) < 0)
			return true;
		/* an indirect jmp (a jump table) may go anywhere */
		if (buf[insn.opcode_off] == 0xff && ((buf[insn.opcode_off + 1] >> 3) & 7) >= 4 &&
		    ((buf[insn.opcode_off + 1] >> 3) & 7) <= 5)
			return true;
		if (insn.flow != INSN_FLOW_JMP && insn.flow != INSN_FLOW_JCC)
			continue;
		target = ip + insn.len + (unsigned long)(long)insn.rel;
		if (target > addr && target < addr + len)
			return true;
	}
	return ip != end;
}

/*
 * The region's length, or -EBUSY (a probe inside or a kretprobe: may
 * change) or -EINVAL (never optimizable).
 */
static int region_len(const struct kprobe_site *s)
{
	unsigned long offset, size, start;
	unsigned int len = 0;
	const char *name;
	struct insn insn;

	if (kprobe_site_is_return(s))
		return -EBUSY;
	if (!kallsyms_lookup(s->addr, &name, &offset, &size))
		return -EINVAL;
	start = s->addr - offset;
	while (len < JMP32_SIZE) {
		if (len && kprobe_site_lookup(s->addr + len))
			return -EBUSY;
		if (insn_decode(&insn, s->orig + len, sizeof(s->orig) - len) < 0 ||
		    insn.flow != INSN_FLOW_NONE || s->orig[len] == INT3_OPCODE ||
		    search_exception_tables(s->addr + len))
			return -EINVAL;
		len += insn.len;
	}
	if (s->addr + len > start + size || kprobe_in_static_key_site(s->addr, len) ||
	    jump_into(start, start + size, s->addr, len))
		return -EINVAL;
	return (int)len;
}

/* The address's detour, written: template, the region's copy, jmp back. NULL: none. */
static u8 *detour_build(const struct kprobe_site *s, unsigned int len)
{
	unsigned int tlen = template_len(), i, n;
	u8 buf[DETOUR_SIZE], *d = NULL;
	unsigned long addr = s->addr;
	struct insn insn;
	s32 rel;

	for (i = 0; i < detours_used && !d; i++)
		if (detour_addr[i] == addr)
			d = kprobe_detours + i * DETOUR_SIZE;
	if (!d) {
		if (detours_used == ARRAY_SIZE(detour_addr))
			return NULL;
		d = kprobe_detours + detours_used * DETOUR_SIZE;
	}
	memset(buf, INT3_OPCODE, sizeof(buf));
	memcpy(buf, kprobe_detour_template, tlen);
	memcpy(buf + (kprobe_detour_template_addr - kprobe_detour_template) - 8, &addr, 8);
	n = (unsigned int)(kprobe_detour_template_call - kprobe_detour_template);
	rel = (s32)((unsigned long)kprobe_opt_handler - (unsigned long)(d + n));
	memcpy(buf + n - 4, &rel, 4);
	memcpy(buf + tlen, s->orig, len);
	for (i = 0; i < len; i += insn.len) {
		s64 disp;
		s32 d32;

		insn_decode(&insn, s->orig + i, sizeof(s->orig) - i);
		if (insn.disp_off < 0)
			continue;
		memcpy(&d32, buf + tlen + i + insn.disp_off, 4);
		disp = (s64)d32 + (s64)(addr - (unsigned long)(d + tlen));
		if (disp != (s32)disp)
			return NULL;
		d32 = (s32)disp;
		memcpy(buf + tlen + i + insn.disp_off, &d32, 4);
	}
	buf[tlen + len] = JMP32_OPCODE;
	rel = (s32)((addr + len) - ((unsigned long)d + tlen + len + JMP32_SIZE));
	memcpy(buf + tlen + len + 1, &rel, 4);
	text_poke(d, buf, tlen + len + JMP32_SIZE);
	if (d == kprobe_detours + detours_used * DETOUR_SIZE)
		detour_addr[detours_used++] = addr;
	return d;
}

/* One site's patch: the jmp to its detour, or int3 and the original tail. */
struct opt_batch {
	struct text_poke_batch b;
	struct kprobe_site *s;
	bool to_jmp;
};

static unsigned long opt_batch_site(const struct text_poke_batch *b, unsigned int i,
				    u8 insn[TEXT_POKE_SITE_SIZE])
{
	const struct opt_batch *ob = container_of(b, struct opt_batch, b);
	struct kprobe_site *s = ob->s;
	s32 rel = (s32)((unsigned long)s->detour - (s->addr + JMP32_SIZE));

	if (ob->to_jmp) {
		insn[0] = JMP32_OPCODE;
		memcpy(insn + 1, &rel, 4);
	} else {
		insn[0] = INT3_OPCODE;
		memcpy(insn + 1, s->orig + 1, TEXT_POKE_SITE_SIZE - 1);
	}
	return s->addr;
}

static unsigned long opt_batch_resume(const struct text_poke_batch *b, unsigned long ip)
{
	const struct opt_batch *ob = container_of(b, struct opt_batch, b);

	/* the detour runs the handlers and the region either way */
	return ip == ob->s->addr ? (unsigned long)ob->s->detour : 0;
}

static void site_patch(struct kprobe_site *s, bool to_jmp)
{
	struct opt_batch ob = {
		.b = { .n = 1, .site = opt_batch_site, .resume = opt_batch_resume },
		.s = s,
		.to_jmp = to_jmp,
	};

	text_poke_bp_batch(&ob.b);
}

static void site_optimize(struct kprobe_site *s, void *unused)
{
	int len;
	u8 *d;

	if (!s->opt_wanted)
		return;
	s->opt_wanted = false;
	if (s->optimized || s->opt_refused || !optimization_on || !s->probes)
		return;
	len = region_len(s);
	d = len > 0 ? detour_build(s, (unsigned int)len) : NULL;
	if (!d) {
		s->opt_refused = len != -EBUSY;
		return;
	}
	s->opt_len = (u8)len;
	smp_store_release(&s->detour, d);
	WRITE_ONCE(kprobe_opt_prepared, kprobe_opt_prepared + 1);
	/*
	 * The int3 is already there: this write of it is for its sync, after
	 * which every CPU that was inside the region (or the site's slot) has
	 * been moved to the copy on its way back from the sync's interrupt.
	 */
	text_poke_byte((void *)s->addr, INT3_OPCODE);
	site_patch(s, true);
	s->optimized = true;
}

void kprobe_opt_unoptimize(struct kprobe_site *s)
{
	if (s->optimized) {
		site_patch(s, false);
		s->optimized = false;
	}
	if (s->detour) {
		/* the int3 path goes back to the slot: the text is the original again */
		smp_store_release(&s->detour, NULL);
		WRITE_ONCE(kprobe_opt_prepared, kprobe_opt_prepared - 1);
	}
}

void kprobe_opt_make_room(unsigned long addr)
{
	for (unsigned int k = 1; k < KPROBE_REGION_MAX; k++) {
		struct kprobe_site *s = kprobe_site_lookup(addr - k);

		if (s && s->detour && k < s->opt_len)
			kprobe_opt_unoptimize(s);
	}
}

static int kprobe_optimizer(void *unused)
{
	for (;;) {
		wait_event(optimizer_wq, READ_ONCE(optimizer_work));
		/* registrations in a burst are optimized together */
		schedule_timeout_uninterruptible(OPTIMIZE_DELAY);
		kprobe_lock();
		WRITE_ONCE(optimizer_work, false);
		kprobe_for_each_site(site_optimize, NULL);
		kprobe_unlock();
	}
	return 0;
}

void kprobe_opt_queue(struct kprobe_site *s)
{
	if (!optimization_on || s->optimized)
		return;
	s->opt_wanted = true;
	if (!optimizer_task) {
		struct task_struct *t = kthread_run(kprobe_optimizer, NULL, "kprobe_optimizer");

		if (IS_ERR(t))
			return;
		optimizer_task = t;
	}
	WRITE_ONCE(optimizer_work, true);
	wake_up(&optimizer_wq);
}

void kprobe_opt_requeue_around(unsigned long addr)
{
	for (unsigned int k = 1; k < KPROBE_REGION_MAX; k++) {
		struct kprobe_site *s = kprobe_site_lookup(addr - k);

		if (s)
			kprobe_opt_queue(s);
	}
}

/* The detour's call, irqs off: the site's handlers, as the int3 handler runs them. */
void kprobe_opt_handler(struct pt_regs *regs, unsigned long addr)
{
	struct kprobe_site *s;

	kprobe_enter();
	/* the site may have gone while this CPU was on its way */
	s = kprobe_site_lookup(addr);
	if (s)
		kprobe_site_run_handlers(s, regs);
	kprobe_exit();
}

static void site_unoptimize(struct kprobe_site *s, void *unused)
{
	kprobe_opt_unoptimize(s);
}

static void site_queue(struct kprobe_site *s, void *unused)
{
	kprobe_opt_queue(s);
}

int kprobes_optimization_get(void)
{
	return READ_ONCE(optimization_on);
}

void kprobes_optimization_set(bool on)
{
	kprobe_lock();
	if (on != optimization_on) {
		optimization_on = on;
		kprobe_for_each_site(on ? site_queue : site_unoptimize, NULL);
	}
	kprobe_unlock();
}
