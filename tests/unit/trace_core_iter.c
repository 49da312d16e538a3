/*
 * The trace iterator (trace/trace_iter.c) over a real ring buffer: `trace`
 * merges the per-CPU buffers by time stamp, starts with Linux's header and
 * leaves the records in place; `trace_pipe` yields the same order and
 * consumes; a per_cpu file sees its CPU only. Records carry an event type
 * no event owns, so lines end in trace_output's "Unknown type N".
 */
/* uses: trace/trace_iter.c trace/trace_iter_print.c trace/ring_buffer.c trace/ring_buffer_write.c trace/ring_buffer_read.c trace/trace_output.c trace/trace_events.c trace/trace_filter.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/percpu.h>
#include <trace/trace.h>

#define PER_CPU		10
#define USED_CPUS	4
#define REC_TYPE	999

/* What trace/trace_cmdlines.c answers in the kernel; here every pid is "task". */
void trace_find_cmdline(pid_t pid, char comm[16])
{
	snprintf(comm, 16, "task");
}

/* Only the record-tgid option asks (trace/trace_tgids.c in the kernel). */
pid_t trace_find_tgid(pid_t pid)
{
	return pid;
}

static u64 fake_now;
static u64 fake_clock(void)
{
	return fake_now;
}

static struct trace_array tr;
static struct trace_buffer *buffer;

/*
 * CPU c writes its i-th record at time 1000 * (i * USED_CPUS + order[c]) us,
 * so the merged order runs CPU 2, 0, 3, 1, 2, 0, ...; pid is the global
 * position in that order.
 */
static const int order[USED_CPUS] = { 1, 3, 0, 2 };

static void fill(void)
{
	buffer = ring_buffer_alloc(16 * RB_PAGE_SIZE, 0);
	cr_assert_not_null(buffer);
	ring_buffer_set_clock(buffer, fake_clock);
	tr.buffer = buffer;
	tr.trace_flags = TRACE_FLAGS_DEFAULT;
	for (int i = 0; i < PER_CPU; i++) {
		for (int c = 0; c < USED_CPUS; c++) {
			int pos = i * USED_CPUS + order[c];
			struct trace_entry ent = { .type = REC_TYPE, .pid = pos };

			host_cpu_id = c;
			fake_now = (u64)pos * 1000000;
			cr_assert_eq(ring_buffer_write(buffer, sizeof(ent), &ent), 0);
		}
	}
	host_cpu_id = 0;
}

static void cleanup(void)
{
	ring_buffer_free(buffer);
}

TestSuite(trace_core_iter, .init = fill, .fini = cleanup);

/* The lines an iterator yields, header lines dropped, into out[]; their count. */
static int read_lines(struct trace_iterator *iter, char out[][160], int max, int *header_lines)
{
	int n = 0;

	*header_lines = 0;
	while (trace_iter_next_line(iter) == 0) {
		const char *line = iter->seq.buffer;

		for (const char *l = line; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			if (*l == '#') {
				(*header_lines)++;
				continue;
			}
			cr_assert_lt(n, max);
			snprintf(out[n], 160, "%.*s", (int)strcspn(l, "\n"), l);
			n++;
		}
	}
	return n;
}

/* Line k must be the record at merged position pos: its CPU, pid and time. */
static void check_line(const char *line, int pos)
{
	char want[160];
	int cpu = -1;

	for (int c = 0; c < USED_CPUS; c++)
		if (order[c] == pos % USED_CPUS)
			cpu = c;
	snprintf(want, sizeof(want), "            task-%-7d [%03d] .....     %lu.%06lu: Unknown type %d",
		 pos, cpu, (unsigned long)(pos / 1000), (unsigned long)(pos % 1000) * 1000, REC_TYPE);
	cr_assert_str_eq(line, want);
}

Test(trace_core_iter, trace_merges_cpus_by_time_and_keeps_records)
{
	static char lines[64][160];
	struct trace_iterator *iter = trace_iter_open(&tr, buffer, RING_BUFFER_ALL_CPUS, false);
	int header, n;

	cr_assert_not_null(iter);
	n = read_lines(iter, lines, 64, &header);
	trace_iter_close(iter);
	cr_assert_eq(header, 12, "Linux's 12 header lines come first");
	cr_assert_eq(n, PER_CPU * USED_CPUS);
	for (int k = 0; k < n; k++)
		check_line(lines[k], k);

	iter = trace_iter_open(&tr, buffer, RING_BUFFER_ALL_CPUS, false);
	cr_assert_eq(read_lines(iter, lines, 64, &header), PER_CPU * USED_CPUS,
		     "reading trace consumes nothing");
	cr_assert_eq(trace_iter_next_line(iter), -EAGAIN);
	trace_iter_close(iter);
}

Test(trace_core_iter, header_counts_entries)
{
	struct trace_iterator *iter = trace_iter_open(&tr, buffer, RING_BUFFER_ALL_CPUS, false);
	char want[64];

	cr_assert_eq(trace_iter_next_line(iter), 0);
	snprintf(want, sizeof(want), "# entries-in-buffer/entries-written: %d/%d   #P:%u\n",
		 PER_CPU * USED_CPUS, PER_CPU * USED_CPUS, nr_cpu_ids);
	cr_assert_not_null(strstr(iter->seq.buffer, want), "%s", iter->seq.buffer);
	trace_iter_close(iter);
}

Test(trace_core_iter, trace_pipe_consumes_in_the_same_order)
{
	static char lines[64][160];
	struct trace_iterator *iter = trace_iter_open(&tr, buffer, RING_BUFFER_ALL_CPUS, true);
	int header, n;

	cr_assert(!trace_iter_empty(iter));
	n = read_lines(iter, lines, 64, &header);
	cr_assert_eq(header, 0, "trace_pipe has no header");
	cr_assert_eq(n, PER_CPU * USED_CPUS);
	for (int k = 0; k < n; k++)
		check_line(lines[k], k);
	cr_assert(trace_iter_empty(iter), "everything was consumed");
	trace_iter_close(iter);
	for (int c = 0; c < USED_CPUS; c++)
		cr_assert(ring_buffer_empty_cpu(buffer, c));
}

Test(trace_core_iter, per_cpu_file_sees_one_cpu)
{
	static char lines[64][160];
	struct trace_iterator *iter = trace_iter_open(&tr, buffer, 3, true);
	int header, n;

	n = read_lines(iter, lines, 64, &header);
	trace_iter_close(iter);
	cr_assert_eq(n, PER_CPU);
	for (int k = 0; k < n; k++)
		check_line(lines[k], k * USED_CPUS + order[3]);
	cr_assert(!ring_buffer_empty_cpu(buffer, 0), "other CPUs keep their records");
	cr_assert(ring_buffer_empty_cpu(buffer, 3));
}
