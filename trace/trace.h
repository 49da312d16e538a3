/*
 * Trace arrays: the top-level tracing directory and every
 * instances/NAME are each one struct trace_array, with its own per-CPU
 * ring buffer, snapshot buffer, events (one struct trace_event_file per
 * event), triggers, error_log and control state. The tracefs files of an
 * instance (trace/trace_files.c, trace/trace_event_files.c) only read and
 * change what is here.
 */
#ifndef TRACE_TRACE_H
#define TRACE_TRACE_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/atomic.h>
#include <trace/ring_buffer.h>
#include <trace/trace_event.h>
#include <trace/trace_output.h>
#include <trace/trace_pid_list.h>

struct dentry;

#define TRACE_BUF_SIZE_DEFAULT	(1408ul * 1024)	/* per CPU, as Linux's 1408 KiB */
#define TRACE_ERROR_LOG_MAX	8		/* entries kept per instance, as Linux */

enum trace_clock_id { TRACE_CLOCK_LOCAL, TRACE_CLOCK_GLOBAL, TRACE_CLOCK_COUNTER, TRACE_CLOCK_NR };

/* One error_log entry (trace/trace_error_log.c). */
struct tracing_log_err {
	struct list_head list;
	char *text;		/* the whole entry, Linux's three lines */
};

/*
 * The max snapshot's section, for the latency header of `trace` (Linux
 * keeps these in the max buffer's per-CPU data): written by the latency
 * tracers when they swap a new max in (trace/trace_latency.c).
 */
struct trace_max_data {
	u64 latency;			/* ns */
	u64 time_start;			/* its start: older records of the snapshot are not shown */
	/* Where it began and ended; 0 for wakeups. A section is one CPU's: `trace` shows only cpu. */
	unsigned long critical_start;
	unsigned long critical_end;
	int cpu;
	pid_t pid;			/* the task it happened in (or woke) */
	char comm[16];
	int nice;
};

struct trace_array {
	const char *name;		/* NULL for the top level */
	struct list_head list;		/* in the list of all arrays */
	/*
	 * Where events go now, and the spare a snapshot swaps in (NULL until
	 * the first snapshot). Writers read buffer once per record.
	 */
	struct trace_buffer *buffer;
	struct trace_buffer *snapshot;
	unsigned long buffer_size;	/* bytes per CPU asked for (buffer_size_kb * 1024) */
	/*
	 * Bytes of data each CPU's pages held when last sized, what
	 * buffer_size_kb shows: as on Linux, a new sub-buffer size keeps
	 * about as many bytes but leaves the number shown alone.
	 */
	unsigned long cpu_buffer_size[NR_CPUS];
	enum trace_clock_id clock_id;
	bool tracing_on;		/* tracing_on file (ring buffer recording) */
	struct list_head events;	/* struct trace_event_file, by event id */
	/* events/ftrace/print: trace_marker writes run its triggers (NULL: no events/ yet). */
	struct trace_event_file *trace_marker_file;
	struct list_head subsystems;	/* events/ and events/<sys>/ (trace/trace_event_files.c) */
	struct list_head err_log;	/* struct tracing_log_err, oldest first */
	unsigned int n_err_log;
	atomic_t ref;			/* files open under it: rmdir says EBUSY */
	struct dentry *dir, *events_dir;
	struct trace_file_data *file_data;	/* i_private of its files (trace/trace_files.c) */
	spinlock_t lock;		/* snapshot swap, error_log (any context) */
	struct tracer *current_trace;	/* current_tracer (trace/tracer.h); NULL: nop */
	struct trace_ftrace *ftrace;	/* function tracing (trace/trace_functions.h) */
	unsigned long trace_flags;	/* TRACE_ITER_* (options/, trace_options) */
	struct trace_option_data *options;	/* i_private of options/ files */
	u64 tracing_cpumask;		/* CPUs that record (tracing_cpumask) */
	/* trace/trace_tunables.c: values kept for Linux's files. */
	unsigned long max_latency;	/* tracing_max_latency, ns */
	struct trace_max_data max_data;	/* the snapshot's section, while a latency tracer runs */
	unsigned long saved_flags;	/* trace_flags before a latency tracer changed them */
	unsigned int buffer_percent;	/* buffer_percent, 0..100 */
	unsigned int subbuf_order;	/* buffer_subbuf_size_kb: RB_SUBBUF_SIZE(order) */
	u64 time_start;			/* buffer clock when last emptied (latency-format times) */
	/* set_event_pid/_notrace_pid, set_ftrace_pid/_notrace_pid (trace/trace_pid_files.c). */
	struct trace_pid_filter event_pids, function_pids;
};

