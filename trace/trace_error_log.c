/*
 * error_log: the last TRACE_ERROR_LOG_MAX command errors of an instance,
 * oldest first, in Linux's layout; opening it with O_TRUNC clears it.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>
#include <trace/trace_filter.h>

void tracing_log_err(struct trace_array *tr, const char *text)
{
	struct tracing_log_err *err = kzalloc(sizeof(*err), GFP_KERNEL), *old = NULL;
	unsigned long flags;

	if (!err)
		return;
	err->text = kstrdup(text, GFP_KERNEL);
	if (!err->text) {
		kfree(err);
		return;
	}
	spin_lock_irqsave(&tr->lock, flags);
	if (tr->n_err_log == TRACE_ERROR_LOG_MAX) {
		old = list_first_entry(&tr->err_log, struct tracing_log_err, list);
		list_del(&old->list);
	} else {
		tr->n_err_log++;
	}
	list_add_tail(&err->list, &tr->err_log);
	spin_unlock_irqrestore(&tr->lock, flags);
	if (old) {
		kfree(old->text);
		kfree(old);
	}
}

void tracing_log_err_cmd(struct trace_array *tr, const char *loc, const char *cmd,
			 const char *msg, int pos)
{
	u64 usecs = trace_clock_local() / 1000;
	size_t len = strlen(loc) + strlen(cmd) + strlen(msg) + (size_t)(pos > 0 ? pos : 0) + 64;
	char *text = kmalloc(len, GFP_KERNEL);

	if (!text)
		return;
	snprintf(text, len, "[%5lu.%06lu] %s: error: %s\n  Command: %s\n           %*s^\n",
		 (unsigned long)(usecs / 1000000), (unsigned long)(usecs % 1000000), loc, msg,
		 cmd, pos > 0 ? pos : 0, "");
	tracing_log_err(tr, text);
	kfree(text);
}

void trace_log_filter_error(struct trace_array *tr, const char *str,
			    const struct filter_error *err)
{
	u64 ts = trace_clock_local();
	int len = filter_format_error(NULL, 0, ts, str, err);
	char *text = kmalloc((size_t)len + 1, GFP_KERNEL);

	if (!text)
		return;
	filter_format_error(text, (size_t)len + 1, ts, str, err);
	tracing_log_err(tr, text);
	kfree(text);
}

void tracing_err_log_show(struct trace_array *tr, struct seq_file *m)
{
	struct tracing_log_err *err;

	/* Under trace_types_lock, which every logger and clearer holds: no entry goes meanwhile. */
	list_for_each_entry(err, &tr->err_log, list)
		seq_puts(m, err->text);
}

void tracing_err_log_clear(struct trace_array *tr)
{
	struct tracing_log_err *err, *n;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&tr->lock, flags);
	list_for_each_entry_safe(err, n, &tr->err_log, list) {
		list_del(&err->list);
		list_add_tail(&err->list, &gone);
	}
	tr->n_err_log = 0;
	spin_unlock_irqrestore(&tr->lock, flags);
	list_for_each_entry_safe(err, n, &gone, list) {
		kfree(err->text);
		kfree(err);
	}
}
