/*
 * A hit becomes a count and, for a sampling event, samples: the period
 * logic of Linux's software events (every hit samples with its own
 * count as period when PERF_SAMPLE_PERIOD is asked without freq), the
 * sample's values gathered (ids, task, time, CPU, read values, kernel and
 * user callchains) and written to the event's ring.
 *
 * Hits come from any context. The caller holds this CPU's perf recursion
 * guard for the current context (perf_recursion_enter), which makes the
 * per-context scratch below ours alone: an NMI sample taken while a task
 * sample is half-built on the same CPU uses the NMI slot.
 */
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/stacktrace.h>
#include <kernel/mman.h>
#include <asm/uaccess.h>
#include <asm/ptrace.h>
#include <trace/perf_event.h>
#include <trace/perf_output.h>
#include <trace/perf_recursion.h>

#define PERF_READ_MAX	(3 + 3 * 64)	/* a group of up to 64 events */

/* Scratch for one sample in one context. */
struct perf_scratch {
	u64 callchain[2 + 2 * PERF_MAX_STACK_DEPTH];
	u64 read[PERF_READ_MAX];
};

static DEFINE_PER_CPU(struct perf_scratch, perf_scratch[PERF_NR_CONTEXTS]);
DEFINE_PER_CPU(struct trace_recursion, perf_recursion);

bool perf_event_matches(const struct perf_event *event, const struct task_struct *task)
{
	const struct perf_event *leader = event->group_leader;

	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
		return false;
	if (leader != event && READ_ONCE(leader->state) != PERF_EVENT_STATE_ACTIVE)
		return false;
	if (event->cpu >= 0 && event->cpu != smp_processor_id())
		return false;
	return !event->task || event->task == task;
}

bool perf_event_excluded(const struct perf_event *event, const struct pt_regs *regs)
{
	return event->attr.flags & (user_mode(regs) ? PERF_ATTR_FLAG_EXCLUDE_USER :
				    PERF_ATTR_FLAG_EXCLUDE_KERNEL);
}

/*
 * Kernel frames from regs (its ip, then the callers by its rbp), then (in
 * task context, from a process) the user frames by the user rbp.
 */
static u32 perf_callchain(struct perf_event *event, u64 *out, const struct pt_regs *regs)
{
	unsigned int max = event->attr.sample_max_stack ? event->attr.sample_max_stack :
			   PERF_MAX_STACK_DEPTH;
	struct task_struct *p = current;
	unsigned long store[PERF_MAX_STACK_DEPTH];
	u32 n = 0, k;

	if (max > PERF_MAX_STACK_DEPTH)
		max = PERF_MAX_STACK_DEPTH;
	if (!(event->attr.flags & PERF_ATTR_FLAG_EXCL_CALLCHAIN_K) && !user_mode(regs)) {
		out[n++] = PERF_CONTEXT_KERNEL;
		out[n++] = regs->rip;
		k = stack_trace_save_from(regs->rbp, store, max - 1);
		for (u32 i = 0; i < k; i++)
			out[n++] = store[i];
	}
	if (!(event->attr.flags & PERF_ATTR_FLAG_EXCL_CALLCHAIN_U) && p->mm &&
	    !(p->flags & PF_KTHREAD)) {
		struct pt_regs *uregs = task_pt_regs(p);
		unsigned long fp = uregs->rbp, frame[2];

		out[n++] = PERF_CONTEXT_USER;
		out[n++] = uregs->rip;
		/* a fault here may need mm->lock: only where sleeping-free faults are safe */
		for (k = 1; in_task() && k < max && fp && !(fp & 7) && fp < TASK_SIZE; k++) {
			if (copy_from_user(frame, (void *)fp, sizeof(frame)) || !frame[1])
				break;
			out[n++] = frame[1];
			if (frame[0] <= fp)
				break;
			fp = frame[0];
		}
	}
	return n;
}

/* freq mode: aim the period at attr.sample_freq samples per second. */
static void perf_adjust_period(struct perf_event *event, u64 now)
{
	u64 delta = now - event->freq_stamp;
	u64 rate, period;

	event->freq_stamp = now;
	if (!delta || delta > 1000000000ull)
		return;
	rate = event->sample_period * 1000000000ull / delta;
	period = rate / event->attr.sample_freq;
	event->sample_period = period ? period : 1;
}

