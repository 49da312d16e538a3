/*
 * perf record -e EVENT[,..] [-a] [-c N | -F HZ] [-g] [-m PAGES] [-o FILE]
 * -- CMD: sample the events into one mmap ring per CPU (the other events
 * of a CPU join the first one's ring with SET_OUTPUT) while CMD runs,
 * copy what the rings publish into the data section of a perf.data, and
 * finish it with the kernel's tracing data (/sys/kernel/debug/tracing_data)
 * so perf script can decode the tracepoint records. As perf record does:
 * per task, the events follow the workload and its children from its
 * exec; with -a they see every task, and COMM records for the tasks that
 * already exist are written first so samples get names.
 */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "perf.h"
#include "perf_data.h"

#define TRACING_DATA	"/sys/kernel/debug/tracing_data"
#define PAGE_SIZE	4096

/* One CPU's ring: the fd it was mapped from, the mapping, how far it is read. */
struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	size_t len;
};

struct record {
	struct evsel *evs;
	unsigned int nr_evs, cpus, pages;
	bool all, callchain;
	uint64_t period, freq;
	int *fds;			/* [ev * cpus + cpu] */
	struct ring *rings;		/* [cpu] */
	struct perf_data_attr *attrs;
	struct perf_data_writer w;
	int out;
};

static int to_fd(void *ctx, uint64_t off, const void *buf, size_t len)
{
	return pwrite(*(int *)ctx, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Copy what the ring published to the data section and hand the space back. */
static int drain(struct record *r, struct ring *rg)
{
	uint64_t size = rg->pg->data_size, head, tail = rg->pg->data_tail;
	const uint8_t *data = (const uint8_t *)rg->pg + rg->pg->data_offset;

	head = __atomic_load_n(&rg->pg->data_head, __ATOMIC_ACQUIRE);
	/* The records are a byte stream: copied in at most two pieces, they stay whole. */
	while (tail != head) {
		uint64_t at = tail & (size - 1), n = head - tail;

		if (n > size - at)
			n = size - at;
		if (perf_data_add(&r->w, data + at, (size_t)n))
			return -1;
		tail += n;
	}
	__atomic_store_n(&rg->pg->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

static void setup_attr(struct record *r, unsigned int i, struct perf_event_attr *a)
{
	*a = r->evs[i].attr;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (r->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->flags |= PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	/* A tracepoint's default is every hit, a clock's 4000 samples a second, as perf's. */
	if (r->freq || (!r->period && a->type != PERF_TYPE_TRACEPOINT)) {
		a->flags |= PERF_ATTR_FLAG_FREQ;
		a->sample_freq = r->freq ? r->freq : 4000;
	} else {
		a->sample_period = r->period ? r->period : 1;
	}
	if (!i)
		a->flags |= PERF_ATTR_FLAG_COMM | PERF_ATTR_FLAG_TASK;	/* names and forks, once */
	if (!r->all)
		a->flags |= PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_ENABLE_ON_EXEC |
			    PERF_ATTR_FLAG_INHERIT;
}

static int open_events(struct record *r, pid_t pid)
{
	for (unsigned int i = 0; i < r->nr_evs; i++) {
		struct perf_data_attr *pa = &r->attrs[i];

		setup_attr(r, i, &pa->attr);
		pa->ids = calloc(r->cpus, sizeof(*pa->ids));
		if (!pa->ids)
			return -1;
		for (unsigned int cpu = 0; cpu < r->cpus; cpu++) {
			int fd = perf_open(&pa->attr, pid, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
			struct ring *rg = &r->rings[cpu];

			if (fd < 0) {
				fprintf(stderr, "perf record: %s on CPU %u: perf_event_open: %m\n",
					r->evs[i].name, cpu);
				return -1;
			}
			r->fds[i * r->cpus + cpu] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &pa->ids[pa->nr_ids++])) {
				perror("perf record: PERF_EVENT_IOC_ID");
				return -1;
			}
			if (i) {
				if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rg->fd)) {
					perror("perf record: PERF_EVENT_IOC_SET_OUTPUT");
					return -1;
				}
				continue;
			}
			rg->fd = fd;
			rg->len = (1 + (size_t)r->pages) * PAGE_SIZE;
			rg->pg = mmap(NULL, rg->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (rg->pg == MAP_FAILED) {
				fprintf(stderr, "perf record: mmap of %u pages: %m\n", r->pages);
				return -1;
			}
		}
	}
	return 0;
}

/* The sample_id_all trailer of a synthesized record, for the first event's sample_type. */
static size_t sample_id(const struct record *r, uint32_t pid, uint8_t *p)
{
	uint64_t v[4];
	size_t n = 0;

	v[n++] = pid | (uint64_t)pid << 32;	/* TID */
	v[n++] = 0;				/* TIME: before everything */
	v[n++] = 0;				/* CPU */
	v[n++] = r->attrs[0].ids[0];		/* IDENTIFIER */
	memcpy(p, v, n * 8);
	return n * 8;
}

/* PERF_RECORD_COMM for every task in /proc, as perf synthesizes them for -a. */
static void synthesize_comms(struct record *r)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[64], comm[32] = "";
		uint8_t rec[128];
		struct perf_event_header *h = (void *)rec;
		uint32_t pid = (uint32_t)atoi(e->d_name), ids[2] = { pid, pid };
		size_t len;
		FILE *f;

		if (!pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%u/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm) - 1, f))
			comm[0] = 0;
		fclose(f);
		comm[strcspn(comm, "\n")] = 0;
		memcpy(rec + 8, ids, 8);
		len = strlen(comm) + 1;
		memset(rec + 16, 0, (len + 7) & ~7ul);
		memcpy(rec + 16, comm, len);
		len = 16 + ((len + 7) & ~7ul);
		len += sample_id(r, pid, rec + len);
		*h = (struct perf_event_header){ PERF_RECORD_COMM, 0, (uint16_t)len };
		perf_data_add(&r->w, rec, len);
	}
	closedir(d);
}