/*
 * The trace options (options/ and trace_options, trace/trace_options.c),
 * Linux's, in its order (function-trace: the latency tracers record the
 * functions their sections call).
 */
enum trace_iter_flag_bit {
	TRACE_ITER_PRINT_PARENT_BIT, TRACE_ITER_SYM_OFFSET_BIT, TRACE_ITER_SYM_ADDR_BIT,
	TRACE_ITER_VERBOSE_BIT, TRACE_ITER_RAW_BIT, TRACE_ITER_HEX_BIT, TRACE_ITER_BIN_BIT,
	TRACE_ITER_BLOCK_BIT, TRACE_ITER_FIELDS_BIT, TRACE_ITER_PRINTK_BIT,
	TRACE_ITER_ANNOTATE_BIT, TRACE_ITER_USERSTACKTRACE_BIT, TRACE_ITER_SYM_USEROBJ_BIT,
	TRACE_ITER_PRINTK_MSGONLY_BIT, TRACE_ITER_CONTEXT_INFO_BIT, TRACE_ITER_LATENCY_FMT_BIT,
	TRACE_ITER_RECORD_CMD_BIT, TRACE_ITER_RECORD_TGID_BIT, TRACE_ITER_OVERWRITE_BIT,
	TRACE_ITER_STOP_ON_FREE_BIT, TRACE_ITER_IRQ_INFO_BIT, TRACE_ITER_MARKERS_BIT,
	TRACE_ITER_EVENT_FORK_BIT, TRACE_ITER_TRACE_PRINTK_BIT, TRACE_ITER_PAUSE_ON_TRACE_BIT,
	TRACE_ITER_HASH_PTR_BIT, TRACE_ITER_FUNCTION_BIT, TRACE_ITER_FUNC_FORK_BIT,
	TRACE_ITER_DISPLAY_GRAPH_BIT, TRACE_ITER_STACKTRACE_BIT, TRACE_ITER_NR
};
#define TRACE_ITER(name)	(1ul << TRACE_ITER_##name##_BIT)
/*
 * Linux's defaults, but for pause-on-trace: Spoor's `trace` reader
 * follows new records to the end, so a reader whose own work records
 * events (a shell pipeline with sched events on) would never finish
 * unless recording pauses while it reads. Scripts that set it keep
 * Linux's meaning.
 */
#define TRACE_FLAGS_DEFAULT							\
	(TRACE_ITER(PRINT_PARENT) | TRACE_ITER(PRINTK) | TRACE_ITER(ANNOTATE) |	\
	 TRACE_ITER(CONTEXT_INFO) | TRACE_ITER(RECORD_CMD) | TRACE_ITER(OVERWRITE) |	\
	 TRACE_ITER(IRQ_INFO) | TRACE_ITER(MARKERS) | TRACE_ITER(HASH_PTR) |	\
	 TRACE_ITER(FUNCTION) |							\
	 TRACE_ITER(PAUSE_ON_TRACE))
/* Set or clear one option (bit), with its side effects; caller holds trace_types_lock. */
int trace_set_option(struct trace_array *tr, unsigned int bit, bool on);

/*
 * The pid filters (trace/trace_pid_files.c): emptying all four lists
 * (rmdir; caller holds trace_types_lock); event-fork and function-fork
 * attach the probes (trace/trace_sched.c) that make children follow
 * their parent in f.
 */
void trace_pid_filters_clear(struct trace_array *tr);
int trace_pid_follow_fork(struct trace_pid_filter *f, bool on);
/* Whether a function record of tr is dropped for the task running now (set_ftrace_pid). */
static inline bool trace_function_ignore_pid(struct trace_array *tr)
{
	return (READ_ONCE(tr->function_pids.pids) || READ_ONCE(tr->function_pids.no_pids)) &&
	       trace_pid_filter_ignore(&tr->function_pids);
}


/* The top-level array (trace/trace.c). */
extern struct trace_array global_trace;

/* Boot: the top-level array, its buffers and every tracefs file. */
int tracing_init(void);
/* Boot parameters (trace/trace_boot.c): trace_buf_size=, trace_event=, ftrace_dump_on_oops. */
unsigned long trace_boot_buf_size(void);
void trace_boot_events(struct trace_array *tr);
/* From panic(): print the trace if ftrace_dump_on_oops was given. */
void trace_boot_dump_on_oops(void);
/*
 * Print tr's buffer (one CPU, or RING_BUFFER_ALL_CPUS) on the console in
 * Linux's frame, consuming it; recording stops first and stays off.
 * Any context but NMI.
 */
