/*
 * Tracing's kernel command-line parameters, with Linux's names and
 * meanings (Documentation/admin-guide/kernel-parameters):
 *
 *   trace_buf_size=N[KMG]  bytes of ring buffer per CPU (rounded up to pages)
 *   trace_event=LIST       events on from boot: set_event's tokens,
 *                          comma-separated ("sched:sched_switch,irq")
 *   ftrace_dump_on_oops    a panic or oops prints the top-level trace on
 *                          the console before the machine stops
 *   tp_printk              every event record is printed on the console as
 *                          it is recorded too ("sched_switch: prev_comm=...")
 *
 * tracing_init() asks for the buffer size before the top-level buffer
 * exists and enables the events once every event is registered. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/cmdline.h>
#include <kernel/smp.h>
#include <trace/trace.h>
#include <trace/trace_output.h>
#include <trace/trace_event_buffer.h>

#define TRACE_BOOT_EVENTS_MAX	512

static bool dump_on_oops;

/* "64K", "4M", "1408k": a byte count with an optional binary suffix. */
static int parse_size(const char *s, unsigned long *res)
{
	unsigned long long v = 0;
	unsigned int shift = 0;
	size_t n = strspn(s, "0123456789");
	char digits[24];

	if (!n || n >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (kstrtoull(digits, 10, &v))
		return -EINVAL;
	switch (s[n]) {
	case 'g': case 'G': shift = 30; break;
	case 'm': case 'M': shift = 20; break;
	case 'k': case 'K': shift = 10; break;
	case '\0': break;
	default: return -EINVAL;
	}
	if ((shift && s[n + 1]) || v > (~0ULL >> shift))
		return -EINVAL;
	*res = (unsigned long)(v << shift);
	return 0;
}

unsigned long trace_boot_buf_size(void)
{
	const char *s = cmdline_get(&boot_cmdline, "trace_buf_size");
	unsigned long size;

	if (!s)
		return TRACE_BUF_SIZE_DEFAULT;
	if (parse_size(s, &size) || !size) {
		pr_warn("tracing: trace_buf_size=%s: not a size, using %lu\n", s,
			TRACE_BUF_SIZE_DEFAULT);
		return TRACE_BUF_SIZE_DEFAULT;
	}
	return size;
}

void trace_boot_events(struct trace_array *tr)
{
	const char *s = cmdline_get(&boot_cmdline, "trace_event");
	char list[TRACE_BOOT_EVENTS_MAX];
	bool tp_printk = false;
	int err;

	cmdline_get_bool(&boot_cmdline, "ftrace_dump_on_oops", &dump_on_oops);
	cmdline_get_bool(&boot_cmdline, "tp_printk", &tp_printk);
	if (tp_printk)
		static_branch_enable(&tracepoint_printk_key);
	if (!s)
		return;
	strscpy(list, s, sizeof(list));
	trace_types_lock();
	err = trace_set_event_list(tr, list, ",");
	trace_types_unlock();
	if (err)
		pr_warn("tracing: trace_event=%s: %s\n", s, errno_text(-err));
}

/*
 * The dump, in Linux's frame. Recording stops first, so it ends where the
 * trouble began. After an oops it runs before the other CPUs are stopped,
 * as one of them might hold a lock the reader needs; the consuming
 * reader is the one that copes with writers still finishing.
 */
void ftrace_dump(struct trace_array *tr, int cpu)
{
	struct trace_iterator *iter;
	bool any = false;

	tracer_tracing_on(tr, false);
	iter = trace_iter_open(tr, tr->buffer, cpu, true);
	printk(KERN_EMERG "Dumping ftrace buffer:\n");
	printk(KERN_EMERG "---------------------------------\n");
	while (iter && !trace_iter_next_line(iter)) {
		printk(KERN_EMERG "%s", iter->seq.buffer);
		any = true;
	}
	if (iter)
		trace_iter_close(iter);
	if (!any)
		printk(KERN_EMERG "   (ftrace buffer empty)\n");
	printk(KERN_EMERG "---------------------------------\n");
}

void trace_boot_dump_on_oops(void)
{
	if (dump_on_oops)
		ftrace_dump(&global_trace, RING_BUFFER_ALL_CPUS);
}