/* The kernel's tracing data, whole; NULL (with a message) if it cannot be read. */
static char *read_tracing_data(size_t *len)
{
	int fd = open(TRACING_DATA, O_RDONLY);
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	*len = 0;
	while (fd >= 0 && buf && (n = read(fd, buf + *len, cap - *len)) > 0) {
		*len += (size_t)n;
		if (*len == cap) {
			char *g = realloc(buf, cap *= 2);

			if (!g)
				break;
			buf = g;
		}
	}
	if (fd < 0 || !buf || !*len) {
		fprintf(stderr, "perf record: %s: %m; the file gets no tracing data, so perf script "
			"cannot decode its tracepoints\n", TRACING_DATA);
		free(buf);
		buf = NULL;
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

static int run(struct record *r, char **cmd)
{
	struct pollfd *pfd = calloc(r->cpus, sizeof(*pfd));
	struct workload w;
	bool done = false;
	int status = 1;

	if (!pfd || workload_prepare(&w, cmd))
		return 1;
	if (open_events(r, r->all ? -1 : w.pid)) {
		workload_wait(&w);
		return 1;
	}
	if (r->all)
		synthesize_comms(r);
	for (unsigned int cpu = 0; cpu < r->cpus; cpu++)
		pfd[cpu] = (struct pollfd){ .fd = r->rings[cpu].fd, .events = POLLIN };
	workload_start(&w);
	while (!done) {
		int st;

		poll(pfd, r->cpus, 20);
		if (waitpid(w.pid, &st, WNOHANG) == w.pid) {
			done = true;
			status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
		/* After the exit, stop the events, then take what is left. */
		for (unsigned int i = 0; done && i < r->nr_evs * r->cpus; i++)
			ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
		for (unsigned int cpu = 0; cpu < r->cpus; cpu++)
			if (drain(r, &r->rings[cpu]))
				done = true;
	}
	free(pfd);
	return status;
}

/* Samples in the finished file, for the closing line perf record prints. */
static uint64_t count_samples(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	struct perf_data_file f;
	struct perf_data_rec rec;
	const char *err;
	uint64_t pos = 0, n = 0;

	if (map == MAP_FAILED)
		return 0;
	if (!perf_data_open(&f, map, (size_t)size, &err)) {
		while (perf_data_next(&f, &pos, &rec, &err))
			n += rec.hdr.type == PERF_RECORD_SAMPLE;
		perf_data_close(&f);
	}
	munmap(map, (size_t)size);
	return n;
}

static int finish(struct record *r, const char *path)
{
	size_t td_len;
	char *td = read_tracing_data(&td_len);
	int ret;

	/* Without it (another kernel) the samples are still worth keeping. */
	ret = perf_data_finish(&r->w, r->attrs, r->nr_evs, td, td ? td_len : 0);
	free(td);
	if (ret) {
		fprintf(stderr, "perf record: %s: write: %m\n", path);
		return -1;
	}
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		(double)lseek(r->out, 0, SEEK_END) / (1 << 20), path,
		(unsigned long long)count_samples(r->out));
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record r = { .pages = 64 };
	const char *path = "perf.data";
	int c, status;

	optind = 1;
	while ((c = getopt(argc, argv, "+e:ac:F:gm:o:")) != -1) {
		switch (c) {
		case 'e':
			if (evsel_parse_list(optarg, &r.evs, &r.nr_evs))
				return 129;
			break;
		case 'a':
			r.all = true;
			break;
		case 'c':
			r.period = strtoull(optarg, NULL, 0);
			break;
		case 'F':
			r.freq = strtoull(optarg, NULL, 0);
			break;
		case 'g':
			r.callchain = true;
			break;
		case 'm':
			r.pages = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'o':
			path = optarg;
			break;
		default:
			fprintf(stderr, "usage: perf record -e EVENT[,..] [-a] [-c N | -F HZ] [-g] "
				"[-m PAGES] [-o FILE] -- CMD [ARGS]\n");
			return 129;
		}
	}
	if (optind >= argc || !r.nr_evs || (r.period && r.freq) || !r.pages ||
	    (r.pages & (r.pages - 1))) {
		fprintf(stderr, "perf record: %s\n", !r.nr_evs ? "no event (-e)" :
			optind >= argc ? "no command to run" : r.pages && !(r.pages & (r.pages - 1)) ?
			"-c and -F exclude each other" : "-m takes a power of two");
		return 129;
	}
	r.cpus = online_cpus();
	r.fds = calloc((size_t)r.nr_evs * r.cpus, sizeof(*r.fds));
	r.rings = calloc(r.cpus, sizeof(*r.rings));
	r.attrs = calloc(r.nr_evs, sizeof(*r.attrs));
	r.out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (r.out < 0) {
		fprintf(stderr, "perf record: %s: %m\n", path);
		return 1;
	}
	if (!r.fds || !r.rings || !r.attrs)
		return 1;
	perf_data_writer_init(&r.w, to_fd, &r.out);
	status = run(&r, argv + optind);
	if (r.w.err)
		fprintf(stderr, "perf record: %s: write: %m\n", path);
	if (r.w.err || finish(&r, path))
		status = status ? status : 1;
	close(r.out);
	return status;
}
