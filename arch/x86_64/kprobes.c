/*
 * Kprobes on x86-64 (see kernel/kprobes.h).
 *
 * A site is one probed instruction: its first byte is replaced by int3
 * and the probes on it hang off the site. The int3 handler finds the site
 * by address, runs the handlers, then has the instruction run without
 * single-stepping: a jump, conditional jump or ret is emulated on the
 * registers; any other instruction that falls through runs from a slot
 * holding its copy and a jmp back past the original (a RIP-relative
 * operand's displacement rebased for the slot). Instructions that can do
 * neither (calls, indirect branches, system instructions) are refused.
 *
 * Removal: the original byte goes back and every CPU syncs, then the
 * remover waits until every handler that started before has finished
 * (per-CPU entry/exit counts, so NMIs and handlers that keep coming do
 * not stall it). A slot may still be running on a preempted task, so
 * slots are never reused for another address.
 *
 * Registration, the optimizer (kprobes_opt.c: a jmp to a detour in place
 * of the int3) and the listing are serialized by kprobe_mutex (Linux's
 * name), a sleeping lock: a removal can wait long for the handlers in
 * flight, the optimizer for a cross-CPU sync.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/spinlock.h>
#include <kernel/mutex.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/sched.h>
#include <kernel/kallsyms.h>
#include <kernel/stacktrace.h>
#include <kernel/printk.h>
#include <kernel/jump_label.h>
#include <kernel/kprobes.h>
#include <asm/ptrace.h>
#include <asm/insn.h>
#include <asm/extable.h>
#include <asm/text_patch.h>
#include <asm/irqflags.h>
#include <asm/kprobes.h>
#include <trace/ftrace.h>

#define KPROBE_SLOT_SIZE	32
#define KPROBE_HASH		256

extern u8 kretprobe_trampoline[];

static void kretprobe_entry(struct kprobe *p, struct pt_regs *regs);

static struct kprobe_site *kprobe_table[KPROBE_HASH];
static DEFINE_MUTEX(kprobe_mutex);
/* Slots handed out; each stays its address's (slot_addr) for good. */
static unsigned int slots_used;
static unsigned long slot_addr[65536 / KPROBE_SLOT_SIZE];

/* Handlers started and finished on each CPU (unregister waits on them). */
static DEFINE_PER_CPU(unsigned long, kprobe_enters);
static DEFINE_PER_CPU(unsigned long, kprobe_exits);
/* A handler runs on this CPU: a nested hit runs none. */
static DEFINE_PER_CPU(bool, kprobe_busy);

static unsigned int hash_addr(unsigned long addr)
{
	return (unsigned int)((addr ^ (addr >> 8)) % KPROBE_HASH);
}

void kprobe_lock(void)
{
	mutex_lock(&kprobe_mutex);
}

void kprobe_unlock(void)
{
	mutex_unlock(&kprobe_mutex);
}

void kprobe_enter(void)
{
	this_cpu_inc(kprobe_enters);
}

void kprobe_exit(void)
{
	this_cpu_inc(kprobe_exits);
}

struct kprobe_site *kprobe_site_lookup(unsigned long addr)
{
	struct kprobe_site *s = smp_load_acquire(&kprobe_table[hash_addr(addr)]);

	for (; s; s = smp_load_acquire(&s->next))
		if (s->addr == addr)
			return s;
	return NULL;
}

/* The text at addr as it is without our int3s and jmps. */
void kprobe_read_text(unsigned long addr, u8 *buf, unsigned int len)
{
	memcpy(buf, (const void *)addr, len);
	for (unsigned int i = 0; i < len; i++) {
		struct kprobe_site *s = kprobe_site_lookup(addr + i);

		if (s)
			buf[i] = s->orig[0];
	}
	kprobe_opt_read_text(addr, buf, len);
}

