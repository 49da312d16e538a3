/*
 * What the checks of perf_check share: the verdict line, perf_event_open,
 * tracefs ids, the getppid workload, and reading the mmap ring record by
 * record. Each check file (perf_check.c: the ring and counting; clock.c:
 * cpu-clock/task-clock sampling; tracepoints.c: syscalls and synthetic
 * events, callchains; inherit.c: inherited groups, migrations) prints
 * "pass NAME DETAIL" or "fail NAME DETAIL" lines.
 */
#ifndef PERF_CHECK_H
#define PERF_CHECK_H

#include <stdint.h>
#include <stddef.h>
#include "../../trace/perf_event_abi.h"

#define NR_getpid	39
#define NR_getppid	110
#define TRACEFS		"/sys/kernel/tracing"

/* raw_syscalls:sys_enter's id */
extern int sys_enter_id;

void report(int pass, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int perf_open(struct perf_event_attr *attr, int pid, int cpu, int group, unsigned long fl);
/* The first number in a file (an event's id), or -1. */
int read_id(const char *path);
/* Write text to a tracefs file; 0 or -1. */
int tracefs_write(const char *file, const char *text);
void getppids(int n);
void getpids(int n);
/*
 * raw_syscalls:sys_enter of syscall nr only ("id == nr") for this task on
 * cpu (-1: any); disabled until enabled.
 */
int open_sys_enter(int nr, uint64_t period, uint64_t sample_type, uint64_t read_format,
		   uint64_t flags, int group, int cpu);

/* The ring, as perf reads it. */
struct ring {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;
	size_t len;
	uint64_t tail;		/* ring_next's position */
};

int ring_map(struct ring *r, int fd, int data_pages, int prot);
void ring_unmap(struct ring *r);
/*
 * Copy the next published record into rec (at most max bytes) and hand
 * its space back; 1 if there was one, 0 at the end, -1 on a damaged one.
 */
int ring_next(struct ring *r, void *rec, size_t max);
/* The symbol at or below addr in /proc/kallsyms ("?" if none) into buf. */
void kernel_symbol(uint64_t addr, char *buf, size_t size);

void check_clock(void);
void check_tracepoints(void);
void check_inherit_groups(void);

#endif
