/*
 * The control and output files of a trace array, with Linux's behaviour:
 * trace, trace_pipe, tracing_on, buffer_size_kb, buffer_total_size_kb,
 * trace_clock, trace_marker, error_log, current_tracer, available_tracers
 * and per_cpu/cpuN/{trace, trace_pipe, trace_pipe_raw, snapshot_raw, stats,
 * buffer_size_kb}; the top level also has README, saved_cmdlines,
 * saved_cmdlines_size and printk_formats. The
 * tables of the other files (snapshot, options, cpumask, pid filters) come
 * from their own files (trace/trace_files.h). Every open file holds its
 * instance (rmdir: EBUSY).
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/percpu.h>
#include <kernel/wait.h>
#include <kernel/time.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/fcntl.h>
#include <trace/trace.h>
#include <trace/tracer.h>
#include <trace/trace_functions.h>
#include <trace/trace_files.h>

ssize_t trace_read_ulong(char *buf, size_t count, loff_t *pos, unsigned long val)
{
	char text[24];
	int n = snprintf(text, sizeof(text), "%lu\n", val);

	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

/* Linux's kstrtoul_from_user: digits, then at most a newline. */
int trace_parse_ulong(const char *buf, size_t count, unsigned long *val)
{
	char tmp[32];
	unsigned long long v;
	size_t n = count;

	if (n && buf[n - 1] == '\n')
		n--;
	if (!n || n >= sizeof(tmp))
		return -EINVAL;
	int ret;

	memcpy(tmp, buf, n);
	tmp[n] = '\0';
	ret = kstrtoull(tmp, 10, &v);	/* EINVAL, or ERANGE on overflow */
	if (ret)
		return ret;
	*val = (unsigned long)v;
	return 0;
}

int trace_parse_word(const char *buf, size_t count, char *word, size_t size)
{
	size_t i = 0, n = count;

	while (i < n && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (n > i && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	if (n - i >= size)
		return -EINVAL;
	memcpy(word, buf + i, n - i);
	word[n - i] = '\0';
	return 0;
}

/* --- open/release that hold the instance ----------------------------------------- */

int tr_open(struct inode *inode, struct file *file)
{
	return trace_array_get_file(file, &((struct trace_file_data *)inode->i_private)->tr);
}

int tr_release(struct inode *inode, struct file *file)
{
	trace_array_put(((struct trace_file_data *)inode->i_private)->tr);
	return 0;
}

int tr_single_open(struct inode *inode, struct file *file,
			  int (*show)(struct seq_file *m, void *v))
{
	int ret = tr_open(inode, file);

	if (ret)
		return ret;
	ret = single_open(file, show, inode->i_private);
	if (ret)
		tr_release(inode, file);
	return ret;
}

int tr_single_release(struct inode *inode, struct file *file)
{
	tr_release(inode, file);
	return single_release(inode, file);
}

/* --- trace, snapshot, per_cpu/cpuN/trace: text, not consumed --------------------- */

ssize_t trace_iter_read(struct trace_iterator *iter, char *buf, size_t count)
{
	size_t done = 0;

	while (done < count) {
		size_t n;

		if (iter->seq_pos == iter->seq.len) {
			if (trace_iter_next_line(iter))
				break;
		}
		n = min(count - done, (size_t)iter->seq.len - iter->seq_pos);
		memcpy(buf + done, iter->seq.buffer + iter->seq_pos, n);
		iter->seq_pos += n;
		done += n;
	}
	return (ssize_t)done;
}

int trace_open_buffer(struct inode *inode, struct file *file, bool snapshot)
{
	struct trace_file_data *d = inode->i_private;
	struct trace_buffer *buffer;
	int ret = tr_open(inode, file);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		if (snapshot) {
			if (d->tr->snapshot)
				ring_buffer_reset(d->tr->snapshot);
		} else {
			tracing_reset(d->tr, d->cpu);
		}
	}
	if (file->f_mode & FMODE_READ) {
		/* A latency tracer's `trace` is its max snapshot, as Linux's print_max. */
		const struct tracer *t = d->tr->current_trace;
		bool max = t && t->print_max && d->tr->snapshot;
		int cpu = d->cpu;

		/* An irqs/preempt-off section is one CPU's: Linux swaps only that CPU in. */
		if (max && cpu == RING_BUFFER_ALL_CPUS && d->tr->max_data.critical_start)
			cpu = d->tr->max_data.cpu;
		buffer = snapshot || max ? d->tr->snapshot : d->tr->buffer;
		if (buffer) {
			struct trace_iterator *iter = trace_iter_open(d->tr, buffer, cpu, false);

			if (!iter) {
				tr_release(inode, file);
				return -ENOMEM;
			}
			iter->snapshot = snapshot;
			iter->max = max;
			if (max)
				trace_iter_skip_before(iter, d->tr->max_data.time_start);
			file->private_data = iter;
		}
	}
	return 0;
}

/*
 * The pause-on-trace option (trace/trace_options.c): while `trace` is open
 * for reading its buffer records nothing, so a reader whose own work makes
 * events (syscalls, switches, forks of a pipeline) still reaches the end.
 */
static void trace_pause(struct trace_iterator *iter, bool pause)
{
	for (int c = 0; c < (int)nr_cpu_ids; c++) {
		if (pause)
			ring_buffer_record_disable_cpu(iter->buffer, c);
		else
			ring_buffer_record_enable_cpu(iter->buffer, c);
	}
}

static int trace_open(struct inode *inode, struct file *file)
{
	int ret = trace_open_buffer(inode, file, false);

	if (!ret && file->private_data) {
		struct trace_iterator *iter = file->private_data;

		/* Whether this reader paused recording, for its release to undo. */
		iter->paused = !!(iter->tr->trace_flags & TRACE_ITER(PAUSE_ON_TRACE));
		if (iter->paused)
			trace_pause(iter, true);
	}
	return ret;
}

static ssize_t trace_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	ssize_t n = trace_iter_read(file->private_data, buf, count);

	*pos += n;
	return n;
}

