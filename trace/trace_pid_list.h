/* Pid sets for event and function pid filtering (trace/trace_pid_list.c). */
#ifndef TRACE_TRACE_PID_LIST_H
#define TRACE_TRACE_PID_LIST_H

#include <kernel/types.h>

#define PID_LIST_MAX		(1 << 30)	/* largest pid a list takes */

struct trace_pid_list {
	unsigned int size;	/* slots, a power of two, at least twice the pids written */
	pid_t slots[];
};

/* A set with room for at least pids pids (all slots empty); NULL when out of memory. */
struct trace_pid_list *trace_pid_list_alloc(unsigned int pids);
bool trace_pid_list_contains(const struct trace_pid_list *list, pid_t pid);
/* Add pid (any context): false when the set is full. */
bool trace_pid_list_add(struct trace_pid_list *list, pid_t pid);
void trace_pid_list_remove(struct trace_pid_list *list, pid_t pid);

/*
 * An array's pair of lists for one kind of record: set_event_pid and
 * set_event_notrace_pid, or set_ftrace_pid and set_ftrace_notrace_pid.
 * A record is kept only for a task in pids (when there is a list) and
 * not in no_pids. RCU pointers, NULL: no list.
 */
struct trace_pid_filter {
	struct trace_pid_list *pids, *no_pids;
};

/* Whether the task running now is filtered out by f. */
bool trace_pid_filter_ignore(const struct trace_pid_filter *f);
/* event-fork, function-fork: the child joins each list its parent is in (any context). */
void trace_pid_filter_fork(struct trace_pid_filter *f, pid_t parent, pid_t child);
/* A task freed leaves both lists. */
void trace_pid_filter_free(struct trace_pid_filter *f, pid_t pid);

#endif
