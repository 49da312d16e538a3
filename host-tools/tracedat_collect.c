/* Dumps out of the dump port's capture (host-tools/tracedat_collect.h). */
/* uses: trace/tracedat_frame.c */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host-tools/spoor.h"
#include "host-tools/tracedat_collect.h"
#include "trace/tracedat_frame.h"

struct collect {
	const char *dir;
	int bad;
};

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

	snprintf(path, sizeof(path), "%s/trace-%u.dat%s", c->dir, f->seq,
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
	struct collect c = { dir, 0 };
	char path[4096];
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, TRACEDAT_PORT_FILE);
	f = fopen(path, "r");
	if (!f) {
		spoor_err("exec: %s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	tdframe_scan(buf, len, save, &c);
	free(buf);
	unlink(path);
	return c.bad;
}