/* `echo > trace` truncates (at open); anything written is accepted and ignored, as Linux. */
static ssize_t trace_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return (ssize_t)count;
}

int trace_iter_release(struct inode *inode, struct file *file)
{
	trace_iter_close(file->private_data);
	return tr_release(inode, file);
}

static int trace_release(struct inode *inode, struct file *file)
{
	struct trace_iterator *iter = file->private_data;

	if (iter && iter->paused)
		trace_pause(iter, false);
	return trace_iter_release(inode, file);
}

static const struct file_operations trace_fops = {
	.open = trace_open,
	.read = trace_read,
	.write = trace_write,
	.release = trace_release,
};

/* --- trace_pipe: consuming, blocking ----------------------------------------------- */

static int trace_pipe_open(struct inode *inode, struct file *file)
{
	struct trace_file_data *d = inode->i_private;
	int ret = tr_open(inode, file);

	if (ret)
		return ret;
	file->private_data = trace_iter_open(d->tr, d->tr->buffer, d->cpu, true);
	if (!file->private_data) {
		tr_release(inode, file);
		return -ENOMEM;
	}
	return 0;
}

/* A sleeping trace_pipe reader can go on: data, or a snapshot swap to follow. */
static bool trace_pipe_ready(void *arg)
{
	struct trace_iterator *iter = arg;

	return READ_ONCE(iter->tr->buffer) != iter->buffer || !trace_iter_empty(iter);
}

/*
 * Wait until the buffer has something: 0, -EAGAIN (O_NONBLOCK) or -EINTR
 * (a signal: Ctrl-C in the shell). A snapshot swap repoints the reader.
 */
static int trace_pipe_wait_data(struct file *file, struct trace_iterator *iter)
{
	while (trace_iter_empty(iter)) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (trace_wait_for(trace_pipe_ready, iter))
			return -EINTR;
		iter->buffer = READ_ONCE(iter->tr->buffer);
	}
	return 0;
}

static ssize_t trace_pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct trace_iterator *iter = file->private_data;
	ssize_t n;
	int ret;

	/* Text left from the last line comes first; then block only for the first byte. */
	if (iter->seq_pos == iter->seq.len) {
		ret = trace_pipe_wait_data(file, iter);
		if (ret)
			return ret;
	}
	n = trace_iter_read(iter, buf, count);
	*pos += n;
	return n;
}

