/*
 * The pid sets of set_event_pid, set_event_notrace_pid, set_ftrace_pid and
 * set_ftrace_notrace_pid: open-addressed arrays that take pids by cmpxchg
 * from any context (event-fork and function-fork add children from the
 * fork probe), and the check every event or function record of an array
 * with a list makes. Pure: the event core and its unit tests link it
 * without the tracefs files (trace/trace_pid_files.c).
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <trace/trace.h>
#include <trace/trace_pid_list.h>

#define PID_SLOT_EMPTY		(-1)
#define PID_SLOT_REMOVED	(-2)

static unsigned int pid_hash(pid_t pid, unsigned int size)
{
	return ((u32)pid * 2654435761u) & (size - 1);
}

bool trace_pid_list_contains(const struct trace_pid_list *list, pid_t pid)
{
	for (unsigned int i = 0, h = pid_hash(pid, list->size); i < list->size; i++) {
		pid_t p = READ_ONCE(list->slots[(h + i) & (list->size - 1)]);

		if (p == pid)
			return true;
		if (p == PID_SLOT_EMPTY)
			return false;
	}
	return false;
}

/* Add pid (any context): false when the set is full. */
bool trace_pid_list_add(struct trace_pid_list *list, pid_t pid)
{
	if (trace_pid_list_contains(list, pid))
		return true;
	for (unsigned int i = 0, h = pid_hash(pid, list->size); i < list->size; i++) {
		pid_t *slot = &list->slots[(h + i) & (list->size - 1)];
		pid_t old = READ_ONCE(*slot);

		if ((old == PID_SLOT_EMPTY || old == PID_SLOT_REMOVED) &&
		    __atomic_compare_exchange_n(slot, &old, pid, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return true;
	}
	return false;
}

void trace_pid_list_remove(struct trace_pid_list *list, pid_t pid)
{
	for (unsigned int i = 0, h = pid_hash(pid, list->size); i < list->size; i++) {
		pid_t *slot = &list->slots[(h + i) & (list->size - 1)];

		if (READ_ONCE(*slot) == PID_SLOT_EMPTY)
			return;
		if (READ_ONCE(*slot) == pid)
			WRITE_ONCE(*slot, PID_SLOT_REMOVED);
	}
}

struct trace_pid_list *trace_pid_list_alloc(unsigned int pids)
{
	unsigned int size = 64;
	struct trace_pid_list *list;

	while (size < 2 * pids + 64)
		size *= 2;
	list = kmalloc(sizeof(*list) + size * sizeof(pid_t), GFP_KERNEL);
	if (!list)
		return NULL;
	list->size = size;
	memset(list->slots, 0xff, size * sizeof(pid_t));	/* all PID_SLOT_EMPTY */
	return list;
}

bool trace_pid_filter_ignore(const struct trace_pid_filter *f)
{
	const struct trace_pid_list *pids = rcu_dereference(f->pids);
	const struct trace_pid_list *no_pids = rcu_dereference(f->no_pids);
	pid_t pid = tracing_task_pid();

	return (pids && !trace_pid_list_contains(pids, pid)) ||
	       (no_pids && trace_pid_list_contains(no_pids, pid));
}


void trace_pid_filter_fork(struct trace_pid_filter *f, pid_t parent, pid_t child)
{
	struct trace_pid_list *lists[2] = { rcu_dereference(f->pids), rcu_dereference(f->no_pids) };

	for (int i = 0; i < 2; i++)
		if (lists[i] && trace_pid_list_contains(lists[i], parent))
			trace_pid_list_add(lists[i], child);
}

void trace_pid_filter_free(struct trace_pid_filter *f, pid_t pid)
{
	struct trace_pid_list *lists[2] = { rcu_dereference(f->pids), rcu_dereference(f->no_pids) };

	for (int i = 0; i < 2; i++)
		if (lists[i])
			trace_pid_list_remove(lists[i], pid);
}
