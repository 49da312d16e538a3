/*
 * Trace options: options/NAME (0 or 1) and trace_options (every option,
 * "no" before those that are off; writing NAME or noNAME sets one), per
 * array, with Linux's names, order and defaults. overwrite, event-fork,
 * record-cmd, record-tgid and stacktrace act here; markers and
 * pause-on-trace where they are read (trace_marker, trace), and raw, hex,
 * bin, context-info, irq-info, latency-format and verbose in the `trace`
 * text (trace/trace_iter_print.c). The others only keep their value (see
 * docs/ROADMAP.md). Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_files.h>
#include <trace/trace_event_buffer.h>
#include <trace/tracer.h>

/* What an options/ file's i_private points at: a bit of tr's flags, or of t's options. */
struct trace_option_data {
	struct trace_array *tr;
	unsigned int bit;
	struct tracer *t;		/* NULL: tr->trace_flags */
};

static const char *const trace_option_names[TRACE_ITER_NR] = {
	"print-parent", "sym-offset", "sym-addr", "verbose", "raw", "hex", "bin", "block",
	"fields", "trace_printk", "annotate", "userstacktrace", "sym-userobj",
	"printk-msg-only", "context-info", "latency-format", "record-cmd", "record-tgid",
	"overwrite", "disable_on_free", "irq-info", "markers", "event-fork", "trace_printk_dest",
	"pause-on-trace", "hash-ptr", "function-trace", "stacktrace",
};

int trace_set_option(struct trace_array *tr, unsigned int bit, bool on)
{
	unsigned long mask = 1ul << bit;

	if (bit >= TRACE_ITER_NR)
		return -EINVAL;
	if (!!(tr->trace_flags & mask) == on)
		return 0;
	if (bit == TRACE_ITER_EVENT_FORK_BIT) {
		int ret = trace_event_follow_fork(tr, on);

		if (ret)
			return ret;
	}
	if (bit == TRACE_ITER_RECORD_TGID_BIT) {
		int ret = trace_tgids_record(on);

		if (ret)
			return ret;
	}
	if (tr->current_trace && tr->current_trace->flag_changed) {
		int ret = tr->current_trace->flag_changed(tr, bit, on);

		if (ret)
			return ret;
	}
	if (bit == TRACE_ITER_RECORD_CMD_BIT)
		trace_cmdlines_record(on);
	if (bit == TRACE_ITER_STACKTRACE_BIT) {
		if (on)
			static_key_slow_inc(&trace_event_stack_key.key);
		else
			static_key_slow_dec(&trace_event_stack_key.key);
	}
	if (bit == TRACE_ITER_OVERWRITE_BIT) {
		ring_buffer_change_overwrite(tr->buffer, on);
		if (tr->snapshot)
			ring_buffer_change_overwrite(tr->snapshot, on);
	}
	if (on)
		tr->trace_flags |= mask;
	else
		tr->trace_flags &= ~mask;
	return 0;
}

/* --- options/NAME ---------------------------------------------------------------------- */

static int option_open(struct inode *inode, struct file *file)
{
	struct trace_option_data *o = inode->i_private;

	return trace_array_get_file(file, &o->tr);
}

static int option_release(struct inode *inode, struct file *file)
{
	trace_array_put(((struct trace_option_data *)inode->i_private)->tr);
	return 0;
}

static unsigned long option_flags(const struct trace_option_data *o)
{
	return o->t ? *o->t->opt_flags : o->tr->trace_flags;
}

static ssize_t option_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct trace_option_data *o = file->f_inode->i_private;

	return simple_read_from_buffer(buf, count, pos, option_flags(o) & (1ul << o->bit) ?
				       "1\n" : "0\n", 2);
}

/* A tracer's option: only its value changes (its users read it as they go). */
static void set_tracer_option(struct tracer *t, unsigned int bit, bool on)
{
	if (on)
		*t->opt_flags |= 1ul << bit;
	else
		*t->opt_flags &= ~(1ul << bit);
}

static ssize_t option_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct trace_option_data *o = file->f_inode->i_private;
	unsigned long val;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	trace_types_lock();
	if (o->t)
		set_tracer_option(o->t, o->bit, val);
	else
		ret = trace_set_option(o->tr, o->bit, val);
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations option_fops = {
	.open = option_open,
	.read = option_read,
	.write = option_write,
	.release = option_release,
};

