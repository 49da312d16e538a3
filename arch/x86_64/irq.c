/*
 * Device interrupts, IPIs and NMIs. Vectors >= 32 dispatch through a
 * table of handlers inside the hardirq bracket (irq_enter/irq_exit: the
 * preempt_count accounting and softirqs on the way out). An interrupt
 * that came from preemptible code is also where the tick's or a wake-up's
 * reschedule request is acted on.
 *
 * NMIs can arrive anywhere, even inside a spinlock holder or another
 * handler, so do_nmi takes no locks and only counts, runs the lock-free
 * NMI handlers, and parks the CPU when a panic asked for it.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/preempt.h>
#include <kernel/irqflags.h>
#include <kernel/interrupt.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <asm/idt.h>
#include <asm/irq.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <kernel/fs/seq_file.h>
#include <trace/events/irq.h>
#include <trace/events/nmi.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>
#include <kernel/timer.h>
#include <kernel/stacktrace.h>
#include <kernel/ftrace.h>

#define NR_NMI_HANDLERS	8

static irq_handler_t vector_handlers[NR_VECTORS];
static nmi_handler_t nmi_handlers[NR_NMI_HANDLERS];
static DEFINE_PER_CPU(int, nmi_expected);	/* NMIs the kernel sent this CPU, not yet taken */
static int nmi_dumping;				/* one CPU shows the tasks per unknown NMI */
static DEFINE_PER_CPU(int, nmi_backtrace);	/* trigger_all_cpu_backtrace asks this CPU */
static int backtrace_busy;			/* one trigger_all_cpu_backtrace at a time */
static DEFINE_PER_CPU(u64, nmi_counter);
/* Interrupts taken per vector on this CPU, for /proc/interrupts. */
static DEFINE_PER_CPU(unsigned long[NR_VECTORS], vector_counter);

int irq_register_vector(unsigned int vector, irq_handler_t handler)
{
	if (vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS || vector_handlers[vector])
		return -1;
	vector_handlers[vector] = handler;
	return 0;
}

/* What irq_handler_entry calls a vector's handler (Linux: the irqaction's name). */
static const char *vector_name(unsigned long vector)
{
	switch (vector) {
	case LOCAL_TIMER_VECTOR: return "timer";
	case CALL_FUNCTION_VECTOR: return "call_function";
	case RESCHEDULE_VECTOR: return "reschedule";
	case IRQ_WORK_VECTOR: return "irq_work";
	case ISA_IRQ_VECTOR(4): return "ttyS0";
	default: return "irq";
	}
}

void do_irq(struct pt_regs *regs)
{
	irq_handler_t h = vector_handlers[regs->vector];
	struct pt_regs *old_regs = set_irq_regs(regs);
	/* Taking it turned interrupts off: an irqs-off section until its return. */
	bool irqs_were_on = regs->rflags & X86_EFLAGS_IF;

	if (trace_irqflags_enabled() && irqs_were_on)
		trace_hardirqs_off_caller((unsigned long)do_irq, regs->rip);
	irq_enter();
	this_cpu_inc(vector_counter[regs->vector]);
	if (h) {
		trace_irq_handler_entry((int)regs->vector, vector_name(regs->vector));
		h(regs);
		trace_irq_handler_exit((int)regs->vector, 1);
	} else
		printk(KERN_WARNING "spurious interrupt on vector %lu\n", regs->vector);
	/* The LAPIC's spurious vector is the one delivery that must not be acknowledged. */
	if (regs->vector != SPURIOUS_APIC_VECTOR)
		lapic_eoi();
	irq_exit();
	set_irq_regs(old_regs);
	/* Back to code that may be preempted: switch now if the scheduler asked. */
	if (!preempt_count() && this_cpu_read(need_resched) && irqs_were_on)
		preempt_schedule_irq();
	if (trace_irqflags_enabled() && irqs_were_on)
		trace_hardirqs_on_caller((unsigned long)do_irq, regs->rip);
}

