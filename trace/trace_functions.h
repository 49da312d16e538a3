/*
 * The function tracer of a trace array (trace/trace_functions.c) and its
 * tracefs files (trace/ftrace_files.c).
 */
#ifndef TRACE_TRACE_FUNCTIONS_H
#define TRACE_TRACE_FUNCTIONS_H

#include <kernel/types.h>
#include <trace/ftrace.h>

struct trace_array;
struct dentry;

/*
 * An array's function tracing: the ops whose filter and notrace sets are
 * set_ftrace_filter and set_ftrace_notrace (kept while no tracer runs).
 */
struct trace_ftrace {
	struct ftrace_ops ops;
	struct trace_array *tr;
};

/* An array's function-tracing state, made with its files and freed with it. */
int trace_ftrace_alloc(struct trace_array *tr);
void trace_ftrace_free(struct trace_array *tr);
/* Register the function tracer (boot). */
int trace_functions_init(void);
/* set_ftrace_filter and set_ftrace_notrace in dir; at the top level also the site lists. */
int trace_create_ftrace_files(struct trace_array *tr, struct dentry *dir);
/* The function tracer's callback: op->private is the array's struct trace_ftrace. */
void function_trace_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			 struct ftrace_regs *fregs);
/* "ftrace N" of /sys/kernel/debug/trace_selftest (trace/ftrace_benchmark.c). */
int ftrace_benchmark(unsigned long n, char *out, size_t size);
/* The site's name for the filter language (kallsyms). */
const char *ftrace_site_name(unsigned int i, void *unused);

#endif
