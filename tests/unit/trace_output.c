/*
 * The `trace` file's text: header block and line prefixes against Linux
 * 6.18's sample, every flags-column letter, timestamp rounding,
 * trace_seq overflow, __print_flags/__print_symbolic, and the trace_ctx
 * a record gets from the context it is written in.
 */
/* uses: trace/trace_output.c trace/trace_events.c trace/trace_filter.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/preempt.h>
#include <asm/irqflags.h>
#include <trace/trace_output.h>

static char sample[8192];

static void load_sample(void)
{
	FILE *f = fopen("tests/unit/trace_ref/linux-6.18-trace-sample.txt", "r");
	size_t n;

	cr_assert_not_null(f);
	n = fread(sample, 1, sizeof(sample) - 1, f);
	fclose(f);
	sample[n] = '\0';
}

/* Line i of the sample (0-based), without its newline. */
static const char *sample_line(int i, char *buf, size_t size)
{
	const char *s = sample, *e;

	while (i--)
		s = strchr(s, '\n') + 1;
	e = strchr(s, '\n');
	snprintf(buf, size, "%.*s", (int)(e - s), s);
	return buf;
}

Test(trace_output, header_matches_linux)
{
	static struct trace_seq s;
	char want[2048];
	const char *end;

	load_sample();
	end = strstr(sample, "#              | |");
	end = strchr(end, '\n') + 1;
	snprintf(want, sizeof(want), "%.*s", (int)(end - sample), sample);
	trace_seq_init(&s);
	cr_assert_eq(trace_print_header(&s, "nop", 59, 59, 2), 0);
	cr_assert_str_eq(s.buffer, want);
}

/* Build a prefix and compare it with the start of a sample line. */
static void check_prefix(int line, const char *comm, int pid, int cpu, u8 flags, u8 pc, u64 ts)
{
	static struct trace_seq s;
	struct trace_entry ent = { .type = 40, .flags = flags, .preempt_count = pc, .pid = pid };
	char want[512];

	sample_line(line, want, sizeof(want));
	trace_seq_init(&s);
	cr_assert_eq(trace_print_context(&s, &ent, comm, cpu, ts), 0);
	cr_assert_eq(strncmp(s.buffer, want, s.len), 0, "got '%s'\nwant '%s'", s.buffer, want);
	cr_assert_str_eq(want + s.len - 0, strstr(want, ": sched_") + 2);
}

Test(trace_output, line_prefixes_match_linux)
{
	load_sample();
	check_prefix(12, "bash", 10660, 0, TRACE_FLAG_IRQS_OFF, 2, 1299362696000ull);
	check_prefix(18, "<idle>", 0, 1, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_SOFTIRQ, 4, 1299363087000ull);
	check_prefix(22, "<idle>", 0, 0, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, 3, 1299367710000ull);
	check_prefix(23, "<idle>", 0, 0, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_SOFTIRQ |
		     TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED, 3, 1299367736000ull);
	check_prefix(25, "memfd:sealed-91", 1565, 0, TRACE_FLAG_IRQS_OFF, 2, 1299367777000ull);
	check_prefix(15, "migration/0", 18, 0, TRACE_FLAG_IRQS_OFF, 2, 1299362909000ull);
}

static const char *lat(u8 flags, u8 pc)
{
	static struct trace_seq s;
	struct trace_entry ent = { .flags = flags, .preempt_count = pc };

	trace_seq_init(&s);
	trace_print_lat_fmt(&s, &ent);
	return s.buffer;
}

Test(trace_output, flags_column)
{
	cr_assert_str_eq(lat(0, 0), ".....");
	cr_assert_str_eq(lat(TRACE_FLAG_IRQS_OFF | TRACE_FLAG_BH_OFF, 0), "D....");
	cr_assert_str_eq(lat(TRACE_FLAG_BH_OFF, 0), "b....");
	cr_assert_str_eq(lat(TRACE_FLAG_IRQS_NOSUPPORT, 0), "X....");
	cr_assert_str_eq(lat(TRACE_FLAG_NEED_RESCHED, 0), ".n...");
	cr_assert_str_eq(lat(TRACE_FLAG_PREEMPT_RESCHED, 0), ".p...");
	cr_assert_str_eq(lat(TRACE_FLAG_NMI | TRACE_FLAG_HARDIRQ, 0), "..Z..");
	cr_assert_str_eq(lat(TRACE_FLAG_NMI, 0), "..z..");
	cr_assert_str_eq(lat(TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ, 0), "..H..");
	cr_assert_str_eq(lat(0, 0xf), "...f.");
	cr_assert_str_eq(lat(0, 0x21), "...12");
}

