/*
 * The function tracer's core (trace/ftrace.c): the table of call sites,
 * the callbacks (struct ftrace_ops) that want them, and sets of sites
 * (struct ftrace_set) that say which. A site calls the trampoline while
 * at least one registered ops wants it, and is the NOP otherwise.
 */
#ifndef TRACE_FTRACE_H
#define TRACE_FTRACE_H

#include <kernel/types.h>
#include <kernel/ftrace.h>
#include <kernel/percpu.h>

struct ftrace_ops;
struct ftrace_regs;	/* what the trampoline saved (asm/ftrace.h) */

/*
 * A callback: ip is the traced function (its site), parent_ip where it
 * returns to. Runs with preemption off, inside the recursion guard, from
 * any context, NMI included.
 */
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs);

/*
 * A set of sites, as a bitmap over the site table (index order is
 * address order). count is the number of sites in it.
 */
struct ftrace_set {
	unsigned long *bits;
	unsigned int count;
};

/*
 * One user of the function tracer. It traces the sites in filter (all
 * when filter is empty) that are not in notrace; both sets are its own,
 * or those of sets_of (the function profiler follows the top level's
 * set_ftrace_filter, as Linux's global filter), changed in place under
 * ftrace_lock() and made effective by ftrace_ops_update().
 */
struct ftrace_ops {
	ftrace_func_t func;
	struct ftrace_ops *next;	/* ftrace_ops_list, read under RCU-sched */
	struct ftrace_set filter, notrace_set;
	const struct ftrace_ops *sets_of;	/* NULL: its own sets */
	bool registered;
	void *private;			/* the owner's */
};

/* What a site's flags say (enabled_functions, touched_functions). */
#define FTRACE_FL_ENABLED	0x1	/* it calls the trampoline now */
#define FTRACE_FL_TOUCHED	0x2	/* it has called the trampoline since boot */

/*
 * The sites: every function entry the build recorded, ascending by
 * address. refs is how many registered ops want the site.
 */
struct dyn_ftrace {
	unsigned long ip;
	unsigned int refs;
	unsigned int flags;
};

/* The site table (after ftrace_init: never changes). */
extern struct dyn_ftrace *ftrace_sites;
extern unsigned int ftrace_nr_sites;

/* The site whose NOP is at ip (its index), or -1. */
int ftrace_site_index(unsigned long ip);
/* ip if a site starts there, else 0 (Linux's ftrace_location). */
unsigned long ftrace_location(unsigned long ip);

/*
 * Serializes registration, set changes and patching (a preemptible spin,
 * like trace_types_lock, which is taken before it when both are).
 */
void ftrace_lock(void);
void ftrace_unlock(void);

/* Allocate an ops' empty sets; free them. */
int ftrace_ops_init(struct ftrace_ops *ops);
void ftrace_ops_free(struct ftrace_ops *ops);
/*
 * Start or stop calling ops (caller holds ftrace_lock). Unregistering
 * waits until no CPU can still be inside ops->func.
 */
int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);
/* Re-patch after an ops' sets changed (caller holds ftrace_lock). */
int ftrace_ops_update(void);
/*
 * The dispatch's recursion guard (per CPU): held while callbacks run, so
 * what they call is not traced; function_graph's exit side holds it too.
 */
struct trace_recursion;
DECLARE_PER_CPU(struct trace_recursion, ftrace_recursion);

/* Does ops trace the site with index idx (filter and notrace)? */
bool ftrace_ops_wants(const struct ftrace_ops *ops, unsigned int idx);

#endif
