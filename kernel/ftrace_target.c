/*
 * A traced function that does nothing, for the function tracer's
 * benchmark (trace/ftrace_benchmark.c): its cost with the site off is the
 * NOP, with the site on the whole path through the tracer.
 */
#include <kernel/types.h>
#include <kernel/ftrace.h>

noinline void ftrace_bench_target(void)
{
	barrier();
}
