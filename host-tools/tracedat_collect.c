/* Dumps out of the dump port's capture (host-tools/tracedat_collect.h). */
/* uses: trace/tracedat_frame.c */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "host-tools/spoor.h"
#include "host-tools/tracedat_collect.h"
#include "trace/tracedat.h"
#include "trace/tracedat_frame.h"

struct collect {
	const char *dir;
	int bad;
	int saved;	/* dumps found, damaged or not */
};

/*
 * The file name says what a dump holds: trace-dump's trace.dat, a perf.data
 * (trace-dump --file of perf record's output), or any other guest file.
 */
static const char *dump_name(const struct tdframe *f)
{
	static char name[64];
	const char *fmt = "file-%u";

	if (f->have >= 8 && !memcmp(f->payload, "PERFILE2", 8))
		fmt = "perf-%u.data";
	else if (f->have >= TRACEDAT_MAGIC_LEN && !memcmp(f->payload, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN))
		fmt = "trace-%u.dat";
	snprintf(name, sizeof(name), fmt, f->seq);
	return name;
}

static void save(void *ctx, const struct tdframe *f)
{
	static const char *const why[] = {
		[TDFRAME_TRUNCATED] = "truncated",
		[TDFRAME_BAD_CRC] = "corrupted (CRC-32 mismatch)",
		[TDFRAME_BAD_TRAILER] = "corrupted (no end marker)",
	};
	struct collect *c = ctx;
	char path[4096];
	FILE *out;

	c->saved++;
	snprintf(path, sizeof(path), "%s/%s%s", c->dir, dump_name(f),
		 f->status == TDFRAME_OK ? "" : ".bad");
	if (f->status != TDFRAME_OK) {
		spoor_err("exec: dump %u: %s: %llu of %llu bytes arrived; kept as %s", f->seq,
			  why[f->status], (unsigned long long)f->have,
			  (unsigned long long)f->length, path);
		c->bad++;
	}
	out = fopen(path, "w");
	if (!out || fwrite(f->payload, 1, (size_t)f->have, out) != f->have) {
		spoor_err("exec: %s: %s", path, strerror(errno));
		c->bad++;
	}
	if (out)
		fclose(out);
}

int tracedat_collect(const char *dir)
{
	struct collect c = { dir, 0, 0 };
	char path[4096];
	struct stat st;
	void *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, TRACEDAT_PORT_FILE);
	fd = open(path, O_RDONLY);
	if (fd < 0 && errno == ENOENT) {
		/* QEMU never made the port: nothing can have been dumped. */
		spoor_err("exec: --dump %s: the guest dumped nothing (no script ran trace-dump)", dir);
		return 0;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		spoor_err("exec: %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	buf = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (buf == MAP_FAILED) {
		spoor_err("exec: %s: %s", path, strerror(errno));
		return -1;
	}
	if (buf) {
		tdframe_scan(buf, (size_t)st.st_size, save, &c);
		munmap(buf, (size_t)st.st_size);
	}
	unlink(path);
	/* An empty DIR would look like a lost dump; say why it is empty. */
	if (!c.saved)
		spoor_err("exec: --dump %s: the guest dumped nothing (no script ran trace-dump)", dir);
	return c.bad;
}