/*
 * poll(2) as Linux's trace_poll: readable with the "block" option; a
 * CPU's file with buffer_percent set waits for that much of its ring
 * (ring_buffer_watermark_hit); otherwise, when there is something to
 * read. sys_poll asks again every tick.
 */
static unsigned int trace_poll(struct trace_array *tr, struct trace_buffer *buffer, int cpu,
			       bool has_data)
{
	unsigned int percent = READ_ONCE(tr->buffer_percent);

	if (tr->trace_flags & TRACE_ITER(BLOCK))
		return POLLIN | POLLRDNORM;
	if (cpu != RING_BUFFER_ALL_CPUS && percent)
		has_data = buffer && ring_buffer_watermark_hit(buffer, cpu, percent);
	return has_data ? POLLIN | POLLRDNORM : 0;
}

static unsigned int trace_pipe_poll(struct file *file)
{
	struct trace_iterator *iter = file->private_data;

	return trace_poll(iter->tr, iter->buffer, iter->cpu_file,
			  iter->seq_pos < iter->seq.len || trace_pipe_ready(iter));
}

static const struct file_operations trace_pipe_fops = {
	.open = trace_pipe_open,
	.read = trace_pipe_read,
	.poll = trace_pipe_poll,
	.release = trace_iter_release,
};

/*
 * per_cpu/cpuN/trace_pipe_raw: whole ring-buffer pages (sub-buffers) in
 * Linux's layout, consumed. As on Linux, reads of any size walk through
 * the current page, and a reader finding the buffer empty blocks
 * (O_NONBLOCK: EAGAIN).
 */
struct raw_reader {
	struct trace_file_data *d;
	bool snapshot;		/* snapshot_raw: the spare buffer's pages */
	void *page;		/* the page being read out */
	size_t size;		/* its size: the sub-buffer size when it was read */
	size_t pos;		/* bytes of it already read; size: none left */
};

/* The buffer read now (a snapshot swap changes both); NULL: no snapshot. */
static struct trace_buffer *raw_buffer(struct raw_reader *r)
{
	return r->snapshot ? READ_ONCE(r->d->tr->snapshot) : READ_ONCE(r->d->tr->buffer);
}

static int raw_open(struct inode *inode, struct file *file, bool snapshot)
{
	struct raw_reader *r;
	int ret = tr_open(inode, file);

	if (ret)
		return ret;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		tr_release(inode, file);
		return -ENOMEM;
	}
	r->d = inode->i_private;
	r->snapshot = snapshot;
	file->private_data = r;
	return 0;
}

static int trace_pipe_raw_open(struct inode *inode, struct file *file)
{
	return raw_open(inode, file, false);
}

/* per_cpu/cpuN/snapshot_raw: the same, of the snapshot buffer (empty while there is none). */
static int snapshot_raw_open(struct inode *inode, struct file *file)
{
	return raw_open(inode, file, true);
}

static bool raw_ready(void *arg)
{
	struct trace_buffer *buffer = raw_buffer(arg);

	return buffer && !ring_buffer_empty_cpu(buffer, ((struct raw_reader *)arg)->d->cpu);
}

static ssize_t trace_pipe_raw_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct raw_reader *r = file->private_data;
	size_t n;
	int ret;

	while (r->pos == r->size) {
		struct trace_buffer *buffer = raw_buffer(r);
		size_t size = buffer ? ring_buffer_subbuf_size(buffer) : r->size;

		if (size != r->size) {
			/* First read, or the sub-buffer size changed (the buffer was emptied). */
			kfree(r->page);
			r->page = kmalloc(size, GFP_KERNEL);
			r->size = r->pos = r->page ? size : 0;
			if (!r->page)
				return -ENOMEM;
		}
		ret = buffer ? ring_buffer_read_page(buffer, r->d->cpu, r->page, size, false) : -EAGAIN;
		if (ret >= 0) {
			r->pos = 0;
			break;
		}
		if (ret == -EMSGSIZE)
			continue;
		if (ret != -EAGAIN)
			return ret;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (trace_wait_for(raw_ready, r))
			return -EINTR;
	}
	n = min(count, r->size - r->pos);
	memcpy(buf, (char *)r->page + r->pos, n);
	r->pos += n;
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static int trace_pipe_raw_release(struct inode *inode, struct file *file)
{
	struct raw_reader *r = file->private_data;

	kfree(r->page);
	kfree(r);
	return tr_release(inode, file);
}

