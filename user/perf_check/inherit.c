/*
 * What children inherit, and cpu-migrations. An inherited group stays a
 * group in the child: reading the parent's group sums each member's
 * children, and a child's PERF_SAMPLE_READ carries its own group's
 * values. cpu-migrations counts a task starting to run on another CPU
 * than before, for per-CPU events too.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "perf_check.h"

#define MAX_CPUS	64
#define GROUP_FMT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* A child makes 200 getpid then n getppid calls. */
static pid_t child_work(int n)
{
	pid_t pid = fork();

	if (pid == 0) {
		getpids(200);
		getppids(n);
		_exit(0);
	}
	return pid;
}

/* leader: getppid, sibling: getpid; the parent's group read sums the child's. */
static void check_group_read(void)
{
	int leader = open_sys_enter(NR_getppid, 0, 0, GROUP_FMT, PERF_ATTR_FLAG_INHERIT, -1, -1);
	int sib = open_sys_enter(NR_getpid, 0, 0, GROUP_FMT, PERF_ATTR_FLAG_INHERIT, leader, -1);
	uint64_t v[8] = { 0 }, id0 = 0, id1 = 0;

	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	getpids(5);
	waitpid(child_work(300), NULL, 0);
	getppids(7);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ioctl(leader, PERF_EVENT_IOC_ID, &id0);
	ioctl(sib, PERF_EVENT_IOC_ID, &id1);
	read(leader, v, sizeof(v));
	report(v[0] == 2 && v[1] == 307 && v[2] == id0 && v[3] == 205 && v[4] == id1,
	       "inherit_group_read", "nr=%llu leader=%llu sibling=%llu",
	       (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[3]);
	close(sib);
	close(leader);
}

/* Linux maps no inherited event that follows its task on every CPU. */
static void check_inherit_mmap(void)
{
	int fd = open_sys_enter(NR_getppid, 1, PERF_SAMPLE_TID, 0, PERF_ATTR_FLAG_INHERIT, -1, -1);
	void *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	report(fd >= 0 && p == MAP_FAILED && errno == EINVAL, "inherit_mmap_any_cpu_einval",
	       "errno %d", errno);
	if (p != MAP_FAILED)
		munmap(p, 2 * 4096);
	close(fd);
}

/*
 * The leader samples every 100 getppid with READ. Linux maps inherited
 * events per CPU only (EINVAL with cpu -1), so the group is opened on
 * every CPU: each sample reads the group of the task and CPU it came
 * from, the event's own counts (a multiple of 100 for the leader; the
 * child's getpid calls are at most 200, the parent's 5), not the sums
 * the parent's read(2) gives.
 */
static void check_group_sample_read(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int leader[MAX_CPUS], sib[MAX_CPUS];
	struct ring r[MAX_CPUS];
	unsigned long child = 0, parent = 0, bad = 0;
	uint64_t rec[16], worst[2] = { 0 };
	pid_t pid;

	if (cpus > MAX_CPUS)
		cpus = MAX_CPUS;
	for (int c = 0; c < cpus; c++) {
		leader[c] = open_sys_enter(NR_getppid, 100, PERF_SAMPLE_TID | PERF_SAMPLE_READ,
					   GROUP_FMT, PERF_ATTR_FLAG_INHERIT, -1, c);
		sib[c] = open_sys_enter(NR_getpid, 0, 0, GROUP_FMT, PERF_ATTR_FLAG_INHERIT,
					leader[c], c);
		if (leader[c] < 0 || sib[c] < 0 || ring_map(&r[c], leader[c], 4, PROT_READ | PROT_WRITE)) {
			report(0, "inherit_group_sample_read", "open errno %d", errno);
			return;
		}
	}
	for (int c = 0; c < cpus; c++)
		ioctl(leader[c], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	getpids(5);
	pid = child_work(400);
	waitpid(pid, NULL, 0);
	getppids(400);
	for (int c = 0; c < cpus; c++)
		ioctl(leader[c], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (int c = 0; c < cpus; c++) {
		while (ring_next(&r[c], rec, sizeof(rec)) > 0) {
			/* header, pid/tid, nr, leader value, id, sibling value, id */
			int is_child = (uint32_t)(rec[1] >> 32) == (uint32_t)pid;

			if ((rec[0] & 0xffffffff) != PERF_RECORD_SAMPLE)
				continue;
			child += is_child;
			parent += !is_child;
			if (rec[5] > worst[is_child])
				worst[is_child] = rec[5];
			bad += rec[2] != 2 || !rec[3] || rec[3] % 100 || rec[5] > (is_child ? 200u : 5u);
		}
		ring_unmap(&r[c]);
		close(sib[c]);
		close(leader[c]);
	}
	report(child && parent && !bad, "inherit_group_sample_read",
	       "child_samples=%lu parent_samples=%lu bad=%lu sibling_max=%llu,%llu", child, parent,
	       bad, (unsigned long long)worst[1], (unsigned long long)worst[0]);
}

/* Children that sleep and wake on every CPU get migrated; each migration counts once. */
static void check_migrations(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_MIGRATIONS };
	int fds[MAX_CPUS], tfds[MAX_CPUS], id = read_id(TRACEFS "/events/sched/sched_migrate_task/id");
	uint64_t sum = 0, tp_sum = 0, v;

	if (cpus > MAX_CPUS)
		cpus = MAX_CPUS;
	for (int c = 0; c < cpus; c++) {
		struct perf_event_attr t = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(t),
					     .config = (uint64_t)id };

		fds[c] = perf_open(&a, -1, c, -1, 0);
		tfds[c] = perf_open(&t, -1, c, -1, 0);
	}
	for (int i = 0; i < 4; i++)
		if (fork() == 0) {
			for (int k = 0; k < 40; k++) {
				for (volatile int j = 0; j < 20000; j++)
					;
				usleep(500);
			}
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	for (int c = 0; c < cpus; c++) {
		ioctl(fds[c], PERF_EVENT_IOC_DISABLE, 0);
		ioctl(tfds[c], PERF_EVENT_IOC_DISABLE, 0);
	}
	for (int c = 0; c < cpus; c++) {
		if (fds[c] >= 0 && read(fds[c], &v, sizeof(v)) == sizeof(v))
			sum += v;
		if (tfds[c] >= 0 && read(tfds[c], &v, sizeof(v)) == sizeof(v))
			tp_sum += v;
		close(fds[c]);
		close(tfds[c]);
	}
	/* a task migrated at the very end may not have run yet on its new CPU */
	report(cpus < 2 || (sum > 0 && sum <= tp_sum && sum + 8 >= tp_sum), "cpu_migrations_per_cpu",
	       "cpus=%ld migrations=%llu sched_migrate_task=%llu", cpus, (unsigned long long)sum,
	       (unsigned long long)tp_sum);
}

void check_inherit_groups(void)
{
	check_group_read();
	check_inherit_mmap();
	check_group_sample_read();
	check_migrations();
}