/* Wait until every handler that started on any CPU before this call has returned. */
static void kprobe_synchronize(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		unsigned long started = __atomic_load_n(per_cpu_ptr(&kprobe_enters, cpu),
							__ATOMIC_ACQUIRE);

		while ((long)(__atomic_load_n(per_cpu_ptr(&kprobe_exits, cpu), __ATOMIC_ACQUIRE) -
			      started) < 0)
			cpu_relax();
	}
}

static bool in_static_key_site(unsigned long addr, unsigned int len)
{
	extern struct jump_entry __start___jump_table[], __stop___jump_table[];

	for (const struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++) {
		unsigned long code = jump_entry_code(e);

		if (code < addr + len && addr < code + TEXT_POKE_SITE_SIZE)
			return true;
	}
	return false;
}

/* notrace, entry and NMI code, kprobes themselves: no entry site */
bool kprobe_blacklisted(unsigned long func)
{
	return !ftrace_location(func) || (func >= (unsigned long)kprobe_insn_slots &&
					  func < (unsigned long)kprobe_insn_slots_end);
}

/*
 * Where a probe asked at addr puts its int3: addr itself, or just past
 * a function's entry site (that NOP is the function tracer's to patch).
 * Checks that it is a probeable instruction boundary.
 */
static int probe_point(unsigned long addr, unsigned long *where)
{
	unsigned long offset, size, start, ip;
	const char *name;
	u8 buf[INSN_MAX_LEN];
	struct insn insn;

	if (!kallsyms_lookup(addr, &name, &offset, &size) || !kernel_text_address(addr))
		return -ENOENT;
	start = addr - offset;
	if (kprobe_blacklisted(start))
		return -EINVAL;
	for (ip = start; ip < addr; ip += insn.len) {
		kprobe_read_text(ip, buf, sizeof(buf));
		if (insn_decode(&insn, buf, sizeof(buf)) < 0)
			return -EILSEQ;
	}
	if (ip != addr)
		return -EILSEQ;
	if (ftrace_location(addr))
		addr += TEXT_POKE_SITE_SIZE;
	if (addr >= start + size)
		return -EINVAL;
	*where = addr;
	return 0;
}

/* Read and decode the site's instruction: can it run after a hit? */
static int site_decode(struct kprobe_site *s)
{
	kprobe_read_text(s->addr, s->orig, sizeof(s->orig));
	if (insn_decode(&s->insn, s->orig, sizeof(s->orig)) < 0)
		return -EILSEQ;
	if (s->insn.flow == INSN_FLOW_OTHER || s->orig[0] == INT3_OPCODE)
		return -EINVAL;
	if (search_exception_tables(s->addr) || in_static_key_site(s->addr, s->insn.len))
		return -EBUSY;
	return 0;
}

/* A fall-through instruction's slot: its copy, then a jmp back past the original. */
static int site_slot(struct kprobe_site *s)
{
	unsigned int len = s->insn.len;
	u8 copy[KPROBE_SLOT_SIZE];
	s32 rel;

	if (s->insn.flow != INSN_FLOW_NONE)
		return 0;
	for (unsigned int i = 0; i < slots_used && !s->slot; i++)
		if (slot_addr[i] == s->addr)
			s->slot = kprobe_insn_slots + i * KPROBE_SLOT_SIZE;
	if (s->slot)
		return 0;
	if (slots_used == ARRAY_SIZE(slot_addr))
		return -ENOMEM;
	s->slot = kprobe_insn_slots + slots_used * KPROBE_SLOT_SIZE;
	memset(copy, INT3_OPCODE, sizeof(copy));
	memcpy(copy, s->orig, len);
	if (s->insn.disp_off >= 0) {
		s32 disp;

		memcpy(&disp, copy + s->insn.disp_off, 4);
		disp += (s32)(s->addr - (unsigned long)s->slot);
		memcpy(copy + s->insn.disp_off, &disp, 4);
	}
	copy[len] = JMP32_OPCODE;
	rel = (s32)((s->addr + len) - ((unsigned long)s->slot + len + 5));
	memcpy(copy + len + 1, &rel, 4);
	text_poke(s->slot, copy, sizeof(copy));
	slot_addr[slots_used] = s->addr;
	smp_store_release(&slots_used, slots_used + 1);
	return 0;
}