static unsigned int trace_pipe_raw_poll(struct file *file)
{
	struct raw_reader *r = file->private_data;

	return trace_poll(r->d->tr, raw_buffer(r), r->d->cpu, r->pos < r->size || raw_ready(r));
}

static const struct file_operations trace_pipe_raw_fops = {
	.open = trace_pipe_raw_open,
	.read = trace_pipe_raw_read,
	.poll = trace_pipe_raw_poll,
	.release = trace_pipe_raw_release,
};

static const struct file_operations snapshot_raw_fops = {
	.open = snapshot_raw_open,
	.read = trace_pipe_raw_read,
	.poll = trace_pipe_raw_poll,
	.release = trace_pipe_raw_release,
};

/* --- small control files --------------------------------------------------------------- */

static int tracing_on_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;

	seq_printf(m, "%d\n", d->tr->tracing_on);
	return 0;
}
TRACE_SHOW_FILE(tracing_on)

static ssize_t tracing_on_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	unsigned long val;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	tracer_tracing_on(file_data(file)->tr, val != 0);
	return (ssize_t)count;
}

static const struct file_operations tracing_on_fops = {
	.open = tracing_on_open,
	.read = seq_read,
	.write = tracing_on_write,
	.release = tr_single_release,
};

/* A CPU's buffer in KiB as Linux shows it: what its pages hold, not the size asked for. */
static unsigned long cpu_buffer_kb(const struct trace_array *tr, int cpu)
{
	return tr->cpu_buffer_size[cpu] / 1024;
}

/* buffer_size_kb: one CPU's size, or all CPUs' when they agree ("X" when they do not). */
static int buffer_size_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;
	unsigned long size = 0;

	if (d->cpu != RING_BUFFER_ALL_CPUS) {
		seq_printf(m, "%lu\n", cpu_buffer_kb(d->tr, d->cpu));
		return 0;
	}
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		unsigned long s = d->tr->cpu_buffer_size[cpu];

		if (cpu && s != size) {
			seq_puts(m, "X\n");
			return 0;
		}
		size = s;
	}
	seq_printf(m, "%lu\n", size / 1024);
	return 0;
}
TRACE_SHOW_FILE(buffer_size)

static ssize_t buffer_size_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_file_data *d = file_data(file);
	unsigned long kb;
	int ret = trace_parse_ulong(buf, count, &kb);

	if (ret)
		return ret;
	if (!kb || kb > (RB_MAX_PAGES * RB_PAGE_DATA_SIZE) / 1024)
		return -EINVAL;
	trace_types_lock();
	ret = tracing_resize(d->tr, kb * 1024, d->cpu);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations buffer_size_fops = {
	.open = buffer_size_open,
	.read = seq_read,
	.write = buffer_size_write,
	.release = tr_single_release,
};

static int buffer_total_size_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;
	unsigned long total = 0;

	/* the CPUs' KiB added up, as Linux adds them */
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		total += cpu_buffer_kb(d->tr, cpu);
	seq_printf(m, "%lu\n", total);
	return 0;
}
TRACE_SHOW_FILE(buffer_total_size)

static const struct file_operations buffer_total_size_fops = {
	.open = buffer_total_size_open,
	.read = seq_read,
	.release = tr_single_release,
};

/* per_cpu/cpuN/stats, Linux's lines. */
static int stats_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;
	struct ring_buffer_stats st;
	u64 t;

	if (ring_buffer_stats_cpu(d->tr->buffer, d->cpu, &st))
		return 0;
	seq_printf(m, "entries: %lu\noverrun: %lu\ncommit overrun: %lu\nbytes: %lu\n",
		   st.entries, st.overrun, st.commit_overrun, st.bytes);
	if (d->tr->clock_id == TRACE_CLOCK_COUNTER) {
		seq_printf(m, "oldest event ts: %lu\nnow ts: %lu\n", (unsigned long)st.oldest_event_ts,
			   (unsigned long)st.now_ts);
	} else {
		t = (st.oldest_event_ts + 500) / 1000;
		seq_printf(m, "oldest event ts: %5lu.%06lu\n", (unsigned long)(t / 1000000),
			   (unsigned long)(t % 1000000));
		t = (st.now_ts + 500) / 1000;
		seq_printf(m, "now ts: %5lu.%06lu\n", (unsigned long)(t / 1000000),
			   (unsigned long)(t % 1000000));
	}
	seq_printf(m, "dropped events: %lu\nread events: %lu\n", st.dropped_events,
		   st.read_events);
	return 0;
}
TRACE_SHOW_FILE(stats)

