/*
 * perf stat -e EVENT[,..] [-a] -- CMD: count the events while CMD runs
 * and print them as perf stat does (on stderr). Per task: one fd per
 * event on the workload, inherited by its children and enabled at its
 * exec. With -a: one fd per event per CPU for everything that runs,
 * summed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "perf.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool is_clock(const struct evsel *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE && (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
						       ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

static void print_counts(char **cmd, bool all, const struct evsel *evs, unsigned int nr,
			 const uint64_t *sum, uint64_t elapsed)
{
	fprintf(stderr, "\n Performance counter stats for ");
	if (all) {
		fprintf(stderr, "'system wide'");
	} else {
		fprintf(stderr, "'");
		for (char **a = cmd; *a; a++)
			fprintf(stderr, "%s%s", a == cmd ? "" : " ", *a);
		fprintf(stderr, "'");
	}
	fprintf(stderr, ":\n\n");
	for (unsigned int i = 0; i < nr; i++) {
		if (is_clock(&evs[i]))
			fprintf(stderr, "%18.2f msec %-30s #  %6.3f CPUs utilized\n",
				(double)sum[i] / 1e6, evs[i].name,
				elapsed ? (double)sum[i] / (double)elapsed : 0.0);
		else
			fprintf(stderr, "%18llu      %s\n", (unsigned long long)sum[i],
				evs[i].name);
	}
	fprintf(stderr, "\n%17.9f seconds time elapsed\n\n", (double)elapsed / 1e9);
}

int cmd_stat(int argc, char **argv)
{
	struct evsel *evs = NULL;
	unsigned int nr = 0, cpus = 1;
	struct workload w;
	uint64_t *sum;
	bool all = false;
	uint64_t t0, t1;
	int c, status, *fds;

	optind = 1;
	while ((c = getopt(argc, argv, "+e:a")) != -1) {
		if (c == 'e' && evsel_parse_list(optarg, &evs, &nr))
			return 129;
		if (c == 'a')
			all = true;
		if (c == '?') {
			fprintf(stderr, "usage: perf stat -e EVENT[,..] [-a] -- CMD [ARGS]\n");
			return 129;
		}
	}
	if (optind >= argc || !nr) {
		fprintf(stderr, "perf stat: %s\n", nr ? "no command to run" : "no event (-e)");
		return 129;
	}
	if (all)
		cpus = online_cpus();
	fds = calloc((size_t)nr * cpus, sizeof(*fds));
	sum = calloc(nr, sizeof(*sum));
	if (!fds || !sum || workload_prepare(&w, argv + optind))
		return 1;
	for (unsigned int i = 0; i < nr; i++) {
		struct perf_event_attr a = evs[i].attr;

		if (!all)
			a.flags |= PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_ENABLE_ON_EXEC |
				   PERF_ATTR_FLAG_INHERIT;
		for (unsigned int cpu = 0; cpu < cpus; cpu++) {
			int fd = perf_open(&a, all ? -1 : w.pid, all ? (int)cpu : -1, -1,
					   PERF_FLAG_FD_CLOEXEC);

			if (fd < 0) {
				fprintf(stderr, "perf stat: %s: perf_event_open: %m\n", evs[i].name);
				workload_wait(&w);
				return 1;
			}
			fds[i * cpus + cpu] = fd;
		}
	}
	t0 = now_ns();
	workload_start(&w);
	status = workload_wait(&w);
	t1 = now_ns();
	for (unsigned int i = 0; i < nr; i++) {
		for (unsigned int cpu = 0; cpu < cpus; cpu++) {
			uint64_t v;

			if (all)
				ioctl(fds[i * cpus + cpu], PERF_EVENT_IOC_DISABLE, 0);
			if (read(fds[i * cpus + cpu], &v, sizeof(v)) != sizeof(v)) {
				fprintf(stderr, "perf stat: %s: read: %m\n", evs[i].name);
				return 1;
			}
			sum[i] += v;
			close(fds[i * cpus + cpu]);
		}
	}
	print_counts(argv + optind, all, evs, nr, sum, t1 - t0);
	free(fds);
	free(sum);
	free(evs);
	return status;
}
