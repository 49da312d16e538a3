/*
 * tracing_cpumask: the CPUs whose events an array records, as a hex
 * bitmap (Linux's %*pb: 32-bit groups joined by commas, the first one as
 * wide as the CPUs it covers). A CPU taken out stops recording into the
 * live and the snapshot buffer alike, so a swap does not bring it back.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/percpu.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_files.h>

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static u64 cpu_possible_bits(void)
{
	return nr_cpu_ids >= 64 ? ~0ull : (1ull << nr_cpu_ids) - 1;
}

/* Stop (or restart) recording on the CPUs in changed, in one buffer. */
static void cpumask_apply(struct trace_buffer *buffer, u64 changed, bool enable)
{
	for (int cpu = 0; buffer && cpu < (int)nr_cpu_ids; cpu++) {
		if (!(changed & (1ull << cpu)))
			continue;
		if (enable)
			ring_buffer_record_enable_cpu(buffer, cpu);
		else
			ring_buffer_record_disable_cpu(buffer, cpu);
	}
}

void trace_cpumask_init_buffer(struct trace_array *tr, struct trace_buffer *buffer)
{
	cpumask_apply(buffer, cpu_possible_bits() & ~tr->tracing_cpumask, false);
}

/*
 * Parse Linux's bitmap text: hex digits in comma-separated groups of up to
 * 32 bits, most significant first, a newline at the end allowed. Bits past
 * the last CPU are -EOVERFLOW.
 */
int trace_parse_cpumask(const char *buf, size_t count, u64 *mask)
{
	u64 m = 0;
	u32 group = 0;
	unsigned int digits = 0;

	if (count && buf[count - 1] == '\n')
		count--;
	for (size_t i = 0; i <= count; i++) {
		char c = i < count ? buf[i] : ',';

		if (c == ',') {
			if (!digits || (m >> 32))
				return digits ? -EOVERFLOW : -EINVAL;
			m = (m << 32) | group;
			group = 0;
			digits = 0;
		} else if (hex_digit(c) < 0 || ++digits > 8) {
			return hex_digit(c) < 0 ? -EINVAL : -EOVERFLOW;
		} else {
			group = (group << 4) | (u32)hex_digit(c);
		}
	}
	if (m & ~cpu_possible_bits())
		return -EOVERFLOW;
	*mask = m;
	return 0;
}

static int tracing_cpumask_show(struct seq_file *m, void *v)
{
	struct trace_file_data *d = m->private;
	unsigned int groups = (nr_cpu_ids + 31) / 32;

	for (unsigned int g = groups; g-- > 0;) {
		unsigned int bits = g == groups - 1 ? nr_cpu_ids - g * 32 : 32;

		seq_printf(m, "%s%0*lx", g == groups - 1 ? "" : ",", (int)((bits + 3) / 4),
			   (unsigned long)((d->tr->tracing_cpumask >> (g * 32)) & 0xffffffffu));
	}
	seq_putc(m, '\n');
	return 0;
}
TRACE_SHOW_FILE(tracing_cpumask)

static ssize_t tracing_cpumask_write(struct file *file, const char *buf, size_t count,
				     loff_t *pos)
{
	struct trace_array *tr = file_data(file)->tr;
	u64 mask, old;
	int ret = trace_parse_cpumask(buf, count, &mask);

	if (ret)
		return ret;
	trace_types_lock();
	old = tr->tracing_cpumask;
	cpumask_apply(tr->buffer, old & ~mask, false);
	cpumask_apply(tr->snapshot, old & ~mask, false);
	cpumask_apply(tr->buffer, mask & ~old, true);
	cpumask_apply(tr->snapshot, mask & ~old, true);
	tr->tracing_cpumask = mask;
	trace_types_unlock();
	return (ssize_t)count;
}

static const struct file_operations tracing_cpumask_fops = {
	.open = tracing_cpumask_open,
	.read = seq_read,
	.write = tracing_cpumask_write,
	.release = tr_single_release,
};

const struct trace_file_spec trace_cpumask_files[] = {
	{ "tracing_cpumask", TRACE_MODE_WRITE, &tracing_cpumask_fops },
	{ }
};
