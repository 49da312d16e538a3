/*
 * perf_event_open(2) from ring 3, checked as perf's tools use it. Each
 * check prints "pass NAME DETAIL" or "fail NAME DETAIL"; the boot test
 * tests/boot/perf_events.sh turns them into TAP lines. The workload is
 * getppid(2) (x86_64 number 110), counted through raw_syscalls:sys_enter
 * with the filter "id == 110", so every expected count is exact. The
 * other check files (perf_check.h lists them) add what Linux's perf
 * events do beyond the ring and counting.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "perf_check.h"

int sys_enter_id;

void report(int pass, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s ", pass ? "pass" : "fail", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int perf_open(struct perf_event_attr *attr, int pid, int cpu, int group, unsigned long fl)
{
	return (int)syscall(298, attr, pid, cpu, group, fl);
}

int read_id(const char *path)
{
	FILE *f = fopen(path, "r");
	int id = -1;

	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

int tracefs_write(const char *file, const char *text)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

void getppids(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

void getpids(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getpid);
}

int open_sys_enter(int nr, uint64_t period, uint64_t sample_type, uint64_t read_format,
		   uint64_t flags, int group, int cpu)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
				     .config = (uint64_t)sys_enter_id, .sample_period = period,
				     .sample_type = sample_type, .read_format = read_format,
				     .flags = PERF_ATTR_FLAG_DISABLED | flags, .wakeup_events = 1 };
	int fd = perf_open(&a, 0, cpu, group, PERF_FLAG_FD_CLOEXEC);
	char filter[32];

	snprintf(filter, sizeof(filter), "id == %d", nr);
	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		perror("SET_FILTER");
		close(fd);
		return -1;
	}
	return fd;
}

/* raw_syscalls:sys_enter of getppid only; disabled until enabled. */
static int open_getppid(uint64_t period, uint64_t sample_type, uint64_t read_format,
			uint64_t flags, int group)
{
	return open_sys_enter(NR_getppid, period, sample_type, read_format, flags, group, -1);
}

static void check_counting(void)
{
	uint64_t v[5] = { 0 }, id = 0;
	int fd = open_getppid(0, 0, PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			      PERF_FORMAT_ID | PERF_FORMAT_LOST, 0, -1);
	ssize_t n;

	if (fd < 0) {
		report(0, "count_open", "errno %d", errno);
		return;
	}
	report(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "id == 1") == -1 && errno == EEXIST,
	       "second_filter_eexist", "errno %d", errno);
	getppids(10);	/* disabled: not counted */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	getppids(10);
	ioctl(fd, PERF_EVENT_IOC_ID, &id);
	n = read(fd, v, sizeof(v));
	report(n == 40 && v[0] == 1000, "count_exact", "n=%zd value=%llu", n,
	       (unsigned long long)v[0]);
	report(v[1] > 0 && v[1] == v[2], "count_times", "enabled=%llu running=%llu",
	       (unsigned long long)v[1], (unsigned long long)v[2]);
	report(v[3] == id && id > 0 && v[4] == 0, "count_id_lost", "id=%llu ioc=%llu lost=%llu",
	       (unsigned long long)v[3], (unsigned long long)id, (unsigned long long)v[4]);
	report(read(fd, v, 39) == -1 && errno == ENOSPC, "read_short_enospc", "errno %d", errno);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	n = read(fd, v, sizeof(v));
	report(v[0] == 0, "reset", "value=%llu", (unsigned long long)v[0]);
	close(fd);
}

static void check_group(void)
{
	uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .read_format = fmt };
	uint64_t v[16] = { 0 }, id0 = 0, id1 = 0;
	int leader = open_getppid(0, 0, fmt, 0, -1);
	int sib = perf_open(&a, 0, -1, leader, 0);
	ssize_t n;

	if (leader < 0 || sib < 0) {
		report(0, "group_open", "errno %d", errno);
		return;
	}
	ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	getppids(500);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ioctl(leader, PERF_EVENT_IOC_ID, &id0);
	ioctl(sib, PERF_EVENT_IOC_ID, &id1);
	n = read(sib, v, sizeof(v));
	/* nr, enabled, {value, id} x 2 */
	report(n == 48 && v[0] == 2 && v[2] == 500 && v[3] == id0 && v[5] == id1 && v[4] > 0,
	       "group_read", "n=%zd nr=%llu leader=%llu task_clock=%llu", n,
	       (unsigned long long)v[0], (unsigned long long)v[2], (unsigned long long)v[4]);
	close(sib);
	close(leader);
}