int register_nmi_handler(nmi_handler_t fn)
{
	for (int i = 0; i < NR_NMI_HANDLERS; i++)
		if (__atomic_compare_exchange_n(&nmi_handlers[i], &(nmi_handler_t){ NULL }, fn, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return 0;
	return -1;
}

u64 nmi_count(int cpu)
{
	return READ_ONCE(per_cpu(nmi_counter, cpu));
}

void nmi_expect(int cpu)
{
	__atomic_add_fetch(per_cpu_ptr(&nmi_expected, cpu), 1, __ATOMIC_SEQ_CST);
}

/* Take one expected NMI off this CPU's count: false when none was expected. */
static notrace bool nmi_was_expected(void)
{
	int *n = this_cpu_ptr(&nmi_expected), v = __atomic_load_n(n, __ATOMIC_ACQUIRE);

	while (v > 0)
		if (__atomic_compare_exchange_n(n, &v, v - 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

/* Where this CPU is, from an NMI: only it can see its registers, run queue and APIC timer. */
static notrace void nmi_cpu_backtrace(struct pt_regs *regs)
{
	unsigned long entries[16];
	unsigned int n;

	printk(KERN_INFO "NMI backtrace for cpu %d\n", smp_processor_id());
	printk(KERN_INFO "RIP: %04lx:%pS%s\n", regs->cs, (void *)regs->rip,
	       (regs->rflags & X86_EFLAGS_IF) ? "" : " (irqs off)");
	if (!user_mode(regs)) {
		n = stack_trace_save_from(regs->rbp, entries, ARRAY_SIZE(entries));
		stack_trace_print(entries, n);
	}
	sched_show_cpu();
	timers_show_cpu();
	hrtimers_show_cpu();
}

void trigger_all_cpu_backtrace(void)
{
	u64 deadline;
	int me;

	preempt_disable();
	me = smp_processor_id();
	if (__atomic_exchange_n(&backtrace_busy, 1, __ATOMIC_ACQUIRE)) {
		preempt_enable();
		return;
	}
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		if (cpu == me || !cpu_online(cpu))
			continue;
		__atomic_store_n(per_cpu_ptr(&nmi_backtrace, cpu), 1, __ATOMIC_RELEASE);
		send_nmi(cpu);
		/* one CPU's lines at a time; bounded, a CPU that does not answer is named */
		deadline = ktime_get_ns() + 100 * NSEC_PER_MSEC;
		while (__atomic_load_n(per_cpu_ptr(&nmi_backtrace, cpu), __ATOMIC_ACQUIRE) &&
		       ktime_get_ns() < deadline)
			cpu_relax();
		if (__atomic_exchange_n(per_cpu_ptr(&nmi_backtrace, cpu), 0, __ATOMIC_ACQ_REL))
			printk(KERN_INFO "NMI backtrace: cpu %d did not answer in 100 ms\n", cpu);
	}
	__atomic_store_n(&backtrace_busy, 0, __ATOMIC_RELEASE);
	preempt_enable();
}

/*
 * Nobody sent it and nobody claims it (QEMU's monitor `nmi`, which reaches
 * one CPU): say so as Linux does, then show where this CPU and every other
 * one is, and every task. A sleeper whose timer never fired and one whose
 * wake-up was lost look alike in the tasks alone.
 */
static notrace void unknown_nmi(struct pt_regs *regs)
{
	printk(KERN_EMERG "Uhhuh. NMI received for unknown reason %02x on CPU %d.\n",
	       inb(0x61), smp_processor_id());
	printk(KERN_EMERG "Dazed and confused, but trying to continue\n");
	if (__atomic_exchange_n(&nmi_dumping, 1, __ATOMIC_ACQUIRE))
		return;
	nmi_cpu_backtrace(regs);
	trigger_all_cpu_backtrace();
	show_state();
	__atomic_store_n(&nmi_dumping, 0, __ATOMIC_RELEASE);
}

notrace void do_nmi(struct pt_regs *regs)
{
	bool claimed = false;

	preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
	this_cpu_inc(nmi_counter);
	nmi_stop_check();
	if (__atomic_load_n(this_cpu_ptr(&nmi_backtrace), __ATOMIC_ACQUIRE)) {
		nmi_cpu_backtrace(regs);
		__atomic_store_n(this_cpu_ptr(&nmi_backtrace), 0, __ATOMIC_RELEASE);
	}
	for (int i = 0; i < NR_NMI_HANDLERS; i++) {
		nmi_handler_t fn = __atomic_load_n(&nmi_handlers[i], __ATOMIC_ACQUIRE);
		u64 t0;
		int handled;

		if (!fn)
			continue;
		t0 = ktime_get_ns();
		handled = fn(regs);
		trace_nmi_handler((void *)fn, (s64)(ktime_get_ns() - t0), handled);
		claimed |= handled == NMI_HANDLED;
	}
	if (!nmi_was_expected() && !claimed)
		unknown_nmi(regs);
	preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
}

/* How /proc/interrupts names the vectors it lists, as Linux does. */
static const struct {
	unsigned int vector;
	const char *label;
	const char *desc;
} vector_names[] = {
	{ ISA_IRQ_VECTOR(4), "4", "IO-APIC   4-edge      ttyS0" },
	{ LOCAL_TIMER_VECTOR, "LOC", "Local timer interrupts" },
	{ RESCHEDULE_VECTOR, "RES", "Rescheduling interrupts" },
	{ CALL_FUNCTION_VECTOR, "CAL", "Function call interrupts" },
	{ ERROR_APIC_VECTOR, "ERR", "APIC errors" },
	{ SPURIOUS_APIC_VECTOR, "SPU", "Spurious interrupts" },
};

static void show_row(struct seq_file *m, const char *label, const char *desc,
		     unsigned long (*count)(int cpu, unsigned int vector), unsigned int vector)
{
	int cpu;

	seq_printf(m, "%3s:", label);
	for_each_possible_cpu(cpu)
		seq_printf(m, "%10lu ", count(cpu, vector));
	seq_printf(m, "  %s\n", desc);
}

static unsigned long vector_count(int cpu, unsigned int vector)
{
	return READ_ONCE(per_cpu(vector_counter, cpu)[vector]);
}

static unsigned long nmi_count_of(int cpu, unsigned int unused)
{
	return (unsigned long)nmi_count(cpu);
}

int arch_show_interrupts(struct seq_file *m)
{
	int cpu;

	seq_printf(m, "%*s", 11, "");
	for_each_possible_cpu(cpu)
		seq_printf(m, "CPU%-8d", cpu);
	seq_printf(m, "\n");
	show_row(m, vector_names[0].label, vector_names[0].desc, vector_count, vector_names[0].vector);
	show_row(m, "NMI", "Non-maskable interrupts", nmi_count_of, 0);
	for (size_t i = 1; i < ARRAY_SIZE(vector_names); i++)
		show_row(m, vector_names[i].label, vector_names[i].desc, vector_count,
			 vector_names[i].vector);
	return 0;
}