static const struct file_operations stats_fops = {
	.open = stats_open,
	.read = seq_read,
	.release = tr_single_release,
};

static int trace_clock_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;

	for (int i = 0; i < TRACE_CLOCK_NR; i++)
		seq_printf(m, i == (int)d->tr->clock_id ? "%s[%s]" : "%s%s", i ? " " : "",
			   trace_clock_names[i]);
	seq_putc(m, '\n');
	return 0;
}
TRACE_SHOW_FILE(trace_clock)

static ssize_t trace_clock_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	char name[16];
	int ret = trace_parse_word(buf, count, name, sizeof(name));

	if (ret)
		return ret;
	trace_types_lock();
	ret = tracing_set_clock(file_data(file)->tr, name);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations trace_clock_fops = {
	.open = trace_clock_open,
	.read = seq_read,
	.write = trace_clock_write,
	.release = tr_single_release,
};

/*
 * trace_marker: each write is one ftrace:print record, whose ip names
 * this function, as Linux's lines read "tracing_mark_write: <text>".
 */
static ssize_t tracing_mark_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_array *tr = file_data(file)->tr;

	if (!(tr->trace_flags & TRACE_ITER(MARKERS)))
		return -EINVAL;
	return trace_marker_record(tr, buf, count, _THIS_IP_);
}

static const struct file_operations trace_marker_fops = {
	.open = tr_open,
	.write = tracing_mark_write,
	.release = tr_release,
};

/* error_log: `echo > error_log` (O_TRUNC) clears it. */
static int error_log_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;

	trace_types_lock();
	tracing_err_log_show(d->tr, m);
	trace_types_unlock();
	return 0;
}

static int error_log_open(struct inode *inode, struct file *file)
{
	struct trace_file_data *d = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		trace_types_lock();
		tracing_err_log_clear(d->tr);
		trace_types_unlock();
	}
	return tr_single_open(inode, file, error_log_show);
}

static ssize_t error_log_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return (ssize_t)count;
}

static const struct file_operations error_log_fops = {
	.open = error_log_open,
	.read = seq_read,
	.write = error_log_write,
	.release = tr_single_release,
};

static int current_tracer_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", tracing_current_tracer(((struct trace_file_data *)m->private)->tr));
	return 0;
}
TRACE_SHOW_FILE(current_tracer)

static ssize_t current_tracer_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	char name[32];
	int ret = trace_parse_word(buf, count, name, sizeof(name));

	if (ret)
		return ret;
	trace_types_lock();
	ret = tracing_set_tracer(file_data(file)->tr, name);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations current_tracer_fops = {
	.open = current_tracer_open,
	.read = seq_read,
	.write = current_tracer_write,
	.release = tr_single_release,
};

static int available_tracers_show(struct seq_file *m, void *v)
{
	tracing_show_tracers(m);
	return 0;
}
TRACE_SHOW_FILE(available_tracers)

static const struct file_operations available_tracers_fops = {
	.open = available_tracers_open,
	.read = seq_read,
	.release = tr_single_release,
};

static int saved_cmdlines_show(struct seq_file *m, void *v)
{
	trace_cmdlines_show(m);
	return 0;
}
TRACE_SHOW_FILE(saved_cmdlines)

static const struct file_operations saved_cmdlines_fops = {
	.open = saved_cmdlines_open,
	.read = seq_read,
	.release = tr_single_release,
};

static int saved_cmdlines_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", trace_cmdlines_size());
	return 0;
}
TRACE_SHOW_FILE(saved_cmdlines_size)