Test(trace_output, timestamps_round_to_microseconds)
{
	static struct trace_seq s;
	struct trace_entry ent = { .pid = 1 };

	trace_seq_init(&s);
	trace_print_context(&s, &ent, "a", 0, 1299362696499ull);
	cr_assert_not_null(strstr(s.buffer, " 1299.362696: "));
	trace_seq_init(&s);
	trace_print_context(&s, &ent, "a", 0, 1299362696500ull);
	cr_assert_not_null(strstr(s.buffer, " 1299.362697: "));
	trace_seq_init(&s);
	trace_print_context(&s, &ent, "a", 0, 999999500ull);
	cr_assert_not_null(strstr(s.buffer, "     1.000000: "));
	trace_seq_init(&s);
	trace_print_context(&s, &ent, "a", 0, 123456000000000ull);
	cr_assert_not_null(strstr(s.buffer, " 123456.000000: "));
}

Test(trace_output, seq_refuses_whole_writes_when_full)
{
	static struct trace_seq s;
	char big[TRACE_SEQ_BUFFER_SIZE];

	trace_seq_init(&s);
	memset(big, 'x', sizeof(big) - 10);
	big[sizeof(big) - 10] = '\0';
	cr_assert_eq(trace_seq_puts(&s, big), 0);
	cr_assert_eq(trace_seq_printf(&s, "%s", "0123456789abc"), -EOVERFLOW);
	cr_assert(s.full);
	cr_assert_eq(s.len, sizeof(big) - 10);
	cr_assert_eq(s.buffer[s.len], '\0');
	cr_assert_eq(trace_seq_putc(&s, 'y'), -EOVERFLOW, "a full seq stays full");
}

Test(trace_output, print_flags_and_symbols)
{
	static struct trace_seq p;
	static const struct trace_print_flags flags[] = {
		{ 0x3, "BOTH" }, { 0x1, "ONE" }, { 0x4, "FOUR" }, { 0, NULL },
	};
	const char *a, *b, *c;

	trace_seq_init(&p);
	a = trace_print_flags_seq(&p, "|", 0x7, flags);
	b = trace_print_flags_seq(&p, "|", 0x1 | 0x10, flags);
	c = trace_print_symbols_seq(&p, 4, flags);
	cr_assert_str_eq(a, "BOTH|FOUR");
	cr_assert_str_eq(b, "ONE|0x10");
	cr_assert_str_eq(c, "FOUR");
	cr_assert_str_eq(trace_print_symbols_seq(&p, 9, flags), "0x9");
	cr_assert_str_eq(trace_print_flags_seq(&p, "|", 0, flags), "");
	cr_assert_str_eq(a, "BOTH|FOUR", "later helpers keep earlier results");
}

Test(trace_output, trace_ctx_from_context)
{
	unsigned int ctx;

	host_cpu_id = 1;
	ctx = tracing_gen_ctx();
	cr_assert_eq(ctx, 0);
	arch_local_irq_disable();
	preempt_count_add(HARDIRQ_OFFSET + SOFTIRQ_DISABLE_OFFSET + 3);
	ctx = tracing_gen_ctx();
	cr_assert_eq(ctx >> 16, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ | TRACE_FLAG_BH_OFF);
	cr_assert_eq(ctx & 0xff, 3);
	preempt_count_sub(HARDIRQ_OFFSET + SOFTIRQ_DISABLE_OFFSET + 3);
	preempt_count_add(SOFTIRQ_OFFSET + NMI_OFFSET + 20);
	this_cpu_write(need_resched, 1);
	ctx = tracing_gen_ctx();
	cr_assert_eq(ctx >> 16, TRACE_FLAG_IRQS_OFF | TRACE_FLAG_SOFTIRQ | TRACE_FLAG_NMI |
		     TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED);
	cr_assert_eq(ctx & 0xff, 0xf, "depth caps at 15");
	this_cpu_write(need_resched, 0);
	preempt_count_sub(SOFTIRQ_OFFSET + NMI_OFFSET + 20);
	arch_local_irq_enable();
}