void ftrace_dump(struct trace_array *tr, int cpu);
/* /sys/kernel/debug/trace_selftest (trace/trace_selftest.c, kernel only). */
int trace_selftest_init(void);
/* Its "bench N": tracepoint and ring-buffer costs as one line in out (trace/trace_benchmark.c). */
int trace_benchmark(unsigned long n, char *out, size_t size);

/*
 * trace_types_lock serializes every change of configuration (enable,
 * filters, triggers, mkdir/rmdir, resize): tracefs writers, never probes.
 * A mutex, as Linux's: a holder may sleep (allocating, waiting for a
 * grace period when it unregisters a probe) and its waiters sleep too.
 */
void trace_types_lock(void);
void trace_types_unlock(void);
/*
 * A write of commands, one a line (blank lines and '#' comments skipped),
 * each run(arg, line) under trace_types_lock until one fails: that error,
 * or count (synthetic_events, dynamic_events, kprobe_events).
 */
ssize_t trace_run_commands(const char *buf, size_t count,
			   int (*run)(void *arg, const char *cmd), void *arg);
/*
 * A listing file's text: fill(buf, size, arg), snprintf-style, under
 * trace_types_lock, into the seq_file (at most 64 KiB).
 */
struct seq_file;
int trace_show_listing(struct seq_file *m, int (*fill)(char *buf, size_t size, void *arg),
		       void *arg);
/* Every array, the top level first, then instances by creation (under the lock). */
extern struct list_head ftrace_trace_arrays;
struct trace_array *trace_array_find(const char *name);

int tracer_tracing_on(struct trace_array *tr, bool on);
/* Resize every CPU (cpu = RING_BUFFER_ALL_CPUS) or one, snapshot included. */
int tracing_resize(struct trace_array *tr, unsigned long size, int cpu);
/*
 * Sub-buffers of RB_SUBBUF_SIZE(order) for the live and snapshot buffers
 * (buffer_subbuf_size_kb), emptying both; caller holds trace_types_lock.
 */
int tracing_set_subbuf_order(struct trace_array *tr, unsigned int order);
int tracing_set_clock(struct trace_array *tr, const char *name);
extern const char *const trace_clock_names[TRACE_CLOCK_NR];
/* Empty one CPU's buffer (cpu = RING_BUFFER_ALL_CPUS: all). */
void tracing_reset(struct trace_array *tr, int cpu);
/*
 * Swap the live buffer with the snapshot buffer (allocated on first use:
 * may fail with -ENOMEM). From any context once allocated; the caller
 * allocates from a sleepable context with tracing_alloc_snapshot().
 */
int tracing_alloc_snapshot(struct trace_array *tr);
int tracing_snapshot(struct trace_array *tr);
void tracing_free_snapshot(struct trace_array *tr);
/* A new buffer of tr records only on the CPUs of its tracing_cpumask (trace/trace_cpumask.c). */
void trace_cpumask_init_buffer(struct trace_array *tr, struct trace_buffer *buffer);
/* Write a trace_marker record (ftrace:print) of the text: the bytes taken, or -errno. */
int trace_marker_record(struct trace_array *tr, const char *text, size_t len, unsigned long ip);

/* Instances (mkdir/rmdir in instances/). */
int instance_mkdir(const char *name);
int instance_rmdir(const char *name);
static inline void trace_array_get(struct trace_array *tr) { atomic_inc(&tr->ref); }
static inline void trace_array_put(struct trace_array *tr) { atomic_dec(&tr->ref); }
struct file;
/*
 * The reference an open file of *trp's instance holds (rmdir: EBUSY), or
 * -ENODEV. The file was looked up before a racing rmdir may have removed
 * its instance: rmdir checks the references and detaches the instance's
 * tree under trace_types_lock, and so does this, so either rmdir sees
 * the reference or this sees the detached tree before anything of the
 * instance is freed. Call it before touching the instance's data.
 */
int trace_array_get_file(struct file *file, struct trace_array *const *trp);
/*
 * The open and release of an event's seq_file (enable, id, format, filter,
 * hist, ...): single_open holding the event's instance while open.
 */
struct seq_file;
struct inode;
int event_file_open(struct inode *inode, struct file *file,
		    int (*show)(struct seq_file *m, void *v));