int kprobe_check(unsigned long addr)
{
	struct kprobe_site s = { 0 };
	int ret;

	kprobe_lock();
	ret = probe_point(addr, &s.addr);
	if (!ret && !kprobe_site_lookup(s.addr))
		ret = site_decode(&s);
	kprobe_unlock();
	return ret;
}

/* /sys/kernel/debug/kprobes/enabled at 0: sites stay registered, none is in the text. */
static bool sites_disarmed;

bool kprobe_sites_armed(void)
{
	return !sites_disarmed;
}

/* The site's int3 into the text, and the optimizer told. */
static void site_rearm(struct kprobe_site *s, void *unused)
{
	text_poke_byte((void *)s->addr, INT3_OPCODE);
	kprobe_opt_queue(s);
}

/* The site's original bytes back in the text, in place of its int3 or jmp. */
static void site_disarm(struct kprobe_site *s, void *unused)
{
	if (s->optimized) {
		kprobe_opt_remove(s);
		return;
	}
	/* twice, as text_poke_bp_batch's last pass: MTTCG may keep a translation of the int3 */
	text_poke_byte((void *)s->addr, s->orig[0]);
	text_poke_byte((void *)s->addr, s->orig[0]);
}

int kprobes_get_armed(void)
{
	return kprobe_sites_armed();
}

void kprobes_set_armed(bool on)
{
	kprobe_lock();
	if (on != kprobe_sites_armed()) {
		sites_disarmed = !on;
		kprobe_for_each_site(on ? site_rearm : site_disarm, NULL);
	}
	kprobe_unlock();
}

/* A new site: decoded, its slot written, in the table, its int3 in the text. */
static int site_arm(unsigned long where, struct kprobe *p)
{
	struct kprobe_site *s = kzalloc(sizeof(*s), GFP_KERNEL);
	unsigned int h;
	int ret;

	if (!s)
		return -ENOMEM;
	s->addr = where;
	ret = site_decode(s);
	if (!ret)
		ret = site_slot(s);
	if (ret) {
		kfree(s);
		return ret;
	}
	p->next = NULL;
	s->probes = p;
	p->site = s;
	/* an optimized region holding where goes back to int3 first */
	kprobe_opt_make_room(where);
	h = hash_addr(where);
	s->next = kprobe_table[h];
	smp_store_release(&kprobe_table[h], s);
	if (kprobe_sites_armed())
		site_rearm(s, NULL);
	return 0;
}

int register_kprobe(struct kprobe *p)
{
	unsigned long where;
	struct kprobe_site *s;
	int ret;

	kprobe_lock();
	ret = probe_point(p->addr, &where);
	if (ret)
		goto out;
	p->nmissed = 0;
	p->site = s = kprobe_site_lookup(where);
	if (!s) {
		kprobe_opt_start();
		ret = site_arm(where, p);
		goto out;
	}
	struct kprobe **tail = &s->probes;

	/* in registration order, as Linux runs them */
	while (*tail)
		tail = &(*tail)->next;
	p->next = NULL;
	smp_store_release(tail, p);
	/* kretprobes are not optimized (Linux's are on ftrace sites) */
	if (s->optimized && kprobe_site_is_return(s))
		kprobe_opt_unoptimize(s);
out:
	kprobe_unlock();
	return ret;
}

void unregister_kprobe(struct kprobe *p)
{
	struct kprobe_site *s = p->site, **pp;
	struct kprobe **kp;

	kprobe_lock();
	for (kp = &s->probes; *kp; kp = &(*kp)->next)
		if (*kp == p) {
			smp_store_release(kp, p->next);
			break;
		}
	if (!s->probes) {
		/* the bytes first: a CPU that hits int3 after finds no site and retries */
		if (kprobe_sites_armed())
			site_disarm(s, NULL);
		for (pp = &kprobe_table[hash_addr(s->addr)]; *pp; pp = &(*pp)->next)
			if (*pp == s) {
				smp_store_release(pp, s->next);
				break;
			}
	} else {
		/* the kretprobe that kept it from being optimized may be gone */
		kprobe_opt_queue(s);
	}
	kprobe_synchronize();
	if (!s->probes) {
		/* a region it kept from being optimized may be free now */
		kprobe_opt_requeue_around(s->addr);
		kfree(s);
	}
	p->site = NULL;
	kprobe_unlock();
}