static ssize_t saved_cmdlines_size_write(struct file *file, const char *buf, size_t count,
					 loff_t *pos)
{
	unsigned long n;
	int ret = trace_parse_ulong(buf, count, &n);

	if (ret)
		return ret;
	trace_types_lock();
	ret = trace_cmdlines_resize(n);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations saved_cmdlines_size_fops = {
	.open = saved_cmdlines_size_open,
	.read = seq_read,
	.write = saved_cmdlines_size_write,
	.release = tr_single_release,
};

/*
 * printk_formats: the formats of trace_printk() and tracepoint_string()
 * calls, "0x<address> : \"<format>\"" each on Linux. Spoor's kernel has
 * neither, so the list is empty.
 */
static ssize_t printk_formats_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return 0;
}

static const struct file_operations printk_formats_fops = {
	.read = printk_formats_read,
};

static const char readme_text[] =
	"tracing mini-HOWTO (Spoor)\n"
	"\n"
	"The files here are the Linux tracefs interface; every instance under\n"
	"instances/ has its own copy of the per-buffer ones.\n"
	"\n"
	" Buffers and output:\n"
	"  trace\t\t\t- all events, oldest first; 'echo > trace' empties the buffer\n"
	"  trace_pipe\t\t- the same, consumed as read; blocks until there is data\n"
	"  trace_marker\t\t- text written here becomes an event in the buffer\n"
	"  tracing_on\t\t- 0 stops recording into the buffer, 1 starts it again\n"
	"  buffer_size_kb\t- size of each CPU's buffer in KiB (writing resizes it)\n"
	"  buffer_total_size_kb\t- all CPUs together\n"
	"  trace_clock\t\t- clock of the time stamps: local, global, counter\n"
	"  snapshot\t\t- 1 swaps the buffer into the snapshot, 0 frees it, 2 empties it\n"
	"  per_cpu/cpuN/\t\t- trace, trace_pipe, trace_pipe_raw, stats, buffer_size_kb of one CPU\n"
	"  saved_cmdlines\t- the pid -> comm table the output uses\n"
	"  error_log\t\t- the last command errors; 'echo > error_log' clears it\n"
	"  instances/\t\t- mkdir NAME makes a new trace array, rmdir NAME removes it\n"
	"\n"
	" Events:\n"
	"  available_events\t- every event, as system:event\n"
	"  set_event\t\t- 'sys:event' enables, '!sys:event' disables, globs allowed;\n"
	"\t\t\t  'echo > set_event' disables all\n"
	"  events/enable, events/<sys>/enable, events/<sys>/<event>/enable\t- 0 or 1\n"
	"  events/<sys>/<event>/format\t- the record layout\n"
	"  events/<sys>/<event>/filter\t- keep records matching e.g. 'pid > 10 && comm ~ \"k*\"'\n"
	"\t\t\t  fields compare with == != < <= > >= & ~; join with && || ! ( )\n"
	"\t\t\t  '0' removes the filter\n"
	"  events/<sys>/<event>/trigger\t- commands run when the event fires:\n"
	"\t\t\t  traceon, traceoff, snapshot, stacktrace,\n"
	"\t\t\t  enable_event:<sys>:<event>, disable_event:<sys>:<event>,\n"
	"\t\t\t  enable_hist:<sys>:<event>, disable_hist:<sys>:<event>, hist:...\n"
	"\t\t\t  each optionally followed by :<count> and 'if <filter>';\n"
	"\t\t\t  a leading '!' removes the trigger; 'echo ... > trigger'\n"
	"\t\t\t  drops the event's hist triggers first, '>>' only adds\n"
	"  events/<sys>/<event>/hist\t- the event's histograms\n"
	"\n"
	" Hist triggers:\n"
	"  hist:keys=<field1[,field2,...]>[:values=<field1[,field2,...]>]\n"
	"    [:sort=<field1[,field2,...]>][:size=#entries][:name=histname]\n"
	"    [:<var1>=<field|var_ref|numeric_literal>[,<var2>=...]]\n"
	"    [:clock=<clock>][:nohitcount][:pause][:cont][:clear]\n"
	"    [:<handler>.<action>] [if <filter>]\n"
	"    A key or value can be any field, or the special string 'common_stacktrace';\n"
	"    modifiers follow a dot: .hex .sym .sym-offset .execname .syscall .log2\n"
	"    .buckets=N .usecs .percent .graph; expressions join fields and $vars\n"
	"    with + - * /. pause, cont and clear act on an existing histogram (>>).\n"
	"  Handlers: onmatch(<system>.<event>), onmax(var), onchange(var)\n"
	"  Actions: trace(<synthetic_event>,param list) (or <synthetic_event>(params)),\n"
	"    save(field,...), snapshot()\n"
	"\n"
	" Synthetic events:\n"
	"  synthetic_events\t- 'name type field[; type field ...]' defines one,\n"
	"\t\t\t  '!name' removes it, 'echo > synthetic_events' removes all;\n"
	"\t\t\t  e.g. echo 'wakeup_lat u64 lat; char comm[16]; long[] stack' >> synthetic_events\n"
	"  dynamic_events\t- the same as 's:[synthetic/]name type field[; ...]',\n"
	"\t\t\t  as kprobe_events' lines, and fprobes, tprobes, eprobes;\n"
	"\t\t\t  '-:name' removes one\n"
	"\n"
	" Probe events:\n"
	"  kprobe_events\t\t- probes on kernel instructions, each an event under\n"
	"\t\t\t  events/<group>/ ('kprobes' unless named); 'echo > kprobe_events'\n"
	"\t\t\t  removes all, kprobe_profile counts hits and misses;\n"
	"\t\t\t  Create/append/remove/show: a line naming an existing event\n"
	"\t\t\t  with the same arguments adds a probe to it\n"
	"  uprobe_events\t\t- probes on instructions of programs' files, each an event\n"
	"\t\t\t  under events/<group>/ ('uprobes' unless named), hit in every\n"
	"\t\t\t  process running the file; uprobe_profile counts hits\n"
	"\t  Format: p[:[<group>/][<event>]] <place> [<args>]\n"
	"\t          r[maxactive][:[<group>/][<event>]] <place> [<args>]\n"
	"\t  and in dynamic_events (groups fprobes, tracepoints, eprobes by default):\n"
	"\t          f[:[<group>/][<event>]] <func-name>[%return] [<args>]\n"
	"\t          t[:[<group>/][<event>]] <tracepoint> [<args>]\n"
	"\t          e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>] [if <filter>]\n"
	"\t          -:[<group>/][<event>]\n"
	"\t    place: [<module>:]<symbol>[+<offset>]|<memaddr> (no modules here)\n"
	"\t    place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>, a function's entry\n"
	"\t   place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
	"\t     args: [<name>=]fetcharg[:type]\n"
	"\t fetcharg: %<register>, @<address>, @<symbol>[+|-<offset>],\n"
	"\t           $stack<index>, $stack, $retval, $comm, $arg<N>,\n"
	"\t           +|-[u]<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
	"\t           $<field> of the attached event, in an eprobe\n"
	"\t           @+<file-offset>, in a uprobe (no symbols, $arg<N>, symbol or symstr)\n"
	"\t     kernel return probes support: $retval, $arg<N>, $comm\n"
	"\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, char, string, symbol,\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>, ustring,\n"
	"\t           symstr, %pd/%pD, <type>\\[<array-size>\\]\n";

