/*
 * Jump-optimized kprobes (Linux's optprobes): a probe whose site starts a
 * run of whole fall-through instructions covering 5 bytes (its region)
 * gets a jmp rel32 over that region, to a detour that builds the struct
 * pt_regs the int3 handler would, runs the site's handlers, restores the
 * registers, runs a copy of the region and jumps back past it. A hit then
 * costs a jmp and a call instead of a trap.
 *
 * A region qualifies when its function's code allows it
 * (asm/optprobe_region.h: whole fall-through instructions, no jump of the
 * function into it, no jump table), no other probe, static-key jump
 * target or exception fixup is in it, and a RIP-relative operand still
 * reaches its target from the copy. Kretprobes stay int3 (Linux's are
 * ftrace-based).
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
 * a registration, one jiffy where Linux waits five: ftracetest's
 * kprobe_opt_types looks for OPTIMIZED right after one fork, which takes
 * Spoor half Linux's time, and missed it in about 1 run of 10 with five
 * (each try a new race); with one it sees it on the first try. A burst of
 * registrations is still optimized together. /proc/sys/debug/kprobes-optimization turns it off (every
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
#include <asm/optprobe_region.h>
#include <trace/ftrace.h>

#define OPTIMIZE_DELAY		1	/* jiffies: see above */
#define DETOUR_SIZE		256
#define KPROBE_DETOURS_SIZE	(128 * 1024)	/* kprobe_detours in kprobes_64.S */
#define OPT_BATCH_MAX		128	/* sites optimized in one run of the int3 protocol */

extern u8 kprobe_detour_template[], kprobe_detour_template_addr[],
	kprobe_detour_template_call[], kprobe_detour_template_end[];
extern u8 kprobe_detours[];
extern struct jump_entry __start___jump_table[], __stop___jump_table[];
extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

void kprobe_opt_handler(struct pt_regs *regs, unsigned long addr);

static bool optimization_on = true;
/* Sites with a prepared detour: interrupt returns check for regions only while nonzero. */
unsigned int kprobe_opt_prepared;
/* Detours handed out, each its address's (detour_addr) for good. */
static unsigned int detours_used;
static unsigned long detour_addr[KPROBE_DETOURS_SIZE / DETOUR_SIZE];

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

static void read_unprobed(const struct optprobe_func *f, unsigned long ip, u8 *buf)
{
	kprobe_read_text(ip, buf, INSN_MAX_LEN);
}

/*
 * The region's length, or -EBUSY (a probe inside or a kretprobe: may
 * change) or -EINVAL (never optimizable): the code's verdict
 * (optprobe_region), then what the code does not show: exception
 * fixups and static-key jumps landing in the region, instructions that
 * may fault (their fixup is for the original address).
 */
static int region_len(const struct kprobe_site *s)
{
	struct optprobe_func f = { .read = read_unprobed };
	unsigned long sites[16], offset, size;
	const char *name;
	unsigned int len, i;

	if (kprobe_site_is_return(s))
		return -EBUSY;
	if (!kallsyms_lookup(s->addr, &name, &offset, &size))
		return -EINVAL;
	f.start = s->addr - offset;
	f.end = f.start + size;
	f.sites = sites;
	if (ftrace_location(f.start))
		sites[f.nsites++] = f.start;
	for (const struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++) {
		unsigned long code = jump_entry_code(e), target = jump_entry_target(e);

		if (code < f.start || code >= f.end)
			continue;
		if ((target > s->addr && target < s->addr + KPROBE_REGION_MAX) ||
		    f.nsites == ARRAY_SIZE(sites))
			return -EINVAL;
		sites[f.nsites++] = code;
	}
	len = optprobe_region(&f, s->addr);
	if (!len)
		return -EINVAL;
	for (i = 1; i < len; i++)
		if (kprobe_site_lookup(s->addr + i))
			return -EBUSY;
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table;
	     e++)
		if ((e->fixup > s->addr && e->fixup < s->addr + len) ||
		    (e->insn >= s->addr && e->insn < s->addr + len))
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

/* What a batch writes over each site's first 5 bytes. */
enum opt_patch {
	TO_JMP,		/* the jmp to its detour */
	TO_INT3,	/* int3 and the original tail: a plain kprobe again */
	TO_ORIG,	/* the original bytes: the probe goes */
};

/* Sites patched in one run of the int3 protocol (kprobe_lock). */
struct opt_batch {
	struct text_poke_batch b;
	enum opt_patch to;
	struct kprobe_site *sites[OPT_BATCH_MAX];
};

static struct opt_batch opt_batch;

