/*
 * Ring buffer write cost on the host build: a sched_switch-sized record
 * (64-byte payload) reserved, filled and committed, in overwrite mode on
 * a 1 MiB-per-CPU buffer that wraps all the time (page moves and page
 * drops included). Fixed iteration counts, best of several runs.
 *
 *	ring_buffer			print the table
 *	ring_buffer callgrind N		only N writes on CPU 0, for
 *		valgrind --tool=callgrind --toggle-collect=write_events
 *		(instructions per event = Ir / N)
 */
/* uses: trace/ring_buffer.c trace/ring_buffer_write.c trace/ring_buffer_read.c */
#include <kernel/percpu.h>
#include <kernel/time.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <trace/ring_buffer.h>

#define PAYLOAD		64
#define EVENTS		20000
#define RUNS		300
#define MAX_WRITERS	2

static struct trace_buffer *buffer;
static pthread_barrier_t start;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* The measured loop: what a TRACE_EVENT probe does for its record. */
static noinline void write_events(long n)
{
	u64 record[PAYLOAD / 8] = { 0 };

	for (long i = 0; i < n; i++) {
		struct rb_event *ev = ring_buffer_lock_reserve(buffer, PAYLOAD);

		if (!ev)
			abort();
		record[0] = (u64)i;
		memcpy(ring_buffer_event_data(ev), record, PAYLOAD);
		ring_buffer_unlock_commit(buffer);
	}
}

struct run {
	int cpu;
	u64 ns;
};

static void *writer(void *arg)
{
	struct run *r = arg;
	u64 t0;

	host_cpu_id = r->cpu;
	pthread_barrier_wait(&start);
	t0 = now_ns();
	write_events(EVENTS);
	r->ns = now_ns() - t0;
	return NULL;
}

/* Best ns per event over RUNS runs of nr writers in parallel (each its own CPU). */
static double measure(int nr, trace_clock_fn clock)
{
	double best = 1e30;

	ring_buffer_set_clock(buffer, clock);
	for (int run = 0; run < RUNS; run++) {
		struct run r[MAX_WRITERS];
		pthread_t t[MAX_WRITERS];

		ring_buffer_reset(buffer);
		pthread_barrier_init(&start, NULL, nr);
		for (int i = 0; i < nr; i++) {
			r[i].cpu = i;
			pthread_create(&t[i], NULL, writer, &r[i]);
		}
		for (int i = 0; i < nr; i++) {
			double ns;

			pthread_join(t[i], NULL);
			ns = (double)r[i].ns / EVENTS;
			if (ns < best)
				best = ns;
		}
		pthread_barrier_destroy(&start);
	}
	return best;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		trace_clock_fn fn;
	} clocks[] = {
		{ "local", trace_clock_local },
		{ "global", trace_clock_global },
		{ "counter", trace_clock_counter },
	};

	buffer = ring_buffer_alloc(1 << 20, RB_FL_OVERWRITE);
	if (!buffer)
		return 1;
	if (argc == 3 && !strcmp(argv[1], "callgrind")) {
		write_events(atol(argv[2]));
		return 0;
	}
	printf("ring buffer: %d-byte payload (sched_switch-sized), reserve + fill + commit,\n"
	       "overwrite mode, 1 MiB per CPU, %d events per writer, best of %d runs\n\n",
	       PAYLOAD, EVENTS, RUNS);
	printf("%-8s %8s %12s %18s\n", "clock", "writers", "ns/event", "events/s per CPU");
	for (unsigned int c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		for (int nr = 1; nr <= MAX_WRITERS; nr++) {
			double ns = measure(nr, clocks[c].fn);

			printf("%-8s %8d %12.1f %18.0f\n", clocks[c].name, nr, ns, 1e9 / ns);
		}
	}
	ring_buffer_free(buffer);
	return 0;
}
