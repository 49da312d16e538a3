/*
 * Multiprocessor bring-up and cross-CPU operations.
 *
 * CPU numbers: 0 is the boot CPU, then the other enabled MADT entries in
 * table order, up to smp=N. Each CPU gets its own copy of .data..percpu,
 * and its GS base points there (minus the template's address), which is
 * all this_cpu_read needs.
 *
 * APs are started together: INIT to each, then STARTUP to each, then a
 * second STARTUP to those that have not shown up (the MP spec's
 * sequence). Each finds its cpu number from its APIC id and runs on its
 * idle task's stack from the first instruction of C.
 *
 * Function calls go through a per-CPU queue and one IPI vector; stopping
 * CPUs uses NMIs, which get through even to a CPU spinning with
 * interrupts off.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/cmdline.h>
#include <kernel/delay.h>
#include <kernel/time.h>
#include <kernel/smp.h>
#include <kernel/sched.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/tlbflush.h>
#include <asm/irq.h>
#include <asm/idt.h>
#include <asm/segment.h>
#include <asm/page.h>
#include <asm/smp_boot.h>
#include <asm/msr.h>
#include <asm/cpu.h>
#include <trace/events/ipi.h>

_Static_assert(NR_CPUS == NR_CPUS_ASM, "asm/smp_boot.h knows NR_CPUS");

/* Generous: the wait ends when the last AP is up, and a loaded host can hold a new vCPU back. */
#define AP_BOOT_TIMEOUT_MS	5000

extern char __per_cpu_start[], __per_cpu_end[];
extern char trampoline_start[], trampoline_end[], trampoline_cr3[], trampoline_entry[];
void ap_start64(void);
__noreturn void start_secondary(int cpu);

/* Read by ap_start64 before any C runs on the AP. */
u32 smp_boot_apicid[NR_CPUS];
unsigned long smp_boot_stack[NR_CPUS];

volatile u64 cpu_online_mask;

unsigned int num_online_cpus(void)
{
	return (unsigned int)__builtin_popcountll(cpu_online_mask);
}

/* The CPU list: the boot CPU first, then the MADT's others, at most smp=N. */
static unsigned int enumerate_cpus(void)
{
	unsigned int n = 1, limit = NR_CPUS;
	u32 me = lapic_id();
	int smp;

	if (cmdline_get_int(&boot_cmdline, "smp", &smp) == 0 && smp >= 1 && smp < NR_CPUS)
		limit = (unsigned int)smp;
	smp_boot_apicid[0] = me;
	for (unsigned int i = 0; i < acpi.nr_cpus && n < limit; i++)
		if (acpi.cpu_apicid[i] != me)
			smp_boot_apicid[n++] = acpi.cpu_apicid[i];
	for (unsigned int i = n; i < NR_CPUS; i++)
		smp_boot_apicid[i] = ~0u;
	return n;
}

void setup_per_cpu_areas(void)
{
	size_t size = (size_t)(__per_cpu_end - __per_cpu_start);
	unsigned int order = get_order(size);
	unsigned int n = enumerate_cpus();

	for (unsigned int cpu = 0; cpu < n; cpu++) {
		char *area = (char *)__get_free_pages(GFP_KERNEL, order);

		if (!area)
			panic("no memory for CPU %u's per-CPU area (%zu bytes)", cpu, size);
		memcpy(area, __per_cpu_start, size);
		per_cpu_offset[cpu] = (unsigned long)(area - __per_cpu_start);
		per_cpu(this_cpu_off, cpu) = per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = (int)cpu;
	}
	nr_cpu_ids = n;
	wrmsr(MSR_GS_BASE, per_cpu_offset[0]);
	/* The boot CPU's GDT/TSS were in the template: move to its own copy. */
	gdt_init_cpu();
	syscall_init_cpu();
	cpu_online_mask = 1;
	pr_info("smp: %u CPUs, per-CPU areas of %zu bytes\n", n, size);
}

/* --- cross-CPU function calls --- */

/* One queued call. */
struct call_single_data {
	struct list_head list;
	smp_call_func_t func;
	void *info;
	bool wait;		/* caller owns and waits on done; else the target frees it */
	int done;
	int src;		/* the caller's CPU: to wake it if it halted waiting */
};

/*
 * This CPU halts waiting for a call's done (wait_for_csd): the target sends
 * a wake-up IPI after setting done. Halting rather than spinning gives the
 * host CPU to the vCPU that has the call to run (QEMU's pause does not).
 */
static DEFINE_PER_CPU(int, csd_halted);

/* A CPU's queue of calls to run. */
struct call_queue {
	spinlock_t lock;
	struct list_head list;
};
static DEFINE_PER_CPU(struct call_queue, call_queue);

