/*
 * What the rest of the kernel sees of the function tracer (trace/ftrace.c).
 * Every function of a kernel object built with the tracer's flags (see
 * configure: -pg -mfentry -mrecord-mcount -mnop-mcount) starts with a
 * 5-byte NOP whose address the build records in __mcount_loc; the tracer
 * patches chosen NOPs into calls of arch/x86_64/ftrace_64.S's trampoline.
 */
#ifndef KERNEL_FTRACE_H
#define KERNEL_FTRACE_H

#include <kernel/types.h>

/*
 * No call site at this function's entry: the tracer and what it runs on,
 * entry and NMI paths, early boot, the text patcher. configure leaves a
 * whole file out when it holds a line that is only the comment
 * "ftrace: notrace".
 */
#define notrace		__attribute__((no_instrument_function))

/* Boot: read the recorded sites (once memory allocation works). */
int ftrace_init(void);
/* A traced function that does nothing (the tracer's benchmark calls it). */
void ftrace_bench_target(void);

#endif