int ring_map(struct ring *r, int fd, int data_pages, int prot)
{
	r->len = (size_t)(1 + data_pages) * 4096;
	r->pg = mmap(NULL, r->len, prot, MAP_SHARED, fd, 0);
	if (r->pg == MAP_FAILED)
		return -1;
	r->data = (unsigned char *)r->pg + r->pg->data_offset;
	r->size = r->pg->data_size;
	r->tail = r->pg->data_tail;
	return 0;
}

void ring_unmap(struct ring *r)
{
	munmap(r->pg, r->len);
}

int ring_next(struct ring *r, void *rec, size_t max)
{
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header h;

	if (r->tail >= head)
		return 0;
	for (size_t i = 0; i < sizeof(h); i++)
		((unsigned char *)&h)[i] = r->data[(r->tail + i) & (r->size - 1)];
	if (h.size < sizeof(h) || h.size > max || r->tail + h.size > head)
		return -1;
	for (size_t i = 0; i < h.size; i++)
		((unsigned char *)rec)[i] = r->data[(r->tail + i) & (r->size - 1)];
	r->tail += h.size;
	__atomic_store_n(&r->pg->data_tail, r->tail, __ATOMIC_RELEASE);
	return 1;
}

void kernel_symbol(uint64_t addr, char *buf, size_t size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a, best = 0;
	char line[256], name[128];

	snprintf(buf, size, "?");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*c %127s", &a, name) == 2 && a <= addr && a >= best) {
			best = a;
			snprintf(buf, size, "%s", name);
		}
	if (f)
		fclose(f);
}

struct tally {
	unsigned long samples, lost, bad;
	uint64_t last_time;
};

/* IP TID TIME ID CPU PERIOD RAW: the raw record starts at byte 60 */
static void sample_check(const unsigned char *rec, struct tally *t, int pid)
{
	const struct perf_event_header *h = (const void *)rec;
	uint64_t lost, time;
	uint32_t tid_pid[2], raw_size;
	uint16_t common_type;
	int64_t id;

	if (h->type == PERF_RECORD_LOST) {
		memcpy(&lost, rec + 16, 8);
		t->lost += lost;
		return;
	}
	memcpy(tid_pid, rec + 16, 8);
	memcpy(&time, rec + 24, 8);
	memcpy(&raw_size, rec + 56, 4);
	memcpy(&common_type, rec + 60, 2);
	memcpy(&id, rec + 68, 8);	/* sys_enter's id field, after the 8 common bytes */
	if (h->type != PERF_RECORD_SAMPLE || (int)tid_pid[0] != pid || common_type != sys_enter_id ||
	    id != NR_getppid || time < t->last_time || (4 + raw_size) % 8)
		t->bad++;
	t->last_time = time;
	t->samples++;
}

static void ring_drain(struct ring *r, struct tally *t)
{
	unsigned char rec[1024];
	int got;

	while ((got = ring_next(r, rec, sizeof(rec))) > 0)
		sample_check(rec, t, getpid());
	t->bad += got < 0;
}

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

static void check_sampling(void)
{
	struct tally t = { 0 };
	struct ring r;
	struct pollfd pfd;
	int fd = open_getppid(1, ST, 0, 0, -1);

	if (fd < 0 || ring_map(&r, fd, 8, PROT_READ | PROT_WRITE)) {
		report(0, "sample_open", "errno %d", errno);
		return;
	}
	report(r.pg->data_offset == 4096 && r.size == 8 * 4096, "mmap_page",
	       "data_offset=%llu data_size=%llu", (unsigned long long)r.pg->data_offset,
	       (unsigned long long)r.size);
	pfd.fd = fd;
	pfd.events = POLLIN;
	report(poll(&pfd, 1, 0) == 0, "poll_empty", "revents=%d", pfd.revents);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(100);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	report(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN), "poll_wakeup_events",
	       "revents=%d", pfd.revents);
	ring_drain(&r, &t);
	report(t.samples == 100 && !t.bad && !t.lost, "samples_exact", "samples=%lu bad=%lu lost=%lu",
	       t.samples, t.bad, t.lost);
	report(r.pg->data_head == 100 * 128, "sample_size_128",
	       "head=%llu", (unsigned long long)r.pg->data_head);
	ring_unmap(&r);
	close(fd);
}