int event_file_release(struct inode *inode, struct file *file);

/*
 * error_log (trace/trace_error_log.c). tracing_log_err() keeps a whole
 * entry made elsewhere (filter_format_error); tracing_log_err_cmd() makes
 * Linux's layout itself:
 *   [ts] loc: error: msg
 *     Command: cmd
 *              ^        (under byte pos of cmd)
 */
void tracing_log_err(struct trace_array *tr, const char *text);
void tracing_log_err_cmd(struct trace_array *tr, const char *loc, const char *cmd,
			 const char *msg, int pos);
/* A refused filter (filter file, trigger `if`), with trace_filter's text and caret. */
struct filter_error;
void trace_log_filter_error(struct trace_array *tr, const char *str,
			    const struct filter_error *err);
void tracing_err_log_clear(struct trace_array *tr);	/* also frees it all */
/* Append every entry to s (seq_file): the file's content. */
struct seq_file;
void tracing_err_log_show(struct trace_array *tr, struct seq_file *m);

/* Saved cmdlines (trace/trace_cmdlines.c): pid -> comm for the `trace` output. */
#define SAVED_CMDLINES_DEFAULT	128	/* slots asked for at boot (Linux's; 6552 after rounding) */
/* saved_cmdlines_size: the slots now, and a new size (-EINVAL outside 1..32768). */
unsigned int trace_cmdlines_size(void);
int trace_cmdlines_resize(unsigned long n);
void trace_save_cmdline(pid_t pid, const char *comm);
/*
 * Set when this CPU commits a record: the next sched_switch saves the
 * names of the tasks it switches (Linux's trace_taskinfo_save), so a
 * switch with nothing recorded since costs no saving at all.
 */
DECLARE_PER_CPU(bool, trace_cmdline_save);
/* The comm last saved for pid: "<idle>" for 0, "<...>" if unknown. buf: 16 bytes. */
void trace_find_cmdline(pid_t pid, char comm[16]);
void trace_cmdlines_show(struct seq_file *m);
/* Turn saving on (an event got enabled somewhere) or off; counted. */
void trace_cmdlines_start(void);
void trace_cmdlines_stop(void);
/* An array's record-cmd option: while any has it off, no names are saved. */
void trace_cmdlines_record(bool on);
/* Attach or detach the sched_switch probe that saves names (trace/trace_sched.c). */
int trace_cmdlines_attach(bool on);

/*
 * Saved tgids (trace/trace_tgids.c), Linux's record-tgid: while an array
 * has the option on, every task switched in or out has its tgid saved;
 * saved_tgids lists them and `trace` prints a TGID column.
 * trace_tgids_record counts the arrays with it on (trace_types_lock held).
 */
int trace_tgids_record(bool on);
void trace_save_tgid(pid_t pid, pid_t tgid);
pid_t trace_find_tgid(pid_t pid);		/* 0: not saved */
int trace_tgids_attach(bool on);		/* the sched_switch probe (trace/trace_sched.c) */

/* The instance's files (trace/trace_files.c), events/ (trace/trace_event_files.c). */
int trace_create_files(struct trace_array *tr, struct dentry *dir);
void trace_free_files(struct trace_array *tr);
int trace_create_events_dir(struct trace_array *tr, struct dentry *dir);
/* set_event and (top level) available_events (trace/trace_set_event.c). */
int trace_create_set_event_files(struct trace_array *tr, struct dentry *dir);
/*
 * Apply set_event's tokens in list (split at any of seps; list is cut up):
 * "sys:event", "sys:*", "event", "!sys:event". Caller holds trace_types_lock.
 */
int trace_set_event_list(struct trace_array *tr, char *list, const char *seps);
void trace_remove_events(struct trace_array *tr);
/* Add a runtime event (synthetic, user) to every array's events/ tree; and remove it. */
int trace_add_event_files(struct trace_event_call *call);
int trace_remove_event_files(struct trace_event_call *call);
struct trace_event_file *trace_find_event_file(struct trace_array *tr, const char *system,
					       const char *event);
/*
 * Enable or disable an event in one array. soft: a trigger's use (the
 * event is attached but records are dropped unless also enabled for
 * real, "soft mode"); else the enable file's. Caller holds trace_types_lock.
 */
int trace_event_enable_disable(struct trace_event_file *file, bool enable, bool soft);
/*
 * Apply enable to every event matching system/event (NULL: any; globs
 * allowed), as set_event and the enable files do. -EINVAL if none matched.
 */