static ssize_t readme_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return simple_read_from_buffer(buf, count, pos, readme_text, sizeof(readme_text) - 1);
}

static const struct file_operations readme_fops = {
	.read = readme_read,
};

/* --- creating them ------------------------------------------------------------------------ */

static const struct trace_file_spec array_files[] = {
	{ "trace", TRACE_MODE_WRITE, &trace_fops },
	{ "trace_pipe", TRACE_MODE_READ, &trace_pipe_fops },
	{ "tracing_on", TRACE_MODE_WRITE, &tracing_on_fops },
	{ "buffer_size_kb", TRACE_MODE_WRITE, &buffer_size_fops },
	{ "buffer_total_size_kb", TRACE_MODE_READ, &buffer_total_size_fops },
	{ "trace_clock", TRACE_MODE_WRITE, &trace_clock_fops },
	{ "trace_marker", 0220, &trace_marker_fops },
	{ "error_log", TRACE_MODE_WRITE, &error_log_fops },
	{ "current_tracer", TRACE_MODE_WRITE, &current_tracer_fops },
	{ "available_tracers", TRACE_MODE_READ, &available_tracers_fops },
	{ }
}, cpu_files[] = {
	{ "trace", TRACE_MODE_WRITE, &trace_fops },
	{ "trace_pipe", TRACE_MODE_READ, &trace_pipe_fops },
	{ "trace_pipe_raw", TRACE_MODE_READ, &trace_pipe_raw_fops },
	{ "snapshot_raw", TRACE_MODE_READ, &snapshot_raw_fops },
	{ "stats", TRACE_MODE_READ, &stats_fops },
	{ "buffer_size_kb", TRACE_MODE_WRITE, &buffer_size_fops },
	{ }
}, top_files[] = {
	{ "README", TRACE_MODE_READ, &readme_fops },
	{ "saved_cmdlines", TRACE_MODE_READ, &saved_cmdlines_fops },
	{ "saved_cmdlines_size", TRACE_MODE_WRITE, &saved_cmdlines_size_fops },
	{ "printk_formats", TRACE_MODE_READ, &printk_formats_fops },
	{ }
};