void kprobe_for_each_site(void (*fn)(struct kprobe_site *s, void *arg), void *arg)
{
	for (unsigned int h = 0; h < KPROBE_HASH; h++)
		for (struct kprobe_site *s = kprobe_table[h]; s; s = s->next)
			fn(s, arg);
}

void kprobes_list(void (*fn)(void *arg, const struct kprobe_info *info), void *arg)
{
	kprobe_lock();
	for (unsigned int h = 0; h < KPROBE_HASH; h++)
		for (struct kprobe_site *s = kprobe_table[h]; s; s = s->next)
			for (struct kprobe *p = s->probes; p; p = p->next) {
				struct kprobe_info info = {
					.addr = s->addr,
					.is_return = p->pre_handler == kretprobe_entry,
					.optimized = s->optimized,
				};

				fn(arg, &info);
			}
	kprobe_unlock();
}

void kprobe_fixup_interrupted(struct pt_regs *regs)
{
	unsigned long ip = regs->rip, to = 0;
	struct kprobe_site *s;

	if (user_mode(regs))
		return;
	kprobe_enter();
	if (ip >= (unsigned long)kprobe_insn_slots && ip < (unsigned long)kprobe_insn_slots_end) {
		/* in a slot: its instruction, or its jmp back into the region */
		unsigned long i = (ip - (unsigned long)kprobe_insn_slots) / KPROBE_SLOT_SIZE;
		unsigned long off = (ip - (unsigned long)kprobe_insn_slots) % KPROBE_SLOT_SIZE;

		s = i < smp_load_acquire(&slots_used) ? kprobe_site_lookup(slot_addr[i]) : NULL;
		if (s && s->slot && off <= s->insn.len)
			to = kprobe_opt_region_copy(s, s->addr + off);
	} else {
		for (unsigned int k = 1; k < KPROBE_REGION_MAX && !to; k++) {
			s = kprobe_site_lookup(ip - k);
			if (s)
				to = kprobe_opt_region_copy(s, ip);
		}
	}
	if (to)
		regs->rip = to;
	kprobe_exit();
}

/* Go on as the probed instruction would have. */
static void site_run_insn(const struct kprobe_site *s, struct pt_regs *regs)
{
	unsigned long next = s->addr + s->insn.len;

	/* a prepared detour: its copy of the region, so no CPU stops inside it */
	if (smp_load_acquire(&s->detour)) {
		regs->rip = kprobe_opt_region_copy(s, s->addr);
		return;
	}
	switch (s->insn.flow) {
	case INSN_FLOW_JMP:
		regs->rip = next + (unsigned long)(long)s->insn.rel;
		break;
	case INSN_FLOW_JCC:
		regs->rip = insn_cond_taken(s->insn.cond, regs->rflags)
				    ? next + (unsigned long)(long)s->insn.rel : next;
		break;
	case INSN_FLOW_RET:
		regs->rip = *(unsigned long *)regs->rsp;
		regs->rsp += 8;
		break;
	default:
		regs->rip = (unsigned long)s->slot;
		break;
	}
}

static __always_inline void site_run_handlers(struct kprobe_site *s, struct pt_regs *regs)
{
	bool run = !this_cpu_read(kprobe_busy) && !in_nmi();

	if (run)
		this_cpu_write(kprobe_busy, true);
	for (struct kprobe *p = smp_load_acquire(&s->probes); p; p = smp_load_acquire(&p->next)) {
		if (!run) {
			p->nmissed++;
			continue;
		}
		/* handlers see the probe's own address */
		regs->rip = p->addr;
		p->pre_handler(p, regs);
	}
	if (run)
		this_cpu_write(kprobe_busy, false);
}