static unsigned long opt_batch_site(const struct text_poke_batch *b, unsigned int i,
				    u8 insn[TEXT_POKE_SITE_SIZE])
{
	const struct opt_batch *ob = container_of(b, struct opt_batch, b);
	struct kprobe_site *s = ob->sites[i];
	s32 rel = (s32)((unsigned long)s->detour - (s->addr + JMP32_SIZE));

	memcpy(insn, s->orig, TEXT_POKE_SITE_SIZE);
	if (ob->to == TO_JMP) {
		insn[0] = JMP32_OPCODE;
		memcpy(insn + 1, &rel, 4);
	} else if (ob->to == TO_INT3) {
		insn[0] = INT3_OPCODE;
	}
	return s->addr;
}

static unsigned long opt_batch_resume(const struct text_poke_batch *b, unsigned long ip)
{
	const struct opt_batch *ob = container_of(b, struct opt_batch, b);

	/* the detour runs the handlers and the region, whatever the site holds now */
	for (unsigned int i = 0; i < b->n; i++)
		if (ob->sites[i]->addr == ip)
			return (unsigned long)ob->sites[i]->detour;
	return 0;
}

/* Patch the batch's sites; an unoptimized site's int3 path no longer needs its detour. */
static void opt_batch_run(enum opt_patch to)
{
	struct opt_batch *ob = &opt_batch;

	if (!ob->b.n)
		return;
	ob->b.site = opt_batch_site;
	ob->b.resume = opt_batch_resume;
	ob->to = to;
	text_poke_bp_batch(&ob->b);
	for (unsigned int i = 0; i < ob->b.n; i++) {
		struct kprobe_site *s = ob->sites[i];

		s->optimized = to == TO_JMP;
		if (to != TO_JMP) {
			smp_store_release(&s->detour, NULL);
			WRITE_ONCE(kprobe_opt_prepared, kprobe_opt_prepared - 1);
		}
	}
	ob->b.n = 0;
}

/* A wanted site's detour, ready and published: into the batch. */
static void site_prepare(struct kprobe_site *s, void *unused)
{
	int len;
	u8 *d;

	if (!s->opt_wanted || opt_batch.b.n == OPT_BATCH_MAX)
		return;
	s->opt_wanted = false;
	if (s->optimized || s->opt_refused || !optimization_on || !s->probes ||
	    !kprobe_sites_armed())
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
	opt_batch.sites[opt_batch.b.n++] = s;
}

/* Optimize every wanted site, a batch at a time. */
static void optimize_wanted(void)
{
	bool full;

	do {
		kprobe_for_each_site(site_prepare, NULL);
		if (!opt_batch.b.n)
			return;
		full = opt_batch.b.n == OPT_BATCH_MAX;
		/*
		 * The int3s are already there: this write of one is for its sync,
		 * after which every CPU that was inside a region (or a site's
		 * slot) has been moved to the copy on its way back from the
		 * sync's interrupt, and none can enter one but at its start.
		 */
		text_poke_byte((void *)opt_batch.sites[0]->addr, INT3_OPCODE);
		opt_batch_run(TO_JMP);
	} while (full);
}

static void site_batch(struct kprobe_site *s, enum opt_patch to)
{
	opt_batch.sites[0] = s;
	opt_batch.b.n = 1;
	opt_batch_run(to);
}

void kprobe_opt_unoptimize(struct kprobe_site *s)
{
	if (s->optimized)
		site_batch(s, TO_INT3);
}

void kprobe_opt_remove(struct kprobe_site *s)
{
	site_batch(s, TO_ORIG);
}

void kprobe_opt_make_room(unsigned long addr)
{
	for (unsigned int k = 1; k < KPROBE_REGION_MAX; k++) {
		struct kprobe_site *s = kprobe_site_lookup(addr - k);

		if (s && s->optimized && k < s->opt_len)
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
		optimize_wanted();
		kprobe_unlock();
	}
	return 0;
}

void kprobe_opt_start(void)
{
	struct task_struct *t;

	if (optimizer_task)
		return;
	t = kthread_run(kprobe_optimizer, NULL, "kprobe_optimizer");
	if (!IS_ERR(t))
		optimizer_task = t;
}

void kprobe_opt_queue(struct kprobe_site *s)
{
	if (!optimization_on || s->optimized || !optimizer_task)
		return;
	s->opt_wanted = true;
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
	s->opt_wanted = false;
	if (!s->optimized)
		return;
	opt_batch.sites[opt_batch.b.n++] = s;
	if (opt_batch.b.n == OPT_BATCH_MAX)
		opt_batch_run(TO_INT3);
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
		opt_batch_run(TO_INT3);
	}
	kprobe_unlock();
}
