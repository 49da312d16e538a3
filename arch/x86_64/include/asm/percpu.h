/*
 * Per-CPU variables. DEFINE_PER_CPU places a variable in .data..percpu,
 * the template; each CPU gets a copy and its GS base is the distance from
 * the template to that copy (per_cpu_offset[cpu]). A this_cpu access is then
 * one %gs:-relative instruction on the variable's link address, which is
 * atomic against interrupts on the local CPU.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <kernel/types.h>

#define NR_CPUS 64

#define DEFINE_PER_CPU(type, name) \
	__attribute__((section(".data..percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

extern unsigned long per_cpu_offset[NR_CPUS];
DECLARE_PER_CPU(unsigned long, this_cpu_off);

#define __percpu_seg(var) (*(volatile __seg_gs __typeof__(var) *)(uintptr_t)&(var))
#define this_cpu_read(var)	 (__percpu_seg(var))
#define this_cpu_write(var, v)	 (__percpu_seg(var) = (v))
#define this_cpu_add(var, v)	 (__percpu_seg(var) += (v))
#define this_cpu_sub(var, v)	 (__percpu_seg(var) -= (v))
#define this_cpu_inc(var)	 this_cpu_add(var, 1)
#define this_cpu_dec(var)	 this_cpu_sub(var, 1)
#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((uintptr_t)(ptr) + this_cpu_read(this_cpu_off)))
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((uintptr_t)(ptr) + per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))

#endif