int trace_set_events(struct trace_array *tr, const char *system, const char *event,
		     bool enable);

/*
 * Records that are not events have fixed ids below the first event id
 * (trace/trace_events.c), as Linux's ftrace entries do.
 */
#define TRACE_STACK_ID		12	/* a kernel stack: struct stack_entry + nr addresses */

struct stack_entry {
	struct trace_entry ent;
	u32 nr;			/* addresses that follow (unsigned long each) */
	u32 pad;
};
#define TRACE_STACK_MAX		16

/* Write the current kernel stack into tr's buffer (stacktrace trigger). */
void trace_dump_stack_record(struct trace_array *tr, unsigned int skip);

/*
 * A reader turning one buffer (one CPU or all) into text lines
 * (trace/trace_iter.c): `trace` (header, then every event, oldest first,
 * without consuming) or `trace_pipe` (consuming, no header).
 */
struct trace_seq;
struct trace_iterator {
	struct trace_array *tr;
	struct trace_buffer *buffer;
	int cpu_file;				/* RING_BUFFER_ALL_CPUS or one CPU */
	bool consume;
	bool header;				/* the header is still to print */
	bool snapshot;				/* reads the snapshot (its help when empty) */
	bool max;				/* reads a latency tracer's max snapshot */
	u64 time_start;				/* latency-format times count from here */
	unsigned long skipped;			/* records before it, not shown (max snapshot) */
	bool paused;				/* recording paused while open (pause-on-trace) */
	unsigned long idx;			/* records printed so far (verbose latency lines) */
	struct ring_buffer_iter *iters[NR_CPUS];	/* non-consuming readers */
	bool have[NR_CPUS];			/* rec[cpu] holds that CPU's next event */
	struct trace_seq seq;			/* the current line(s) */
	struct trace_seq tmp;
	size_t seq_pos;				/* bytes of seq already read */
	void *private;				/* the tracer's printing state (kfree'd at close) */
	struct ring_buffer_record rec[];	/* one per CPU, and the current line's */
};

/*
 * Leave out every CPU's records older than ts (a max snapshot holds what
 * was there before its section began); latency times count from ts.
 */
void trace_iter_skip_before(struct trace_iterator *iter, u64 ts);

struct trace_iterator *trace_iter_open(struct trace_array *tr, struct trace_buffer *buffer,
				       int cpu, bool consume);
void trace_iter_close(struct trace_iterator *iter);
/*
 * The text (trace/trace_iter_print.c) as tr's options shape it: the header
 * of `trace`, and one record's line(s); next_ts is the time of the record
 * after it (latency-format marks the gap).
 */
void trace_iter_print_header(struct trace_iterator *iter, unsigned long entries,
			     unsigned long written);
void trace_iter_print_line(struct trace_iterator *iter, int cpu,
			   const struct ring_buffer_record *rec, u64 next_ts);
/* A record's text after the context (a stack's lines, a function's "func <-parent"...). */
void trace_iter_print_record(struct trace_iterator *iter, const struct ring_buffer_record *rec);
/*
 * The record after the one being printed on cpu, or NULL; the next line
 * will start with it unless trace_iter_skip() drops it (function_graph
 * prints a call and its return as one line).
 */
const struct ring_buffer_record *trace_iter_peek(struct trace_iterator *iter, int cpu);
void trace_iter_skip(struct trace_iterator *iter, int cpu);
/* Linux's mark of a duration (trace_find_mark): '+' over 10 us ... '$' over 1 s, else ' '. */
char trace_find_mark(u64 delta_ns);
/* latency-format's header down to the task lines (without the column legend). */
void trace_iter_print_latency_header(struct trace_iterator *iter, unsigned long entries,
				     unsigned long written);
/* Put the next line(s) in iter->seq: 0, or -EAGAIN when there is no more. */
int trace_iter_next_line(struct trace_iterator *iter);
/* No event left to read (trace_pipe waits while so). */
bool trace_iter_empty(struct trace_iterator *iter);

/*
 * Sleep until ready(arg) holds (0) or a signal comes (-EINTR). For
 * trace_pipe and trace_pipe_raw readers: each commit wakes them through an
 * irq_work, and the tick checks ready() too (trace/trace_wait.c).
 */
int trace_wait_for(bool (*ready)(void *arg), void *arg);
/* Wake the readers in trace_wait_for (deferred to an irq_work: callable from any context). */
void trace_wake_readers(void);

/* Simple glob match: *, ? and [..] classes. */
bool trace_glob_match(const char *pattern, const char *str);

#endif
