/*
 * perf script [-i FILE]: a quick look at a perf.data in the guest. One
 * line per sample in time order, with perf script's default columns
 * (comm, tid, CPU, time, event) and then the tracepoint's fields as
 * name=value, decoded with the event's format from tracefs (the machine
 * that recorded is the one reading); for a counter (cpu-clock, ...) the
 * period before the event and the ip after it, as perf script has them. The host's `spoor report` renders
 * the print fmt, as Linux's perf script does.
 */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "perf.h"
#include "perf_data.h"

/* One field of a format file. */
struct field {
	char name[64];
	unsigned int offset, size;
	bool is_signed, string, data_loc;
};

/* A tracepoint as its format file describes it. */
struct tp {
	int id;
	char name[128];		/* system:event */
	struct field fields[32];
	unsigned int nr_fields;
};

struct comm {
	uint32_t tid;
	char comm[32];
};

/* Fields after the common ones: "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" lines. */
static void parse_format(struct tp *tp, FILE *f)
{
	char line[512];

	while (fgets(line, sizeof(line), f) && tp->nr_fields < 32) {
		struct field *fl = &tp->fields[tp->nr_fields];
		char *decl = strstr(line, "field:"), *semi, *name, *br;
		int sgn = 0;

		if (!decl || !(semi = strchr(decl, ';')))
			continue;
		*semi = 0;
		if (sscanf(semi + 1, " offset:%u; size:%u; signed:%d;", &fl->offset, &fl->size,
			   &sgn) != 3)
			continue;
		name = strrchr(decl, ' ');
		name = name ? name + 1 : decl + 6;
		br = strchr(name, '[');
		fl->string = br && strstr(decl, "char");
		fl->data_loc = strstr(decl, "__data_loc") != NULL;
		if (br)
			*br = 0;
		if (!strncmp(name, "common_", 7))
			continue;
		snprintf(fl->name, sizeof(fl->name), "%s", name);
		fl->is_signed = sgn;
		tp->nr_fields++;
	}
}

/* Find the tracepoint with this id under tracefs; false if none has it. */
static bool load_tp(struct tp *tp, int id)
{
	DIR *sys = opendir(TRACEFS "/events");
	struct dirent *s, *e;
	char path[1024];
	bool found = false;

	memset(tp, 0, sizeof(*tp));
	tp->id = id;
	while (sys && !found && (s = readdir(sys))) {
		DIR *evs;

		snprintf(path, sizeof(path), TRACEFS "/events/%s", s->d_name);
		if (s->d_name[0] == '.' || !(evs = opendir(path)))
			continue;
		while (!found && (e = readdir(evs))) {
			FILE *f;
			int n = -1;

			snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", s->d_name, e->d_name);
			if (e->d_name[0] == '.' || !(f = fopen(path, "r")))
				continue;
			found = fscanf(f, "%d", &n) == 1 && n == id;
			fclose(f);
			if (!found)
				continue;
			snprintf(tp->name, sizeof(tp->name), "%.63s:%.63s", s->d_name, e->d_name);
			snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/format", s->d_name, e->d_name);
			if ((f = fopen(path, "r"))) {
				parse_format(tp, f);
				fclose(f);
			}
		}
		closedir(evs);
	}
	if (sys)
		closedir(sys);
	return found;
}

static void print_field(const struct field *fl, const uint8_t *raw, uint32_t len)
{
	uint64_t v = 0;

	printf(" %s=", fl->name);
	if (fl->data_loc && fl->offset + 4 <= len) {
		uint32_t loc;

		memcpy(&loc, raw + fl->offset, 4);
		if ((loc & 0xffff) + (loc >> 16) <= len)
			printf("%.*s", (int)(loc >> 16), (const char *)raw + (loc & 0xffff));
		return;
	}
	if (fl->offset + fl->size > len)
		return;
	if (fl->string) {
		printf("%.*s", (int)fl->size, (const char *)raw + fl->offset);
		return;
	}
	if (fl->size > 8 || (fl->size & (fl->size - 1))) {
		printf("ARRAY[%u]", fl->size);
		return;
	}
	memcpy(&v, raw + fl->offset, fl->size);
	if (fl->is_signed && fl->size < 8 && (v >> (fl->size * 8 - 1)) & 1)
		v |= ~0ull << (fl->size * 8);
	if (fl->is_signed)
		printf("%lld", (long long)v);
	else
		printf("%llu", (unsigned long long)v);
}

