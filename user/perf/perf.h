/*
 * perf for Spoor: a small, musl-static take on Linux's perf tool with the
 * three commands a tracing session needs in the guest. `stat` counts,
 * `record` samples into the mmap rings and writes a perf.data that
 * Debian's perf reads, `script` prints one. The pieces:
 *   perf.c          the command line: which subcommand
 *   perf_evsel.c    event names ("sched:sched_switch", "task-clock") -> attrs
 *   perf_workload.c the command after "--": forked, held until the events are open
 *   perf_stat.c     perf stat
 *   perf_record.c   perf record: rings -> data section
 *   perf_data.c     the perf.data layout (writer and reader)
 *   perf_script.c   perf script
 */
#ifndef USER_PERF_H
#define USER_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "../../trace/perf_event_abi.h"

#define TRACEFS		"/sys/kernel/tracing"

/* One event of -e: its attr (type, config) and the name perf would print. */
struct evsel {
	struct perf_event_attr attr;
	char name[128];
};

/* Parse "a,b,c" (tracepoints sys:name, software names) into *out; -1 with a message. */
int evsel_parse_list(const char *list, struct evsel **out, unsigned int *nr);

/* The command after "--": forked and stopped before exec until workload_start. */
struct workload {
	pid_t pid;
	int go_fd;		/* write end of the pipe the child waits on */
};

int workload_prepare(struct workload *w, char **argv);
/* Let the child exec. */
void workload_start(struct workload *w);
/* Wait for it; the exit status as a shell reports it. */
int workload_wait(struct workload *w);

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags);
unsigned int online_cpus(void);

int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_script(int argc, char **argv);

#endif