/* The tables every array has, and every per_cpu/cpuN directory. */
static const struct trace_file_spec *const array_tables[] = {
	array_files, trace_snapshot_files, trace_options_files, trace_cpumask_files,
	trace_pid_files, trace_tunable_files, trace_marker_raw_files,
}, *const cpu_tables[] = {
	cpu_files, trace_snapshot_cpu_files,
};

static int create_table(struct dentry *dir, struct trace_file_data *d,
			const struct trace_file_spec *t)
{
	for (; t->name; t++) {
		struct dentry *f = tracefs_create_file(t->name, t->mode, dir, d, t->fops);

		if (IS_ERR(f))
			return (int)PTR_ERR(f);
	}
	return 0;
}

static int create_tables(struct dentry *dir, struct trace_file_data *d,
			 const struct trace_file_spec *const *tables, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		ret = create_table(dir, d, tables[i]);
	return ret;
}

int trace_create_files(struct trace_array *tr, struct dentry *dir)
{
	struct trace_file_data *d;
	struct dentry *per_cpu = NULL, *cpu_dir;
	char name[16];
	int ret;

	/* One record for the array and one per CPU; freed with the array (tr->file_data). */
	d = kcalloc((size_t)nr_cpu_ids + 1, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	tr->file_data = d;
	d[0] = (struct trace_file_data){ tr, RING_BUFFER_ALL_CPUS };
	ret = create_tables(dir, &d[0], array_tables, ARRAY_SIZE(array_tables));
	if (!ret)
		ret = trace_create_options_dir(tr, dir);
	if (!ret && !tr->name)
		ret = create_table(dir, &d[0], top_files);
	if (!ret && !tr->name)
		ret = create_table(dir, &d[0], trace_tunable_top_files);
	if (!ret && !tr->name)
		ret = create_table(dir, &d[0], trace_tgids_files);
	if (!ret)
		ret = trace_create_ftrace_files(tr, dir);
	if (!ret && tr->name) {
		per_cpu = tracefs_create_dir("per_cpu", dir);
		if (IS_ERR(per_cpu))
			ret = (int)PTR_ERR(per_cpu);
	}
	for (int cpu = 0; !ret && cpu < (int)nr_cpu_ids; cpu++) {
		d[cpu + 1] = (struct trace_file_data){ tr, cpu };
		if (per_cpu) {
			snprintf(name, sizeof(name), "cpu%d", cpu);
			cpu_dir = tracefs_create_dir(name, per_cpu);
		} else {
			cpu_dir = tracefs_per_cpu_dir(cpu);
		}
		if (IS_ERR_OR_NULL(cpu_dir))
			ret = cpu_dir ? (int)PTR_ERR(cpu_dir) : -ENOENT;
		else
			ret = create_tables(cpu_dir, &d[cpu + 1], cpu_tables, ARRAY_SIZE(cpu_tables));
	}
	return ret;
}

void trace_free_files(struct trace_array *tr)
{
	trace_ftrace_free(tr);
	trace_free_options(tr);
	kfree(tr->file_data);
	tr->file_data = NULL;
}