static int by_time(const void *a, const void *b)
{
	const struct perf_sample *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* The latest name of tid (file order: a quick look, not perf's timeline of names). */
static const char *comm_of(const struct comm *c, unsigned int n, uint32_t tid)
{
	for (unsigned int i = n; i--;)
		if (c[i].tid == tid)
			return c[i].comm;
	return tid ? NULL : "swapper";	/* perf's name for the idle tasks */
}

static bool add_comm(struct comm **c, unsigned int *n, uint32_t tid, const char *comm, size_t len)
{
	struct comm *g = realloc(*c, (*n + 1) * sizeof(**c));

	if (!g)
		return false;
	*c = g;
	g[*n].tid = tid;
	snprintf(g[*n].comm, sizeof(g->comm), "%.*s", (int)len, comm);
	(*n)++;
	return true;
}

static void print_sample(const struct perf_sample *s, const struct tp *tps, unsigned int nr_tps,
			 int name_width, const struct comm *comms, unsigned int nr_comms)
{
	const struct tp *tp = NULL;
	const char *comm = comm_of(comms, nr_comms, s->tid);
	bool counter = s->attr->attr.type != PERF_TYPE_TRACEPOINT;
	char unknown[16], name[160];

	for (unsigned int i = 0; !counter && i < nr_tps; i++)
		if (tps[i].id == (int)s->attr->attr.config)
			tp = &tps[i];
	snprintf(unknown, sizeof(unknown), ":%u", s->tid);
	if (counter)
		perf_data_event_name(&s->attr->attr, name, sizeof(name));
	printf("%16s %5u [%03u] %5llu.%06llu: ", comm ? comm : unknown, s->tid, s->cpu,
	       (unsigned long long)(s->time / 1000000000ull),
	       (unsigned long long)(s->time % 1000000000ull / 1000));
	/* perf script's fields: a counter's period and ip, a tracepoint's values */
	if (counter) {
		printf("%10llu %*s:  %16llx\n", (unsigned long long)s->period, name_width, name,
		       (unsigned long long)s->ip);
		return;
	}
	printf("%*s:", name_width, tp ? tp->name : "unknown");
	for (unsigned int i = 0; tp && i < tp->nr_fields; i++)
		print_field(&tp->fields[i], s->raw, s->raw_size);
	printf("\n");
}

int cmd_script(int argc, char **argv)
{
	const char *path = "perf.data", *err = NULL;
	struct perf_data_file f;
	struct perf_data_rec rec;
	struct perf_sample *samples = NULL;
	struct comm *comms = NULL;
	struct tp *tps;
	unsigned int nr = 0, nr_comms = 0, nr_tps = 0;
	uint64_t pos = 0;
	struct stat st;
	void *map;
	int c, fd, width = 0;

	optind = 1;
	while ((c = getopt(argc, argv, "i:")) != -1) {
		if (c != 'i') {
			fprintf(stderr, "usage: perf script [-i FILE]\n");
			return 129;
		}
		path = optarg;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) ||
	    (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "perf script: %s: %m\n", path);
		return 1;
	}
	close(fd);
	if (perf_data_open(&f, map, (size_t)st.st_size, &err)) {
		fprintf(stderr, "perf script: %s: %s\n", path, err);
		return 1;
	}
	tps = calloc(f.nr_attrs, sizeof(*tps));
	for (unsigned int i = 0; tps && i < f.nr_attrs; i++)
		if (f.attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			nr_tps += load_tp(&tps[nr_tps], (int)f.attrs[i].attr.config);
	while (perf_data_next(&f, &pos, &rec, &err)) {
		if (rec.hdr.type == PERF_RECORD_COMM && rec.hdr.size >= 16) {
			uint32_t tid;

			memcpy(&tid, rec.body + 4, 4);
			if (!add_comm(&comms, &nr_comms, tid, (const char *)rec.body + 8,
				      rec.hdr.size - 16u))
				break;
		} else if (rec.hdr.type == PERF_RECORD_FORK && rec.hdr.size >= 24) {
			uint32_t ids[4];	/* pid, ppid, tid, ptid: the child has its parent's name */
			const char *parent;
			char name[32];

			memcpy(ids, rec.body, sizeof(ids));
			parent = comm_of(comms, nr_comms, ids[3]);
			if (!parent)
				continue;
			snprintf(name, sizeof(name), "%s", parent);	/* add_comm moves the table */
			if (!add_comm(&comms, &nr_comms, ids[2], name, strlen(name)))
				break;
		} else if (rec.hdr.type == PERF_RECORD_SAMPLE) {
			struct perf_sample *g = realloc(samples, (nr + 1) * sizeof(*samples));

			if (!g)
				break;
			samples = g;
			if (!perf_data_sample(&f, &rec, &samples[nr], &err))
				break;
			nr++;
		} else if (rec.hdr.type == PERF_RECORD_LOST && rec.hdr.size >= 24) {
			fprintf(stderr, "perf script: %llu samples lost\n",
				(unsigned long long)perf_data_u64(rec.body + 8));
		}
	}
	if (err)
		fprintf(stderr, "perf script: %s: %s\n", path, err);
	for (unsigned int i = 0; i < nr_tps; i++)
		if ((int)strlen(tps[i].name) > width)
			width = (int)strlen(tps[i].name);
	for (unsigned int i = 0; i < f.nr_attrs; i++) {
		char name[160];

		if (f.attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			continue;
		perf_data_event_name(&f.attrs[i].attr, name, sizeof(name));
		if ((int)strlen(name) > width)
			width = (int)strlen(name);
	}
	qsort(samples, nr, sizeof(*samples), by_time);
	for (unsigned int i = 0; i < nr; i++)
		print_sample(&samples[i], tps, nr_tps, width, comms, nr_comms);
	free(samples);
	free(comms);
	free(tps);
	perf_data_close(&f);
	munmap(map, (size_t)st.st_size);
	return err ? 1 : 0;
}
