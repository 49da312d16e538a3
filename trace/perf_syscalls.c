/*
 * perf on the per-syscall events (syscalls:sys_enter_<name>,
 * sys_exit_<name>): like their ftrace probes (trace/trace_syscalls_events.c)
 * these sit on the raw_syscalls tracepoints, keep only their system call's
 * number and build the same record, here in perf's per-context scratch
 * for the perf events on the event. As in Linux, a sample is taken at the
 * task's user registers (the system call's): its IP is the user code
 * that made the call, misc USER, and exclude_user drops it.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <asm/ptrace.h>
#include <trace/trace_event.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_syscalls_events.h>
#include <trace/perf_trace.h>

/* Scratch for call's record, common fields filled; NULL if perf is busy here. */
static void *perf_syscall_record(struct trace_event_call *call, int *rctx)
{
	struct trace_entry *ent = perf_trace_buf_alloc(call->size, rctx);

	if (ent)
		tracing_generic_entry_update(ent, call->id, tracing_gen_ctx());
	return ent;
}

void perf_syscall_enter(void *data, long id, const unsigned long *args)
{
	struct trace_event_call *call = data;
	const struct syscall_metadata *meta =
		container_of(call, struct syscall_metadata, enter_event);
	struct syscall_trace_enter *rec;
	int rctx;

	if (id != meta->nr || !(rec = perf_syscall_record(call, &rctx)))
		return;
	rec->nr = (int)id;
	rec->pad = 0;
	memcpy(rec->args, args, meta->nb_args * sizeof(unsigned long));
	perf_trace_buf_submit(call, rec, call->size, rctx, 0, 1, NULL, task_pt_regs(current));
}

void perf_syscall_exit(void *data, long id, long ret)
{
	struct trace_event_call *call = data;
	const struct syscall_metadata *meta =
		container_of(call, struct syscall_metadata, exit_event);
	struct syscall_trace_exit *rec;
	int rctx;

	if (id != meta->nr || !(rec = perf_syscall_record(call, &rctx)))
		return;
	rec->nr = (int)id;
	rec->pad = 0;
	rec->ret = ret;
	perf_trace_buf_submit(call, rec, call->size, rctx, 0, 1, NULL, task_pt_regs(current));
}
