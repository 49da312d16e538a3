/* perf: the command line (user/perf/perf.h lists the pieces). */
#define _GNU_SOURCE	/* cpu_set_t, sched_getaffinity */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "perf.h"

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return (int)syscall(298, attr, pid, cpu, group, flags);
}

/* CPUs 0..n-1 exist: the affinity mask of a task nobody pinned covers them all. */
unsigned int online_cpus(void)
{
	cpu_set_t set;
	unsigned int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	for (unsigned int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			n = c + 1;
	return n ? n : 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: perf stat -e EVENT[,..] [-a] -- CMD [ARGS]\n"
		"       perf record -e EVENT[,..] [-a] [-c N | -F HZ] [-g] [-m PAGES] [-o FILE] -- CMD [ARGS]\n"
		"       perf script [-i FILE]\n"
		"EVENT: SYSTEM:NAME (a tracepoint), cpu-clock, task-clock, page-faults,\n"
		"       context-switches, cpu-migrations\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return 129;
	}
	if (!strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1);
	if (!strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "script"))
		return cmd_script(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") && strcmp(argv[1], "-h"))
		fprintf(stderr, "perf: '%s' is not a perf command\n", argv[1]);
	usage();
	return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 129 : 0;
}
