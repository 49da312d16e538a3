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

/* What an options/ file's i_private points at. */
struct trace_option_data {
	struct trace_array *tr;
	unsigned int bit;
};

static const char *const trace_option_names[TRACE_ITER_NR] = {
	"print-parent", "sym-offset", "sym-addr", "verbose", "raw", "hex", "bin", "block",
	"fields", "trace_printk", "annotate", "userstacktrace", "sym-userobj",
	"printk-msg-only", "context-info", "latency-format", "record-cmd", "record-tgid",
	"overwrite", "disable_on_free", "irq-info", "markers", "event-fork", "trace_printk_dest",
	"pause-on-trace", "hash-ptr", "stacktrace",
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

static ssize_t option_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct trace_option_data *o = file->f_inode->i_private;

	return simple_read_from_buffer(buf, count, pos, o->tr->trace_flags & (1ul << o->bit) ?
				       "1\n" : "0\n", 2);
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

int trace_create_options_dir(struct trace_array *tr, struct dentry *dir)
{
	struct dentry *options;

	tr->trace_flags = TRACE_FLAGS_DEFAULT;
	/* Linux's top level prints trace_printk() into itself; an instance does not. */
	if (!tr->name)
		tr->trace_flags |= TRACE_ITER(TRACE_PRINTK);
	tr->options = kcalloc(TRACE_ITER_NR, sizeof(*tr->options), GFP_KERNEL);
	if (!tr->options)
		return -ENOMEM;
	options = tracefs_create_dir("options", dir);
	if (IS_ERR(options))
		return (int)PTR_ERR(options);
	for (unsigned int i = 0; i < TRACE_ITER_NR; i++) {
		struct dentry *f;

		tr->options[i] = (struct trace_option_data){ tr, i };
		f = tracefs_create_file(trace_option_names[i], TRACE_MODE_WRITE, options,
					&tr->options[i], &option_fops);
		if (IS_ERR(f))
			return (int)PTR_ERR(f);
	}
	return 0;
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

	for (unsigned int i = 0; i < TRACE_ITER_NR; i++)
		seq_printf(m, "%s%s\n", d->tr->trace_flags & (1ul << i) ? "" : "no",
			   trace_option_names[i]);
	return 0;
}
TRACE_SHOW_FILE(trace_options)

/* "NAME" sets an option, "noNAME" clears it; anything else is EINVAL. */
static ssize_t trace_options_write(struct file *file, const char *buf, size_t count,
				   loff_t *pos)
{
	char word[32], *name = word;
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
	return -EINVAL;
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
