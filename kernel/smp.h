/*
 * Cross-CPU calls (arch/x86_64/smp.c): run a function on other CPUs
 * through an IPI, waiting for it or not. The function runs in hardirq
 * context on the target, so it must not sleep.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/types.h>

typedef void (*smp_call_func_t)(void *info);

/* CPUs that have finished booting and run the scheduler. */
extern volatile u64 cpu_online_mask;
static inline bool cpu_online(int cpu) { return cpu_online_mask & (1ULL << cpu); }
unsigned int num_online_cpus(void);

/*
 * Runs func(info) on cpu (directly if it is this CPU). With wait, returns
 * after it has run. -ENXIO if cpu is not online. Not from irq context
 * when waiting, never from NMI.
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, bool wait);
/* On every online CPU in mask except this one. */
void smp_call_function_many(u64 mask, smp_call_func_t func, void *info, bool wait);
/* On every online CPU, this one included (here with irqs off). */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);
/* Make cpu enter the scheduler soon (it runs need_resched on irq exit). */
void smp_send_reschedule(int cpu);
/* Stop every other CPU with an NMI (panic: works with interrupts off). */
void smp_send_stop(void);
/* NMIs: to one CPU, to this one through its own LAPIC; and how many each CPU took. */
void send_nmi(int cpu);
void send_self_nmi(void);
u64 nmi_count(int cpu);
/*
 * Every other online CPU, asked by an NMI, prints where it is (Linux's
 * "NMI backtrace for cpu N": the interrupted function and stack, its run
 * queue, its timers): SysRq l, and what a hang or a stalled CPU is read
 * by. Works with the CPUs' interrupts off; one CPU at a time answers.
 */
void trigger_all_cpu_backtrace(void);

/* Boot: per-CPU areas for every CPU found, then start the APs. */
void setup_per_cpu_areas(void);
void smp_init(void);

#endif
