/* Unit tests of the cpio (newc) reader against the writer, and of hostile archives. */
/* uses: host-tools/cpio.c host-tools/spoor_err.c */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/cpio.h"

struct seen {
	int n;
	char names[16][64];
	unsigned modes[16];
	char data[16][64];
	size_t sizes[16];
	int stop_at;		/* return 7 from this entry on, or -1 */
};

static int record(void *arg, const struct cpio_entry *e)
{
	struct seen *s = arg;

	cr_assert_lt(s->n, 16);
	snprintf(s->names[s->n], 64, "%s", e->name);
	s->modes[s->n] = e->mode;
	cr_assert_leq(e->size, 64);
	memcpy(s->data[s->n], e->data, e->size);
	s->sizes[s->n] = e->size;
	return s->n++ == s->stop_at ? 7 : 0;
}

/* An archive in memory, written by the writer. */
static char *build(size_t *len, void (*fill)(struct cpio *c))
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct cpio c;

	cpio_begin(&c, f);
	fill(&c);
	cr_assert_eq(cpio_end(&c), 0);
	fclose(f);
	return buf;
}

static void fill_sample(struct cpio *c)
{
	cpio_add_data(c, "/spoor/exec/1.sh", 0755, "echo hi\n", 8);
	cpio_add_entry(c, "bin", 040755, NULL, 0);
	cpio_add_data(c, "a", 0644, "", 0);
	cpio_add_data(c, "/tmp/odd", 0600, "12345", 5);
}

Test(cpio, round_trip_keeps_names_modes_data)
{
	struct seen s = { .stop_at = -1 };
	size_t len;
	char *buf = build(&len, fill_sample);

	cr_assert_eq(len % 4, 0);
	cr_assert_eq(cpio_read(buf, len, record, &s), 0);
	/* Parents come first: spoor, spoor/exec, then the file. */
	cr_assert_eq(s.n, 7);
	cr_assert_str_eq(s.names[0], "spoor");
	cr_assert_eq(s.modes[0], 040755);
	cr_assert_str_eq(s.names[1], "spoor/exec");
	cr_assert_str_eq(s.names[2], "spoor/exec/1.sh");
	cr_assert_eq(s.modes[2], 0100755);
	cr_assert_eq(s.sizes[2], 8);
	cr_assert_eq(memcmp(s.data[2], "echo hi\n", 8), 0);
	cr_assert_str_eq(s.names[3], "bin");
	cr_assert_str_eq(s.names[4], "a");
	cr_assert_eq(s.sizes[4], 0);
	cr_assert_str_eq(s.names[5], "tmp");
	cr_assert_str_eq(s.names[6], "tmp/odd");
	cr_assert_eq(s.modes[6], 0100600);
	cr_assert_eq(memcmp(s.data[6], "12345", 5), 0);
	free(buf);
}

Test(cpio, callback_return_stops_the_walk)
{
	struct seen s = { .stop_at = 1 };
	size_t len;
	char *buf = build(&len, fill_sample);

	cr_assert_eq(cpio_read(buf, len, record, &s), 7);
	cr_assert_eq(s.n, 2);
	free(buf);
}

Test(cpio, reemitted_archive_is_identical)
{
	struct seen s = { .stop_at = -1 };
	size_t len, len2;
	char *buf = build(&len, fill_sample), *buf2 = NULL;
	FILE *f = open_memstream(&buf2, &len2);
	struct cpio c;

	cpio_begin(&c, f);
	cr_assert_eq(cpio_read(buf, len, record, &s), 0);
	for (int i = 0; i < s.n; i++)
		cpio_add_entry(&c, s.names[i], s.modes[i], s.data[i], s.sizes[i]);
	cr_assert_eq(cpio_end(&c), 0);
	fclose(f);
	cr_assert_eq(len2, len);
	cr_assert_eq(memcmp(buf, buf2, len), 0);
	free(buf);
	free(buf2);
}

Test(cpio, every_truncation_is_rejected)
{
	size_t len;
	char *buf = build(&len, fill_sample);

	/* Each prefix is copied so ASan sees any read past its end. */
	for (size_t cut = 0; cut < len; cut++) {
		struct seen s = { .stop_at = -1 };
		char *p = malloc(cut ? cut : 1);

		memcpy(p, buf, cut);
		cr_assert_eq(cpio_read(p, cut, record, &s), -EINVAL, "cut at %zu", cut);
		free(p);
	}
	free(buf);
}

/* Corrupt one header field of the first entry and expect -EINVAL. */
static void expect_corrupt(size_t at, const char *bytes)
{
	struct seen s = { .stop_at = -1 };
	size_t len;
	char *buf = build(&len, fill_sample);

	memcpy(buf + at, bytes, strlen(bytes));
	cr_assert_eq(cpio_read(buf, len, record, &s), -EINVAL, "at %zu: %s", at, bytes);
	cr_assert_eq(s.n, 0);
	free(buf);
}

Test(cpio, hostile_headers_are_rejected)
{
	expect_corrupt(0, "070707");		/* old binary-ish magic */
	expect_corrupt(6 + 8 * 1, "0000G000");	/* mode not hex */
	expect_corrupt(6 + 8 * 6, "FFFFFFFF");	/* file size past the end */
	expect_corrupt(6 + 8 * 11, "00000000");	/* no name at all */
	expect_corrupt(6 + 8 * 11, "7FFFFFFF");	/* name past the end */
	expect_corrupt(6 + 8 * 11, "00000002");	/* name without its NUL */
}

Test(cpio, no_trailer_is_rejected)
{
	struct seen s = { .stop_at = -1 };
	size_t len;
	char *buf = build(&len, fill_sample);

	/* Drop the trailer entry (header + "TRAILER!!!\0" padded = 124 bytes). */
	cr_assert_eq(cpio_read(buf, len - 124, record, &s), -EINVAL);
	cr_assert_eq(s.n, 7);
	free(buf);
}
