/* Per-CPU areas: the template in .data..percpu and one copy per CPU. */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>

unsigned long per_cpu_offset[NR_CPUS];
unsigned int nr_cpu_ids = 1;

DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(int, __preempt_count);
DEFINE_PER_CPU(int, need_resched);
