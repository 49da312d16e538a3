/*
 * Host build of per-CPU variables: the same template-and-copies scheme as
 * the kernel, with the "CPU" a thread-local number a test sets
 * (host_cpu_id); copies are made on first use by tests/host/kshim.c.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <kernel/types.h>

#define NR_CPUS 64

#define DEFINE_PER_CPU(type, name) \
	__attribute__((section("spoor_percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

extern __thread int host_cpu_id;
unsigned long host_per_cpu_offset(int cpu);

#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((uintptr_t)(ptr) + host_per_cpu_offset(cpu)))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, host_cpu_id)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_read(var)	(*this_cpu_ptr(&(var)))
#define this_cpu_write(var, v)	(*this_cpu_ptr(&(var)) = (v))
#define this_cpu_add(var, v)	(*this_cpu_ptr(&(var)) += (v))
#define this_cpu_sub(var, v)	(*this_cpu_ptr(&(var)) -= (v))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_sub(var, 1)

#endif
