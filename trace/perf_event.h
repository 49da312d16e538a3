/*
 * perf events inside the kernel: what perf_event_open(2) creates, how a
 * hit (a tracepoint, a context switch, a page fault) finds the events it
 * counts for, and how a sample reaches a ring.
 *
 * Each source of hits is a hook (struct perf_hook): one per tracepoint
 * event id, one per software counter. A hook holds a NULL-terminated
 * array of the events attached to it, replaced copy-on-write under
 * perf_lock, so a hit in any context (NMI included) walks it without a
 * lock; replaced arrays and freed events are reclaimed after a grace
 * period by the next process-context caller (perf_reclaim). A hit checks
 * each event's CPU and task against where it happened, so an event is
 * per-task (task set), per-CPU (cpu >= 0) or both, as Linux's are.
 *
 * inherit: a fork copies the parent's inheriting events to the child
 * (struct perf_event.parent points at the event the user opened), groups
 * as groups; the child's hits count and sample into the parent's ring,
 * and its count is folded into the parent's when it exits.
 */
#ifndef TRACE_PERF_EVENT_H
#define TRACE_PERF_EVENT_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/hrtimer.h>
#include <kernel/slab.h>
#include <trace/perf_event_abi.h>
#include <trace/perf_ring.h>

struct task_struct;
struct pt_regs;
struct trace_event_call;
struct event_filter;
struct perf_event;

/* A source of hits: the events attached to it. */
struct perf_hook {
	struct perf_event **events;	/* NULL-terminated; NULL when empty. rcu_dereference */
	unsigned int nr;
	/* First attach / last detach (process context): register the probe. */
	int (*attach)(struct perf_hook *hook);
	void (*detach)(struct perf_hook *hook);
	void *data;			/* the trace_event_call, for tracepoint hooks */
};

/* A mapped ring and the pages behind it; shared by SET_OUTPUT and inherited events. */
struct perf_buffer {
	struct perf_ring ring;
	atomic_t refcount;		/* events writing to it + the mapping */
	unsigned int order;		/* data pages: 2^order */
	unsigned long user_page;	/* kernel address of the control page */
	unsigned long data;		/* kernel address of the data pages */
	struct list_head reclaim_node;
};

enum perf_event_state {
	PERF_EVENT_STATE_DEAD = -2,	/* closed, or its task exited */
	PERF_EVENT_STATE_OFF = -1,
	PERF_EVENT_STATE_ACTIVE = 1,
};

struct perf_event {
	struct perf_event_attr attr;
	u64 id;				/* PERF_EVENT_IOC_ID, PERF_SAMPLE_ID */
	int cpu;			/* -1: any CPU */
	struct task_struct *task;	/* NULL: every task (a per-CPU event) */
	int state;			/* enum perf_event_state */
	struct perf_hook *hook;		/* the counter's hits (NULL: clocks, dummy) */
	bool tracked;			/* in the task hook (trace/perf_task.c) */

	atomic64_t count;
	atomic64_t lost_samples;	/* PERF_FORMAT_LOST */
	u64 child_count;		/* folded in from exited inherited children */
	/* time: accumulated while enabled, plus the open interval since tstamp */
	u64 total_time;
	u64 tstamp;
	u64 clock_base;			/* the counter clock when the interval started */

	/* sampling */
	u64 sample_period;		/* 0: counting only */
	atomic64_t period_left;		/* hits until the next sample */
	int event_limit;		/* PERF_EVENT_IOC_REFRESH: samples left, 0 = unlimited */
	u64 freq_stamp;			/* freq mode: time of the last sample */
	/* cpu-clock/task-clock sampling (trace/perf_clock.c) */
	struct hrtimer hrtimer;		/* fires every sample_period ns while counting */
	s64 hrtimer_left;		/* ns left of the period when it stopped; 0: a whole one */

	struct perf_buffer *rb;		/* where samples go (own ring or SET_OUTPUT's) */
	struct event_filter *filter;	/* PERF_EVENT_IOC_SET_FILTER (tracepoints) */

	struct perf_event *group_leader;	/* itself when alone */
	struct list_head sibling_list;	/* leader: its siblings; sibling: node there */
	unsigned int nr_siblings;

	struct perf_event *parent;	/* inherited: the event the user opened */
	struct list_head child_list;	/* parent: its children; child: node there */
	atomic_t refcount;		/* the owner (file or parent), each child */
	struct list_head reclaim_node;
};

/* Guards hook arrays, group and child lists, reclaim lists (irqsave; never from NMI). */
extern spinlock_t perf_lock;

/* --- trace/perf_core.c: lifecycle, hooks, counts and time --- */
struct perf_event *perf_event_alloc(const struct perf_event_attr *attr, int cpu,
				    struct task_struct *task, struct perf_event *group_leader,
				    struct perf_event *parent);
