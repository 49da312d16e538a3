/*
 * Sampling on the clocks: cpu-clock and task-clock events sample from a
 * timer every sample_period nanoseconds (sample_freq becomes the period
 * 1e9/freq, as Linux maps it once for these events), with the
 * interrupted task and instruction pointer. A per-task clock runs only
 * while its task runs; a per-CPU one always.
 *
 * The host shares its cores: a vCPU left waiting for longer than a period
 * takes one late interrupt for the periods it missed, and one sample (as
 * Linux forwards an overrun hrtimer: the expiries stay on their grid).
 * So the checks ask for no more samples than periods, and for the timer's
 * resolution by the closest two samples: under 0.8 ms apart, where a
 * timer run from the 1 ms tick could not come that close.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "perf_check.h"

#define CLOCK_ST	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_PERIOD)

extern char __executable_start[], etext[];

/* What a run of clock samples looked like. */
struct clock_tally {
	unsigned long samples, user, in_text, own_tid, bad_period, other;
	uint64_t period;	/* the first sample's */
	uint64_t last_time, min_gap;	/* the closest two samples */
};

static void clock_drain(struct ring *r, struct clock_tally *t, uint64_t want_period)
{
	unsigned char rec[256];
	int got;

	while ((got = ring_next(r, rec, sizeof(rec))) > 0) {
		const struct perf_event_header *h = (const void *)rec;
		uint64_t ip, period, time;
		uint32_t pid_tid[2];

		if (h->type != PERF_RECORD_SAMPLE) {
			t->other++;
			continue;
		}
		memcpy(&ip, rec + 8, 8);
		memcpy(pid_tid, rec + 16, 8);
		memcpy(&time, rec + 24, 8);
		memcpy(&period, rec + 40, 8);
		if (!t->samples++)
			t->period = period;
		else if (!t->min_gap || time - t->last_time < t->min_gap)
			t->min_gap = time - t->last_time;
		t->last_time = time;
		t->user += (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
		t->in_text += ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext;
		t->own_tid += pid_tid[1] == (uint32_t)getpid();
		t->bad_period += period != want_period;
	}
	t->other += got < 0;
}

static uint64_t read_count(int fd)
{
	uint64_t v = 0;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? v : 0;
}

/* Spin in ring 3 until the clock event fd has counted ns. */
static void spin_for(int fd, uint64_t ns)
{
	while (read_count(fd) < ns)
		for (volatile int i = 0; i < 20000; i++)
			;
}

static int open_clock(uint64_t config, int pid, int cpu, uint64_t period, int freq)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = config, .sample_period = period,
				     .sample_type = CLOCK_ST, .flags = PERF_ATTR_FLAG_DISABLED };

	if (freq)
		a.flags |= PERF_ATTR_FLAG_FREQ;
	return perf_open(&a, pid, cpu, -1, 0);
}

/*
 * A busy task's clock samples: about one per period of its counted time
 * (a timer interrupt may come late, never early), each with the period,
 * the task, and the spinning code's ip in ring 3 for nearly all; two
 * samples less than 0.8 ms apart show the period is kept below the 1 ms
 * tick. A loaded host bends the timing ones: a vCPU run in slices shorter
 * than a period takes one late interrupt per slice (a CI run: 5 samples
 * 5 ms apart in 25 ms); one full parallel run had 15 of 50 samples in
 * the kernel (not explained; 88-97% in ring 3 in runs alone). So a run
 * that misses is measured again, up to 3 times; a real fault misses each.
 */
static void check_busy(const char *name, uint64_t config, uint64_t period, int freq)
{
	uint64_t step = freq ? 1000000000ull / period : period, ns = 0;
	struct clock_tally t = { 0 };
	unsigned long expect = 0;
	int tries = 0, ok = 0;

	while (!ok && tries < 3) {
		struct ring r;
		int fd = open_clock(config, 0, -1, period, freq);

		if (fd < 0 || ring_map(&r, fd, 16, PROT_READ | PROT_WRITE)) {
			report(0, name, "open errno %d", errno);
			return;
		}
		tries++;
		memset(&t, 0, sizeof(t));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		spin_for(fd, 100 * step);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ns = read_count(fd);
		clock_drain(&r, &t, step);
		expect = (unsigned long)(ns / step);
		ring_unmap(&r);
		close(fd);
		ok = t.samples >= 2 && t.samples <= expect + 1 && !t.bad_period &&
		     t.min_gap < 800000 &&
		     t.own_tid == t.samples && t.in_text >= t.samples * 8 / 10 &&
		     t.user >= t.in_text && !t.other;
	}
	report(ok, name,
	       "count=%llu samples=%lu periods=%lu period=%llu min_gap=%llu user=%lu in_text=%lu tries=%d",
	       (unsigned long long)ns, t.samples, expect, (unsigned long long)t.period,
	       (unsigned long long)t.min_gap, t.user, t.in_text, tries);
}

/*
 * A per-task clock is still while its task sleeps: it counts the calls
 * around the sleep, far below the 30 ms asleep. (Under a loaded host a
 * stalled vCPU lengthens those calls: a CI run counted 5.5 ms, so the bound
 * is half the sleep, which a clock running through it could not meet.)
 */
static void check_sleeping(void)
{
	struct clock_tally t = { 0 };
	struct ring r;
	int fd = open_clock(PERF_COUNT_SW_CPU_CLOCK, 0, -1, 200000, 0);

	if (fd < 0 || ring_map(&r, fd, 4, PROT_READ | PROT_WRITE)) {
		report(0, "cpu_clock_sleeper", "open errno %d", errno);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(30000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	clock_drain(&r, &t, 200000);
	report(t.samples <= 3 && read_count(fd) < 15000000, "cpu_clock_sleeper",
	       "samples=%lu count=%llu (30 ms asleep)", t.samples,
	       (unsigned long long)read_count(fd));
	ring_unmap(&r);
	close(fd);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A per-CPU clock samples whatever runs there, idle included, for the whole time. */
static void check_per_cpu(void)
{
	struct clock_tally t = { 0 };
	struct ring r;
	int fd = open_clock(PERF_COUNT_SW_CPU_CLOCK, -1, 0, 1000000, 0);
	uint64_t t0, wall;
	unsigned long expect;

	if (fd < 0 || ring_map(&r, fd, 16, PROT_READ | PROT_WRITE)) {
		report(0, "cpu_clock_per_cpu", "open errno %d", errno);
		return;
	}
	t0 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(50000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	wall = now_ns() - t0;
	clock_drain(&r, &t, 1000000);
	expect = (unsigned long)(wall / 1000000);
	report(t.samples >= 2 && t.samples <= expect + 1 && !t.bad_period && !t.other &&
	       t.min_gap, "cpu_clock_per_cpu",
	       "samples=%lu periods=%lu min_gap=%llu (%llu ns on CPU 0)", t.samples, expect,
	       (unsigned long long)t.min_gap, (unsigned long long)wall);
	ring_unmap(&r);
	close(fd);
}

void check_clock(void)
{
	check_busy("cpu_clock_period", PERF_COUNT_SW_CPU_CLOCK, 250000, 0);
	check_busy("task_clock_freq", PERF_COUNT_SW_TASK_CLOCK, 2000, 1);
	check_sleeping();
	check_per_cpu();
}