static void check_lost(void)
{
	struct tally t = { 0 };
	struct ring r;
	uint64_t v[2];
	int fd = open_getppid(1, ST, PERF_FORMAT_LOST, 0, -1);

	if (fd < 0 || ring_map(&r, fd, 1, PROT_READ | PROT_WRITE)) {
		report(0, "lost_open", "errno %d", errno);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int round = 0; round < 10; round++) {
		getppids(100);		/* 31 fit in a page: the rest are lost */
		ring_drain(&r, &t);
	}
	getppids(1);			/* room again: the last losses are reported */
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_drain(&r, &t);
	read(fd, v, sizeof(v));
	report(t.samples + t.lost == 1001 && !t.bad && t.lost > 0, "samples_plus_lost",
	       "samples=%lu lost=%lu bad=%lu", t.samples, t.lost, t.bad);
	report(v[1] == t.lost, "format_lost", "read lost=%llu records=%lu",
	       (unsigned long long)v[1], t.lost);
	/* PAUSE_OUTPUT: everything is lost while paused */
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(5);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	getppids(1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	memset(&t, 0, sizeof(t));
	ring_drain(&r, &t);
	report(t.samples == 1 && t.lost == 5, "pause_output", "samples=%lu lost=%lu", t.samples,
	       t.lost);
	ring_unmap(&r);
	close(fd);
}

static void check_overwrite(void)
{
	struct ring r;
	uint64_t pos, end, prev = ~0ull;
	unsigned n = 0, bad = 0;
	int fd = open_getppid(1, ST, 0, PERF_ATTR_FLAG_WRITE_BACKWARD, -1);

	if (fd < 0 || ring_map(&r, fd, 2, PROT_READ)) {
		report(0, "overwrite_open", "errno %d", errno);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(1000);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	pos = r.pg->data_head;
	end = pos + r.size;
	while (pos < end) {
		struct perf_event_header h;
		uint64_t time;

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = r.data[(pos + i) & (r.size - 1)];
		if (!h.size || pos + h.size > end)
			break;
		for (size_t i = 0; i < 8; i++)
			((unsigned char *)&time)[i] = r.data[(pos + 24 + i) & (r.size - 1)];
		bad += h.type != PERF_RECORD_SAMPLE || time > prev;
		prev = time;
		pos += h.size;
		n++;
	}
	report(n == 8192 / 128 && !bad, "overwrite_backward_newest",
	       "records=%u bad=%u head=%lld", n, bad, (long long)r.pg->data_head);
	ring_unmap(&r);
	close(fd);
}

static void check_refresh_period(void)
{
	struct tally t = { 0 };
	struct ring r;
	int fd = open_getppid(1, ST & ~(uint64_t)PERF_SAMPLE_PERIOD, 0, 0, -1);
	uint64_t period = 10;

	if (fd < 0 || ring_map(&r, fd, 8, PROT_READ | PROT_WRITE)) {
		report(0, "refresh_open", "errno %d", errno);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_REFRESH, 5);
	getppids(20);
	ring_drain(&r, &t);
	report(t.samples == 5, "refresh_5", "samples=%lu", t.samples);
	memset(&t, 0, sizeof(t));
	report(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period) == 0, "period_ioctl", "errno %d", errno);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	getppids(1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_drain(&r, &t);
	report(t.samples == 100, "period_10", "samples=%lu", t.samples);
	ring_unmap(&r);
	close(fd);
}

static void check_software(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_PAGE_FAULTS };
	uint64_t v = 0;
	int fd = perf_open(&a, 0, -1, -1, 0);
	char *p = mmap(NULL, 100 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	for (int i = 0; i < 100; i++)
		p[i * 4096] = 1;
	read(fd, &v, sizeof(v));
	report(fd >= 0 && v >= 100 && v < 120, "page_faults", "count=%llu", (unsigned long long)v);
	close(fd);
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	fd = perf_open(&a, 0, -1, -1, 0);
	for (int i = 0; i < 20; i++)
		usleep(1000);
	read(fd, &v, sizeof(v));
	report(fd >= 0 && v >= 20, "context_switches", "count=%llu", (unsigned long long)v);
	close(fd);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = perf_open(&a, 0, -1, -1, 0);
	for (volatile int i = 0; i < 1000000; i++)
		;
	read(fd, &v, sizeof(v));
	report(fd >= 0 && v > 100000, "task_clock", "ns=%llu", (unsigned long long)v);
	close(fd);
	a.config = 77;
	report(perf_open(&a, 0, -1, -1, 0) == -1 && errno == ENOENT, "bad_sw_config", "errno %d",
	       errno);
	a.type = PERF_TYPE_HARDWARE;
	a.config = 0;
	report(perf_open(&a, 0, -1, -1, 0) == -1 && errno == ENOENT, "no_hardware_pmu", "errno %d",
	       errno);
	a.type = PERF_TYPE_SOFTWARE;
	report(perf_open(&a, -1, -1, -1, 0) == -1 && errno == EINVAL, "pid_cpu_both_minus1",
	       "errno %d", errno);
}

/* inherit: a child's hits count for the parent's event. */
static void check_inherit(void)
{
	uint64_t v = 0;
	int fd = open_getppid(0, 0, 0, PERF_ATTR_FLAG_INHERIT, -1);
	pid_t pid;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pid = fork();
	if (pid == 0) {
		getppids(300);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	getppids(7);
	read(fd, &v, sizeof(v));
	report(v == 307, "inherit_child_counts", "count=%llu", (unsigned long long)v);
	close(fd);
}

static unsigned long mem_free_kb(void)
{
	char line[128];
	unsigned long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void check_cycles(int n)
{
	unsigned long before, after;
	int fails = 0;

	/* warm up allocator caches first so they do not look like a leak */
	for (int i = 0; i < 2; i++) {
		int fd = open_getppid(1, ST, 0, 0, -1);
		struct ring r;

		ring_map(&r, fd, 1, PROT_READ | PROT_WRITE);
		ring_unmap(&r);
		close(fd);
	}
	before = mem_free_kb();
	for (int i = 0; i < n; i++) {
		int fd = open_getppid(1, ST, 0, 0, -1);
		struct ring r;

		if (fd < 0 || ring_map(&r, fd, 1, PROT_READ | PROT_WRITE)) {
			fails++;
			continue;
		}
		ring_unmap(&r);
		close(fd);
	}
	after = mem_free_kb();
	report(!fails && after + 64 >= before, "open_mmap_close_cycles",
	       "n=%d fails=%d memfree_before=%lu after=%lu", n, fails, before, after);
}

int main(int argc, char **argv)
{
	sys_enter_id = read_id("/sys/kernel/tracing/events/raw_syscalls/sys_enter/id");
	if (sys_enter_id < 0) {
		report(0, "event_id", "no raw_syscalls/sys_enter/id");
		return 1;
	}
	/* "count N": N getppid calls counted per task, printed for a hist trigger to compare */
	if (argc > 2 && !strcmp(argv[1], "count")) {
		uint64_t v = 0;
		int fd = open_getppid(0, 0, 0, 0, -1);

		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		getppids(atoi(argv[2]));
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		read(fd, &v, sizeof(v));
		printf("%llu\n", (unsigned long long)v);
		return 0;
	}
	check_counting();
	check_group();
	check_sampling();
	check_lost();
	check_overwrite();
	check_refresh_period();
	check_software();
	check_inherit();
	check_clock();
	check_tracepoints();
	check_inherit_groups();
	check_cycles(argc > 1 ? atoi(argv[1]) : 10000);
	return 0;
}
