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

/* Longest function name a filter token or a listing line holds. */
#define FTRACE_NAME_MAX	128

/* A ":mod:" entry of set_ftrace_filter/notrace, kept as written (Spoor has no modules). */
struct ftrace_mod {
	struct ftrace_mod *next;	/* newest first */
	char text[];			/* "FUNC:mod:MODULE" */
};

/*
 * An array's function tracing: the ops whose filter and notrace sets are
 * set_ftrace_filter and set_ftrace_notrace (kept while no tracer runs),
 * the function commands on set_ftrace_filter with the ops that runs them
 * (trace/ftrace_probe.c), and the :mod: entries of both files.
 */
struct ftrace_probe;
struct func_repeats;
struct trace_ftrace {
	struct ftrace_ops ops;
	struct trace_array *tr;
	struct ftrace_ops probe_ops;
	struct ftrace_probe *probes;	/* newest first; RCU-sched */
	struct ftrace_mod *mods[2];	/* [0] set_ftrace_filter, [1] set_ftrace_notrace */
	unsigned int graph_slot;	/* while function_graph runs on it (trace_functions_graph.c) */
	/*
	 * While a latency tracer runs the graph callbacks on it (display-graph):
	 * whether this CPU's calls and returns are in what it times now.
	 */
	bool (*graph_want)(void);
	struct func_repeats *repeats;	/* per CPU: func-no-repeats' runs (trace_functions.c) */
};

/*
 * "GLOB:NAME[:PARAM]" written to set_ftrace_filter ('!' before GLOB:
 * remove): attach or detach the function command NAME; param is
 * modified. 0 or -errno (EINVAL: unknown command or argument, or nothing
 * matched; ENODEV: removing a command that is on no function).
 */
int ftrace_probe_command(struct trace_ftrace *f, const char *glob, const char *name,
			 char *param, bool remove);
/* Remove every function command of f (instance removal). */
void ftrace_probes_clear(struct trace_ftrace *f);
/*
 * The commands' lines of set_ftrace_filter into buf (at most size bytes,
 * NULL to measure); returns the length of them all. Caller holds ftrace_lock.
 */
size_t ftrace_probes_print(struct trace_ftrace *f, char *buf, size_t size);

/* Empty a :mod: list. */
void ftrace_mods_free(struct ftrace_mod **list);
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
/*
 * A record of a function tracer into tr's buffer, from its callbacks
 * (preemption disabled by the dispatch): reserve size bytes headed by
 * event id's common fields (NULL when the buffer refuses), fill, commit
 * into the buffer it was reserved in (a snapshot may swap tr's).
 */
struct trace_buffer;
void *ftrace_record_reserve(struct trace_array *tr, size_t size, u16 id,
			    struct trace_buffer **buffer);
void ftrace_record_commit(struct trace_buffer *buffer);
/* The same with the context given (a record written outside the dispatch). */
void *ftrace_record_reserve_ctx(struct trace_array *tr, size_t size, u16 id,
				struct trace_buffer **buffer, unsigned int trace_ctx);
/* One ftrace:function record of ip called from parent_ip into tr's live buffer. */
void trace_function_record(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			   unsigned int trace_ctx);
/*
 * A function tracer's init and reset: start (stop) tr's ops under
 * ftrace_lock, keeping task names while it runs.
 */
int ftrace_tracer_init(struct trace_array *tr,
		       int (*start)(struct trace_array *tr, struct ftrace_ops *ops));
void ftrace_tracer_reset(struct trace_array *tr, void (*stop)(struct ftrace_ops *ops));
/*
 * The function profiler (trace/ftrace_profile.c): function_profile_enabled
 * and trace_stat/ in the top level's dir; the return of a call it hooked
 * (from function_graph's return callback).
 */
int ftrace_profile_create_files(struct dentry *dir);
struct ftrace_ret_frame;
void ftrace_profile_return(const struct ftrace_ret_frame *f, int depth, u64 rettime);
/*
 * The stack tracer (trace/trace_stack.c): its ops, whose filter is
 * stack_trace_filter; stack_max_size and stack_trace in the top level's dir.
 */
extern struct ftrace_ops stack_trace_ops;
int stack_trace_create_files(struct dentry *dir);
/* "ftrace N" of /sys/kernel/debug/trace_selftest (trace/ftrace_benchmark.c). */
int ftrace_benchmark(unsigned long n, char *out, size_t size);
/* The site's name for the filter language (kallsyms). */
const char *ftrace_site_name(unsigned int i, void *unused);

#endif