static void call_function_interrupt(struct pt_regs *regs)
{
	struct call_queue *q = this_cpu_ptr(&call_queue);
	struct call_single_data *csd, *n;
	LIST_HEAD(todo);

	spin_lock(&q->lock);
	list_for_each_entry_safe(csd, n, &q->list, list)
		list_move_tail(&csd->list, &todo);
	spin_unlock(&q->lock);
	list_for_each_entry_safe(csd, n, &todo, list) {
		bool wait = csd->wait;
		int src = csd->src;

		list_del_init(&csd->list);
		csd->func(csd->info);
		if (!wait) {
			kfree(csd);
			continue;
		}
		/* done frees csd to its caller: src was read before */
		smp_store_release(&csd->done, 1);
		smp_mb();	/* done before csd_halted: pairs with wait_for_csd's */
		if (READ_ONCE(per_cpu(csd_halted, src)))
			lapic_send_ipi(smp_boot_apicid[src], APIC_DM_FIXED, RESCHEDULE_VECTOR);
	}
}

static void reschedule_interrupt(struct pt_regs *regs)
{
	/* Nothing to do here: do_irq's exit path sees need_resched. */
}

static void queue_call(int cpu, struct call_single_data *csd)
{
	struct call_queue *q = per_cpu_ptr(&call_queue, cpu);
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	list_add_tail(&csd->list, &q->list);
	spin_unlock_irqrestore(&q->lock, flags);
	trace_ipi_send_cpu(cpu, _RET_IP_, (void *)csd->func);
	lapic_send_ipi(smp_boot_apicid[cpu], APIC_DM_FIXED, CALL_FUNCTION_VECTOR);
}

/* Spins before a halt: a target that is running answers in a few microseconds. */
#define CSD_SPINS	64

static void wait_for_csd(struct call_single_data *csd)
{
	int spins = 0;

	/* Interrupts stay on while waiting, or two CPUs calling each other would deadlock. */
	if (irqs_disabled())
		printk(KERN_WARNING "smp: waiting for a cross-CPU call with interrupts off\n");
	while (!smp_load_acquire(&csd->done)) {
		if (irqs_disabled() || ++spins < CSD_SPINS) {
			cpu_relax();
			continue;
		}
		local_irq_disable();
		this_cpu_write(csd_halted, 1);
		smp_mb();	/* csd_halted before done: the target sees one or we see the other */
		if (!READ_ONCE(csd->done))
			safe_halt();	/* the target's IPI, or any interrupt, ends it */
		else
			local_irq_enable();
		this_cpu_write(csd_halted, 0);
	}
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data on_stack, *csd = &on_stack;
	unsigned long flags;

	if (cpu < 0 || cpu >= (int)nr_cpu_ids || !cpu_online(cpu))
		return -ENXIO;
	preempt_disable();
	if (cpu == smp_processor_id()) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		preempt_enable();
		return 0;
	}
	if (!wait) {
		csd = kmalloc(sizeof(*csd), GFP_ATOMIC);
		if (!csd) {
			preempt_enable();
			return -ENOMEM;
		}
	}
	*csd = (struct call_single_data){ .func = func, .info = info, .wait = wait,
					  .src = smp_processor_id() };
	queue_call(cpu, csd);
	if (wait)
		wait_for_csd(csd);
	preempt_enable();
	return 0;
}

void smp_call_function_many(u64 mask, smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data *csds = NULL;
	int me, cpu;

	preempt_disable();
	me = smp_processor_id();
	if (wait)
		csds = kcalloc(nr_cpu_ids, sizeof(*csds), GFP_ATOMIC);
	for (cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		struct call_single_data *csd;

		if (cpu == me || !(mask & (1ULL << cpu)) || !cpu_online(cpu))
			continue;
		csd = csds ? &csds[cpu] : kmalloc(sizeof(*csd), GFP_ATOMIC);
		if (!csd) {
			printk(KERN_ERR "smp: no memory for a call to CPU %d\n", cpu);
			continue;
		}
		*csd = (struct call_single_data){ .func = func, .info = info, .wait = csds != NULL,
						  .src = me };
		queue_call(cpu, csd);
	}
	if (csds) {
		for (cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
			if (csds[cpu].func)
				wait_for_csd(&csds[cpu]);
		kfree(csds);
	}
	preempt_enable();
}

void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	unsigned long flags;

	preempt_disable();
	smp_call_function_many(cpu_online_mask, func, info, wait);
	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
	preempt_enable();
}

void smp_send_reschedule(int cpu)
{
	if (cpu_online(cpu)) {
		trace_ipi_send_cpu(cpu, _RET_IP_, NULL);
		lapic_send_ipi(smp_boot_apicid[cpu], APIC_DM_FIXED, RESCHEDULE_VECTOR);
	}
}

/* --- TLB shootdown --- */

struct flush_range {
	unsigned long start, end;
};

static void do_flush_tlb_range(void *info)
{
	struct flush_range *r = info;

	/* Past 32 pages a full flush is cheaper than invlpg one by one. */
	if ((r->end - r->start) >> PAGE_SHIFT > 32) {
		unsigned long cr3;

		__asm__ __volatile__("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) :: "memory");
		return;
	}
	for (unsigned long a = r->start & PAGE_MASK; a < r->end; a += PAGE_SIZE)
		__asm__ __volatile__("invlpg (%0)" :: "r"(a) : "memory");
}

void smp_flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_range r = { start, end };

	on_each_cpu(do_flush_tlb_range, &r, true);
}