/* Attach to the event's hook; may sleep. */
int perf_event_attach(struct perf_event *event, struct perf_hook *hook);
/* The user's last reference (the file) went: detach, free when unused. */
void perf_event_release(struct perf_event *event);
void perf_event_get(struct perf_event *event);
void perf_event_put(struct perf_event *event);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
/* Count plus inherited children's. */
u64 perf_event_count(struct perf_event *event);
/* Time enabled (== running: software counters never multiplex). */
u64 perf_event_time(struct perf_event *event);
/* u64s of the read_format values (the group's, with PERF_FORMAT_GROUP). */
unsigned int perf_event_read_size(struct perf_event *event);
/*
 * The read_format values for read(2) (self false: children included) or
 * PERF_SAMPLE_READ (self: the events' own counts); returns the u64s written.
 */
unsigned int perf_event_read_values(struct perf_event *event, bool self, u64 *out);
/* Add event to hook's array / take it out (perf_lock held; any context but NMI). */
int perf_hook_add(struct perf_hook *hook, struct perf_event *event, gfp_t gfp);
void perf_hook_del(struct perf_hook *hook, struct perf_event *event);
/* Leave its group; a leader's siblings go on alone (perf_lock held). */
void perf_group_detach(struct perf_event *event);
/* Take event out of its counter hook and the task hook (perf_lock held). */
void perf_event_unhook(struct perf_event *event);
/* Drop the owner's reference after a grace period (perf_lock held). */
void perf_event_put_deferred(struct perf_event *event);
/* Free what detached events and replaced arrays left, after a grace period. */
void perf_reclaim(void);

/* --- trace/perf_output_event.c: a hit becomes a count or a sample --- */
/*
 * Count nr hits for event where regs say (rip, and rbp for the kernel
 * callchain; a user-mode regs makes the sample misc USER), addr for
 * PERF_SAMPLE_ADDR, raw record for PERF_SAMPLE_RAW; samples when the
 * period is reached.
 */
void perf_event_hit(struct perf_event *event, u64 nr, const struct pt_regs *regs, u64 addr,
		    const void *raw, u32 raw_size);
/* One period of event elapsed at regs: a sample (the clocks' timer calls it). */
void perf_event_overflow(struct perf_event *event, u64 period, const struct pt_regs *regs,
			 u64 addr, const void *raw, u32 raw_size);
/* The hit excluded by exclude_user/exclude_kernel, by where regs are? */
bool perf_event_excluded(const struct perf_event *event, const struct pt_regs *regs);
/* Does a hit on this CPU by task concern event? */
bool perf_event_matches(const struct perf_event *event, const struct task_struct *task);
/* A non-sample record (COMM, EXIT, FORK, MMAP) with its sample_id trailer. */
void perf_event_output_record(struct perf_event *event, const struct perf_event_header *hdr,
			      const void *body, u32 body_size, const struct task_struct *task);

/* --- trace/perf_tp.c: PERF_TYPE_TRACEPOINT --- */
int perf_tp_event_init(struct perf_event *event);

/* --- trace/perf_sw.c: PERF_TYPE_SOFTWARE --- */
int perf_sw_event_init(struct perf_event *event);

/* --- trace/perf_clock.c: cpu-clock and task-clock --- */
int perf_clock_event_init(struct perf_event *event);
/* The counter clock of a software clock event: task runtime or wall time. */
u64 perf_event_clock(const struct perf_event *event);
bool perf_event_is_clock(const struct perf_event *event);
/* The sampling timer's function: a sample at the interrupted registers. */
enum hrtimer_restart perf_clock_hrtimer(struct hrtimer *t);
/* Enabled / disabled (perf_lock held): run the sampling timer where the event counts. */
void perf_clock_start(struct perf_event *event);
void perf_clock_stop(struct perf_event *event);

/* --- trace/perf_task.c: inherit, enable_on_exec, COMM/EXIT/FORK/MMAP records --- */
/* Follow the event's task's forks, execs, exits and mmaps if its attr asks to. */
int perf_task_track(struct perf_event *event);
/* Stop following (perf_lock held). */
void perf_task_untrack(struct perf_event *event);

/* The trace event a tracepoint perf event is on. */
struct trace_event_call *perf_tp_event_call(struct perf_event *event);

/* --- trace/perf_fops.c, trace/perf_mmap.c --- */
extern const struct file_operations perf_fops;
struct file;
struct vm_area_struct;
int perf_mmap(struct file *file, struct vm_area_struct *vma);
/* Drop a reference; the last one frees the pages after a grace period (perf_reclaim). */
void perf_buffer_put(struct perf_buffer *rb);
struct perf_buffer *perf_buffer_get(struct perf_buffer *rb);
void perf_buffer_free(struct perf_buffer *rb);
/* Refresh the control page's time_enabled/time_running/index. */
void perf_event_update_userpage(struct perf_event *event);

#endif