static int create_option(struct dentry *dir, const char *name, struct trace_option_data *o)
{
	struct dentry *f = tracefs_create_file(name, TRACE_MODE_WRITE, dir, o, &option_fops);

	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}

/* The array's flags, then every tracer's options (registered at boot, before any array). */
int trace_create_options_dir(struct trace_array *tr, struct dentry *dir)
{
	unsigned int n = TRACE_ITER_NR;
	struct dentry *options;
	int ret = 0;

	tr->trace_flags = TRACE_FLAGS_DEFAULT;
	/* Linux's top level prints trace_printk() into itself; an instance does not. */
	if (!tr->name)
		tr->trace_flags |= TRACE_ITER(TRACE_PRINTK);
	for (struct tracer *t = tracing_tracers(); t; t = t->next)
		for (unsigned int i = 0; t->opts && t->opts[i]; i++)
			n++;
	tr->options = kcalloc(n, sizeof(*tr->options), GFP_KERNEL);
	if (!tr->options)
		return -ENOMEM;
	options = tracefs_create_dir("options", dir);
	if (IS_ERR(options))
		return (int)PTR_ERR(options);
	for (unsigned int i = 0; i < TRACE_ITER_NR && !ret; i++) {
		tr->options[i] = (struct trace_option_data){ tr, i, NULL };
		ret = create_option(options, trace_option_names[i], &tr->options[i]);
	}
	n = TRACE_ITER_NR;
	for (struct tracer *t = tracing_tracers(); t && !ret; t = t->next) {
		for (unsigned int i = 0; t->opts && t->opts[i] && !ret; i++, n++) {
			tr->options[n] = (struct trace_option_data){ tr, i, t };
			ret = create_option(options, t->opts[i], &tr->options[n]);
		}
	}
	return ret;
}

/* An array going away: what its options hold (probes, counts) and pid lists go first. */
void trace_free_options(struct trace_array *tr)
{
	if (tr->options) {
		trace_set_option(tr, TRACE_ITER_EVENT_FORK_BIT, false);
		trace_set_option(tr, TRACE_ITER_RECORD_TGID_BIT, false);
		trace_set_option(tr, TRACE_ITER_STACKTRACE_BIT, false);
		trace_set_option(tr, TRACE_ITER_RECORD_CMD_BIT, true);
		trace_event_pid_clear(tr);
	}
	kfree(tr->options);
	tr->options = NULL;
}

/* --- trace_options ---------------------------------------------------------------------- */

static int trace_options_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;

	struct tracer *t = tracing_tracer(d->tr);

	for (unsigned int i = 0; i < TRACE_ITER_NR; i++)
		seq_printf(m, "%s%s\n", d->tr->trace_flags & (1ul << i) ? "" : "no",
			   trace_option_names[i]);
	/* The current tracer's own options follow, as Linux lists them. */
	for (unsigned int i = 0; t->opts && t->opts[i]; i++)
		seq_printf(m, "%s%s\n", *t->opt_flags & (1ul << i) ? "" : "no", t->opts[i]);
	return 0;
}
TRACE_SHOW_FILE(trace_options)

/* "NAME" sets an option, "noNAME" clears it; anything else is EINVAL. */
static ssize_t trace_options_write(struct file *file, const char *buf, size_t count,
				   loff_t *pos)
{
	char word[32], *name = word;
	struct tracer *t;
	bool on = true;
	int ret = trace_parse_word(buf, count, word, sizeof(word));

	if (ret)
		return ret;
	if (!strncmp(name, "no", 2)) {
		name += 2;
		on = false;
	}
	for (unsigned int i = 0; i < TRACE_ITER_NR; i++) {
		if (strcmp(name, trace_option_names[i]))
			continue;
		trace_types_lock();
		ret = trace_set_option(file_data(file)->tr, i, on);
		trace_types_unlock();
		return ret ? ret : (ssize_t)count;
	}
	/* Else the current tracer's own options. */
	trace_types_lock();
	t = tracing_tracer(file_data(file)->tr);
	ret = -EINVAL;
	for (unsigned int i = 0; t->opts && t->opts[i]; i++) {
		if (!strcmp(name, t->opts[i])) {
			set_tracer_option(t, i, on);
			ret = 0;
		}
	}
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static const struct file_operations trace_options_fops = {
	.open = trace_options_open,
	.read = seq_read,
	.write = trace_options_write,
	.release = tr_single_release,
};

const struct trace_file_spec trace_options_files[] = {
	{ "trace_options", TRACE_MODE_WRITE, &trace_options_fops },
	{ }
};