/* --- NMIs and stopping --- */

static int stopping_cpu = -1;
static int cpus_stopped;

void send_nmi(int cpu)
{
	if (cpu >= 0 && cpu < (int)nr_cpu_ids) {
		nmi_expect(cpu);
		lapic_send_ipi(smp_boot_apicid[cpu], APIC_DM_NMI, 0);
	}
}

/* The ICR's "self" shorthand is not valid for NMIs: name our own APIC id instead. */
void send_self_nmi(void)
{
	nmi_expect(smp_processor_id());
	lapic_send_ipi(lapic_id(), APIC_DM_NMI, 0);
}

void nmi_stop_check(void)
{
	int stopper = READ_ONCE(stopping_cpu);

	if (stopper < 0 || stopper == smp_processor_id())
		return;
	__atomic_add_fetch(&cpus_stopped, 1, __ATOMIC_SEQ_CST);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

void smp_send_stop(void)
{
	int me = smp_processor_id(), expected = -1;
	u64 deadline;

	if (!__atomic_compare_exchange_n(&stopping_cpu, &expected, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		if (cpu != me && cpu_online(cpu))
			send_nmi(cpu);
	/* A bounded wait: a panic must go on even if a CPU does not answer. */
	deadline = ktime_get_ns() + 100 * NSEC_PER_MSEC;
	while (READ_ONCE(cpus_stopped) < (int)num_online_cpus() - 1 && ktime_get_ns() < deadline)
		cpu_relax();
}

/* --- AP start-up --- */

void start_secondary(int cpu)
{
	wrmsr(MSR_GS_BASE, per_cpu_offset[cpu]);
	gdt_init_cpu();
	syscall_init_cpu();
	idt_load();
	lapic_setup();
	tick_start_cpu();
	__atomic_or_fetch(&cpu_online_mask, 1ULL << cpu, __ATOMIC_SEQ_CST);
	cpu_startup_entry();
}

static unsigned long read_cr3(void)
{
	unsigned long cr3;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(cr3));
	return cr3;
}

static void flush_all_local(void *unused)
{
	unsigned long cr3 = read_cr3();

	__asm__ __volatile__("mov %0, %%cr3" :: "r"(cr3) : "memory");
}

void smp_init(void)
{
	size_t tsize = (size_t)(trampoline_end - trampoline_start);
	char *tramp = phys_to_virt(TRAMPOLINE_PHYS);
	u64 all = 0, deadline;
	unsigned int cpu;

	irq_register_vector(CALL_FUNCTION_VECTOR, call_function_interrupt);
	irq_register_vector(RESCHEDULE_VECTOR, reschedule_interrupt);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		spin_lock_init(&per_cpu(call_queue, cpu).lock);
		INIT_LIST_HEAD(&per_cpu(call_queue, cpu).list);
	}
	if (nr_cpu_ids == 1)
		return;
	if (read_cr3() >> 32 || paging_map_identity(TRAMPOLINE_PHYS, tsize)) {
		pr_err("smp: cannot map the AP trampoline, running on one CPU\n");
		nr_cpu_ids = 1;
		return;
	}
	memcpy(tramp, trampoline_start, tsize);
	*(u64 *)(tramp + (trampoline_cr3 - trampoline_start)) = read_cr3();
	*(u64 *)(tramp + (trampoline_entry - trampoline_start)) = (u64)ap_start64;

	for (cpu = 1; cpu < nr_cpu_ids; cpu++) {
		struct task_struct *idle = idle_task_create((int)cpu);

		per_cpu(current_task, cpu) = idle;
		smp_boot_stack[cpu] = (unsigned long)idle->stack + THREAD_SIZE;
		all |= 1ULL << cpu;
	}
	for (cpu = 1; cpu < nr_cpu_ids; cpu++)
		lapic_send_init(smp_boot_apicid[cpu]);
	udelay(1000);
	for (int round = 0; round < 2; round++) {
		for (cpu = 1; cpu < nr_cpu_ids; cpu++)
			if (!cpu_online(cpu))
				lapic_send_sipi(smp_boot_apicid[cpu], TRAMPOLINE_PHYS >> 12);
		udelay(200);
	}
	deadline = ktime_get_ns() + AP_BOOT_TIMEOUT_MS * NSEC_PER_MSEC;
	while ((cpu_online_mask & all) != all && ktime_get_ns() < deadline)
		cpu_relax();
	for (cpu = 1; cpu < nr_cpu_ids; cpu++)
		if (!cpu_online(cpu))
			pr_err("smp: CPU %u (APIC id %u) did not start\n", cpu, smp_boot_apicid[cpu]);
	paging_unmap_identity(TRAMPOLINE_PHYS, tsize);
	on_each_cpu(flush_all_local, NULL, true);
	pr_info("smp: brought up %u of %u CPUs\n", num_online_cpus(), nr_cpu_ids);
}