void kprobe_site_run_handlers(struct kprobe_site *s, struct pt_regs *regs)
{
	site_run_handlers(s, regs);
}

bool kprobe_int3_handler(struct pt_regs *regs)
{
	unsigned long ip = regs->rip - 1;
	struct kprobe_site *s;

	if (user_mode(regs))
		return false;
	kprobe_enter();
	s = kprobe_site_lookup(ip);
	if (!s) {
		kprobe_exit();
		/* removed while this CPU was on its way: run what memory holds now */
		if (*(volatile u8 *)ip != INT3_OPCODE && !in_static_key_site(ip, 1) &&
		    !ftrace_location(ip)) {
			regs->rip = ip;
			return true;
		}
		return false;
	}
	site_run_handlers(s, regs);
	site_run_insn(s, regs);
	kprobe_exit();
	return true;
}

/* --- kretprobes ------------------------------------------------------------------------- */

/* One call in flight: where its return address was and what it was. */
struct kretprobe_instance {
	struct kretprobe_pool *pool;
	unsigned long *ret_slot;	/* the stack word now holding the trampoline */
	unsigned long ret_addr;
	unsigned long args[KRETPROBE_ARGS];	/* the argument registers at the call */
	struct kretprobe_instance *next;	/* the task's (newest first), or the free list */
};

/*
 * A kretprobe's instances. It outlives the kretprobe while calls are in
 * flight: the last one back puts it on the dead list, freed by the next
 * (un)registration.
 */
struct kretprobe_pool {
	spinlock_t lock;
	struct kretprobe *rp;		/* NULL once unregistered */
	struct kretprobe_instance *free;
	unsigned int in_flight;
	struct kretprobe_pool *next_dead;
	struct kretprobe_instance insts[];
};

static struct kretprobe_pool *dead_pools;
static DEFINE_SPINLOCK(dead_pools_lock);

unsigned int kretprobe_default_maxactive(void)
{
	return nr_cpu_ids * 2 > 10 ? nr_cpu_ids * 2 : 10;
}

static void free_dead_pools(void)
{
	struct kretprobe_pool *list, *next;
	unsigned long flags;

	spin_lock_irqsave(&dead_pools_lock, flags);
	list = dead_pools;
	dead_pools = NULL;
	spin_unlock_irqrestore(&dead_pools_lock, flags);
	for (; list; list = next) {
		next = list->next_dead;
		kfree(list);
	}
}

static void pool_put(struct kretprobe_instance *ri)
{
	struct kretprobe_pool *pool = ri->pool;
	unsigned long flags;
	bool dead;

	spin_lock_irqsave(&pool->lock, flags);
	ri->next = pool->free;
	pool->free = ri;
	dead = --pool->in_flight == 0 && !pool->rp;
	spin_unlock_irqrestore(&pool->lock, flags);
	if (dead) {
		spin_lock_irqsave(&dead_pools_lock, flags);
		pool->next_dead = dead_pools;
		dead_pools = pool;
		spin_unlock_irqrestore(&dead_pools_lock, flags);
	}
}

bool kprobe_site_is_return(const struct kprobe_site *s)
{
	for (const struct kprobe *p = s->probes; p; p = p->next)
		if (p->pre_handler == kretprobe_entry)
			return true;
	return false;
}

