/*
 * The sched events (trace/events/sched.tev) are created here, where
 * struct task_struct is in scope; the scheduler calls them at the hook
 * points of kernel/sched/hooks.h. Also what the common fields and the
 * saved cmdlines learn about the running task. Kernel only.
 */
#include <kernel/sched.h>
#include <kernel/preempt.h>
#include <trace/trace.h>

#define CREATE_TRACE_POINTS
#include <trace/events/sched.h>

pid_t tracing_task_pid(void)
{
	return current->pid;
}

const char *tracing_task_comm(void)
{
	return current->comm;
}

/*
 * Saved cmdlines learn a task's name when it is switched in or out, as
 * Linux's do (tracing_record_cmdline from its sched_switch probe): every
 * task that writes a record has been switched in first, except the one
 * running when tracing started, which the enabling write saves.
 */
static void probe_cmdline_switch(void *data, bool preempt, struct task_struct *prev,
				 struct task_struct *next, unsigned int prev_state)
{
	if (!this_cpu_read(trace_cmdline_save))
		return;
	this_cpu_write(trace_cmdline_save, false);
	trace_save_cmdline(prev->pid, prev->comm);
	trace_save_cmdline(next->pid, next->comm);
}

int trace_cmdlines_attach(bool on)
{
	if (on) {
		trace_save_cmdline(current->pid, current->comm);
		return register_trace_sched_switch(probe_cmdline_switch, NULL);
	}
	return unregister_trace_sched_switch(probe_cmdline_switch, NULL);
}

/* record-tgid: every task switched in or out has its tgid saved (trace/trace_tgids.c). */
static void probe_tgid_switch(void *data, bool preempt, struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
	trace_save_tgid(prev->pid, prev->tgid);
	trace_save_tgid(next->pid, next->tgid);
}

int trace_tgids_attach(bool on)
{
	if (on) {
		trace_save_tgid(current->pid, current->tgid);
		return register_trace_sched_switch(probe_tgid_switch, NULL);
	}
	return unregister_trace_sched_switch(probe_tgid_switch, NULL);
}

/*
 * The event-fork and function-fork options: children join their parent's
 * pid filter lists, and leave at free. data is the struct trace_pid_filter.
 */
static void probe_pid_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	trace_pid_filter_fork(data, parent->pid, child->pid);
}

static void probe_pid_free(void *data, struct task_struct *p)
{
	trace_pid_filter_free(data, p->pid);
}

int trace_pid_follow_fork(struct trace_pid_filter *f, bool on)
{
	int ret;

	if (!on) {
		unregister_trace_sched_process_fork(probe_pid_fork, f);
		return unregister_trace_sched_process_free(probe_pid_free, f);
	}
	ret = register_trace_sched_process_fork(probe_pid_fork, f);
	if (!ret) {
		ret = register_trace_sched_process_free(probe_pid_free, f);
		if (ret)
			unregister_trace_sched_process_fork(probe_pid_fork, f);
	}
	return ret;
}
