/* Pid sets for event pid filtering (trace/trace_pid_list.c). */
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

#endif