static void perf_event_output(struct perf_event *event, u64 period, const struct pt_regs *regs,
			      u64 addr, const void *raw, u32 raw_size)
{
	struct perf_event *root = event->parent ? event->parent : event;
	struct perf_buffer *rb = READ_ONCE(root->rb);
	struct perf_scratch *sc = this_cpu_ptr(&perf_scratch[0]) + interrupt_context_level();
	u64 st = event->attr.sample_type;
	bool id_all = event->attr.flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	struct task_struct *p = current;
	struct perf_output_handle h;
	struct perf_sample_data d = {
		.ip = regs->rip, .pid = (u32)p->tgid, .tid = (u32)p->pid, .time = ktime_get_ns(),
		.addr = addr, .id = root->id, .stream_id = event->id,
		.cpu = (u32)smp_processor_id(), .period = period, .raw = raw, .raw_size = raw_size,
	};

	if (!rb)
		return;
	if (st & PERF_SAMPLE_READ) {
		d.read = sc->read;
		/* the sampled task's group, its own counts (Linux 6.12 with inherit) */
		d.read_nr = perf_event_read_size(event) <= PERF_READ_MAX ?
			    perf_event_read_values(event, true, sc->read) : 0;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		d.callchain = sc->callchain;
		d.callchain_nr = perf_callchain(event, sc->callchain, regs);
	}
	if (perf_ring_begin(&h, &rb->ring, perf_sample_size(st, &d), perf_lost_size(st, id_all))) {
		atomic64_inc(&root->lost_samples);
		return;
	}
	if (h.lost)
		perf_output_lost(&h, st, id_all, &d, h.lost);
	perf_output_sample(&h, user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL, st,
			   &d);
	if (!(event->attr.flags & PERF_ATTR_FLAG_WATERMARK))
		perf_ring_count_event(&rb->ring, event->attr.wakeup_events);
	perf_ring_end(&h);
}

/* One period elapsed: sample, and stop after the samples REFRESH allowed. */
void perf_event_overflow(struct perf_event *event, u64 period, const struct pt_regs *regs,
			 u64 addr, const void *raw, u32 raw_size)
{
	struct perf_event *root = event->parent ? event->parent : event;

	if (event->attr.flags & PERF_ATTR_FLAG_FREQ)
		perf_adjust_period(event, ktime_get_ns());
	perf_event_output(event, period, regs, addr, raw, raw_size);
	if (root->event_limit && !__atomic_sub_fetch(&root->event_limit, 1, __ATOMIC_RELAXED)) {
		WRITE_ONCE(event->state, PERF_EVENT_STATE_OFF);
		WRITE_ONCE(root->state, PERF_EVENT_STATE_OFF);
		if (root->rb)
			atomic_set(&root->rb->ring.poll, PERF_POLLIN | PERF_POLLHUP);
	}
}

void perf_event_hit(struct perf_event *event, u64 nr, const struct pt_regs *regs, u64 addr,
		    const void *raw, u32 raw_size)
{
	u64 period = event->sample_period, n;
	bool freq = event->attr.flags & PERF_ATTR_FLAG_FREQ;
	long left;

	atomic64_add(&event->count, (long)nr);
	if (!period)
		return;
	if ((event->attr.sample_type & PERF_SAMPLE_PERIOD) && !freq) {
		perf_event_overflow(event, nr, regs, addr, raw, raw_size);
		return;
	}
	left = __atomic_sub_fetch(&event->period_left.counter, (long)nr, __ATOMIC_RELAXED);
	if (left > 0)
		return;
	n = 1 + (u64)(-left) / period;
	atomic64_add(&event->period_left, (long)(n * period));
	while (n--)
		perf_event_overflow(event, period, regs, addr, raw, raw_size);
}

void perf_event_output_record(struct perf_event *event, const struct perf_event_header *hdr,
			      const void *body, u32 body_size, const struct task_struct *task)
{
	struct perf_event *root = event->parent ? event->parent : event;
	struct perf_buffer *rb = READ_ONCE(root->rb);
	u64 st = event->attr.sample_type;
	bool id_all = event->attr.flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	struct perf_output_handle h;
	struct perf_event_header out = *hdr;
	struct perf_sample_data d = {
		.pid = (u32)task->tgid, .tid = (u32)task->pid, .time = ktime_get_ns(),
		.id = root->id, .stream_id = event->id, .cpu = (u32)smp_processor_id(),
	};

	if (!rb)
		return;
	out.size = (u16)(sizeof(out) + body_size + perf_sample_id_size(st, id_all));
	if (perf_ring_begin(&h, &rb->ring, out.size, perf_lost_size(st, id_all)))
		return;
	if (h.lost)
		perf_output_lost(&h, st, id_all, &d, h.lost);
	perf_ring_write(&h, &out, sizeof(out));
	perf_ring_write(&h, body, body_size);
	perf_output_sample_id(&h, st, id_all, &d);
	perf_ring_end(&h);
}
