/* Which CPU am I, and how many are there. Pure on top of <asm/percpu.h>. */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <asm/percpu.h>

DECLARE_PER_CPU(int, cpu_number);
/* CPUs brought up (the kernel sets it at SMP boot; the host shim to NR_CPUS). */
extern unsigned int nr_cpu_ids;

#define smp_processor_id()	this_cpu_read(cpu_number)
#define for_each_possible_cpu(c) for ((c) = 0; (c) < (int)nr_cpu_ids; (c)++)

#endif