/* The entry probe: swap the return address (at *rsp on entry) for the trampoline. */
static void kretprobe_entry(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_pool *pool = rp->pool;
	struct kretprobe_instance *ri;
	struct task_struct *t = current;

	spin_lock(&pool->lock);
	ri = pool->free;
	if (ri) {
		pool->free = ri->next;
		pool->in_flight++;
	}
	spin_unlock(&pool->lock);
	if (!ri) {
		rp->nmissed++;
		return;
	}
	ri->ret_slot = (unsigned long *)regs->rsp;
	ri->ret_addr = *ri->ret_slot;
	ri->args[0] = regs->rdi;
	ri->args[1] = regs->rsi;
	ri->args[2] = regs->rdx;
	ri->args[3] = regs->rcx;
	ri->args[4] = regs->r8;
	ri->args[5] = regs->r9;
	ri->next = t->kretprobe_stack;
	t->kretprobe_stack = ri;
	*ri->ret_slot = (unsigned long)kretprobe_trampoline;
}

/* Called by kretprobe_trampoline: run the handler, give back the real return address. */
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs);
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs)
{
	unsigned long *ret_slot = (unsigned long *)(regs + 1) + 1;	/* the pushed word */
	struct task_struct *t = current;
	struct kretprobe_instance *ri;
	unsigned long flags, ret = 0;
	struct kretprobe *rp;

	local_irq_save(flags);
	this_cpu_inc(kprobe_enters);
	/* frames above the returning one that never returned (none in practice) go too */
	while ((ri = t->kretprobe_stack)) {
		t->kretprobe_stack = ri->next;
		if (ri->ret_slot == ret_slot)
			break;
		pool_put(ri);
	}
	if (!ri) {
		show_regs(regs);
		panic("kretprobe: return with no instance");
	}
	ret = ri->ret_addr;
	rp = READ_ONCE(ri->pool->rp);
	if (rp && !this_cpu_read(kprobe_busy) && !in_nmi()) {
		this_cpu_write(kprobe_busy, true);
		regs->rip = ret;
		regs->rsp = (unsigned long)(ret_slot + 1);
		rp->handler(rp, regs, ret, ri->args);
		this_cpu_write(kprobe_busy, false);
	} else if (rp) {
		rp->nmissed++;
	}
	pool_put(ri);
	this_cpu_inc(kprobe_exits);
	local_irq_restore(flags);
	return ret;
}

int register_kretprobe(struct kretprobe *rp)
{
	unsigned int n = rp->maxactive ? rp->maxactive : kretprobe_default_maxactive();
	struct kretprobe_pool *pool;
	unsigned long offset, size;
	const char *name;
	int ret;

	free_dead_pools();
	if (!kallsyms_lookup(rp->kp.addr, &name, &offset, &size))
		return -ENOENT;
	if (offset)
		return -EINVAL;
	pool = kzalloc(sizeof(*pool) + n * sizeof(pool->insts[0]), GFP_KERNEL);
	if (!pool)
		return -ENOMEM;
	spin_lock_init(&pool->lock);
	pool->rp = rp;
	for (unsigned int i = 0; i < n; i++) {
		pool->insts[i].pool = pool;
		pool->insts[i].next = pool->free;
		pool->free = &pool->insts[i];
	}
	rp->pool = pool;
	rp->nmissed = 0;
	rp->kp.pre_handler = kretprobe_entry;
	ret = register_kprobe(&rp->kp);
	if (ret) {
		kfree(pool);
		rp->pool = NULL;
	}
	return ret;
}

void unregister_kretprobe(struct kretprobe *rp)
{
	struct kretprobe_pool *pool = rp->pool;
	unsigned long flags;
	bool dead;

	unregister_kprobe(&rp->kp);
	spin_lock_irqsave(&pool->lock, flags);
	WRITE_ONCE(pool->rp, NULL);
	dead = pool->in_flight == 0;
	spin_unlock_irqrestore(&pool->lock, flags);
	/* a trampoline that read rp before it went has finished with it after this */
	kprobe_synchronize();
	if (dead)
		kfree(pool);
	rp->pool = NULL;
	free_dead_pools();
}

void kretprobe_flush_task(struct task_struct *t)
{
	struct kretprobe_instance *ri;
	unsigned long flags;

	local_irq_save(flags);
	while ((ri = t->kretprobe_stack)) {
		t->kretprobe_stack = ri->next;
		pool_put(ri);
	}
	local_irq_restore(flags);
}
