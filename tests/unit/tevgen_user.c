/*
 * spoor tevgen -u: the header of a ring-3 program. Its registration strings
 * must be what the kernel's own parser (trace/user_events_fields.c) accepts,
 * and what its emit functions write, compiled and run here with writev
 * caught, must pass the kernel's record checks and print as expected. Specs
 * a user event cannot be made of are errors at their line.
 */
/* uses: host-tools/tevgen.c host-tools/tevgen_user.c host-tools/spoor_err.c trace/user_events_fields.c trace/trace_output.c trace/trace_events.c trace/trace_filter.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/types.h>
#include <kernel/errno.h>
#include <trace/trace_output.h>
#include <trace/user_events_fields.h>
#include "host-tools/tevgen.h"

int cmd_tevgen(int argc, char **argv);

/* Every kind of field a user event can have, and an event sharing a class. */
static const char spec_text[] =
	"system uet\n"
	"include <stdbool.h>\n"
	"event req\n"
	"\tproto unsigned int bytes, unsigned long long ns, const char *path, int pid\n"
	"\tfield u32 bytes\n"
	"\tfield u64 ns\n"
	"\tstring path = path\n"
	"\tfield pid_t pid = pid + 1\n"
	"class pair\n"
	"\tproto const char *tag, const unsigned short *v, int n, void *p, bool b\n"
	"\tfield char tag[4] = tag\n"
	"\tdynarray u16 v[n] = v\n"
	"\tstring name = tag\n"
	"\tfield void *p\n"
	"\tfield bool b\n"
	"event left : pair\n"
	"event right : pair\n";

/* The program: writev is caught and each record printed as "index hex-bytes". */
static const char driver[] =
	"#include <stdio.h>\n"
	"#include <sys/uio.h>\n"
	"#define writev caught_writev\n"
	"ssize_t caught_writev(int fd, const struct iovec *io, int n);\n"
	"#include \"uet.h\"\n"
	"ssize_t caught_writev(int fd, const struct iovec *io, int n)\n"
	"{\n"
	"\tprintf(\"%d \", *(int *)io[0].iov_base);\n"
	"\tfor (int i = 1; i < n; i++)\n"
	"\t\tfor (size_t b = 0; b < io[i].iov_len; b++)\n"
	"\t\t\tprintf(\"%02x\", ((unsigned char *)io[i].iov_base)[b]);\n"
	"\tprintf(\"\\n\");\n"
	"\treturn fd == -1 ? 1 : -1;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\tstatic const unsigned short v[] = { 1, 2, 0x300 };\n"
	"\treq_write_index = 3; left_write_index = 4; right_write_index = 5;\n"
	"\tputs(req_REG); puts(left_REG); puts(right_REG);\n"
	"\tif (req_emit(4096, 123456789, \"/srv/a\", 41) || req_emit(1, 2, 0, -2))\n"
	"\t\treturn 1;\n"
	"\tif (left_emit(\"abcd\", v, 3, (void *)0x1234, true) || right_emit(\"xy\\0\\0\", v, 0, 0, false))\n"
	"\t\treturn 1;\n"
	"\treturn left_enabled() + right_enabled() + req_enabled();\n"
	"}\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* The kernel's trace text of a record: an 8-byte common header, then the payload in hex. */
static char *kernel_text(const char *reg, const char *hex)
{
	struct user_event_fields f;
	static char out[TRACE_SEQ_BUFFER_SIZE];
	u8 rec[256] = { 0 };
	struct trace_seq s;
	u32 len = 8;

	cr_assert_eq(user_event_fields_parse(strchr(reg, ' ') + 1, &f), 0, "kernel parses %s", reg);
	for (; hex[0] && hex[1]; hex += 2) {
		unsigned int byte;

		cr_assert_eq(sscanf(hex, "%2x", &byte), 1);
		rec[len++] = (u8)byte;
	}
	cr_assert_geq(len, f.size, "the fixed part is all there");
	cr_assert_eq(user_event_validate(&f, rec, len), 0, "kernel validates %s", reg);
	trace_seq_init(&s);
	cr_assert_eq(user_event_print_fields(&s, &f, rec, len), 0);
	snprintf(out, sizeof(out), "%s", s.buffer);
	user_event_fields_free(&f);
	return out;
}

Test(tevgen_user, emitted_records_pass_the_kernel)
{
	char dir[] = "/tmp/tevgen-user-XXXXXX", path[128], cmd[512], line[3][600];
	const char *want_reg[] = {
		"req u32 bytes; u64 ns; __data_loc char[] path; s32 pid",
		"left char[4] tag; __data_loc u16[] v; __data_loc char[] name; u64 p; u8 b",
		"right char[4] tag; __data_loc u16[] v; __data_loc char[] name; u64 p; u8 b",
	};
	const struct { int index; const char *reg, *text; } want[] = {
		{ 3, want_reg[0], "bytes=0x1000 (4096) ns=0x75bcd15 (123456789) path=/srv/a pid=0x2a (42)" },
		{ 3, want_reg[0], "bytes=0x1 (1) ns=0x2 (2) path=(null) pid=0xffffffff (-1)" },
		{ 4, want_reg[1], "tag=abcd v=ARRAY[01,00,02,00,00,03] name=abcd p=0x1234 (4660) b=(1)" },
		{ 5, want_reg[2], "tag=xy v=ARRAY[] name=xy p=0x0 (0) b=(0)" },
	};
	char *argv[] = { "tevgen", "-u", "-o", cmd, path, NULL };
	FILE *p;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/uet.tev", dir);
	write_file(path, spec_text);
	snprintf(cmd, sizeof(cmd), "%s/uet.h", dir);
	cr_assert_eq(cmd_tevgen(5, argv), 0);
	snprintf(path, sizeof(path), "%s/driver.c", dir);
	write_file(path, driver);
	/* The flags user/ programs build with: the header must be warning-free. */
	snprintf(cmd, sizeof(cmd), "cc -std=gnu11 -O2 -Wall -Wextra -Werror -I%s -o %s/driver %s",
		 dir, dir, path);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	snprintf(cmd, sizeof(cmd), "%s/driver", dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	for (int i = 0; i < 3; i++) {
		cr_assert_not_null(fgets(line[i], sizeof(line[i]), p));
		line[i][strcspn(line[i], "\n")] = '\0';
		cr_expect_str_eq(line[i], want_reg[i]);
	}
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char rec[600];
		int index;

		cr_assert_not_null(fgets(rec, sizeof(rec), p), "record %zu", i);
		rec[strcspn(rec, "\n")] = '\0';
		cr_assert_eq(sscanf(rec, "%d", &index), 1);
		cr_expect_eq(index, want[i].index, "record %zu's write index", i);
		const char *got = kernel_text(want[i].reg, strchr(rec, ' ') + 1);

		cr_expect_str_eq(got, want[i].text, "record %zu: %s", i, got);
	}
	cr_expect_eq(pclose(p), 0, "every emit returned 0; nothing enabled");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

/* What a user spec cannot say, and the message each gives. */
static const struct {
	const char *spec;
	const char *msg;
} bad[] = {
	{ "system s\nevent e\n proto int a\n field int a\n print \"a=%d\", REC->a\n",
	  "t/s.tev:5:2: error: 'print' is for kernel events: a user event is its fields" },
	{ "system s\nevent e\n proto int a\n field int a\n assign x = 1\n",
	  "t/s.tev:5:2: error: 'assign' is for kernel events: a user event is its fields" },
	{ "system s\nevent e\n proto int a\n flex char b[a]\n",
	  "t/s.tev:4:2: error: 'flex' is for kernel events: a user event is its fields" },
	{ "system s\nevent e\n proto int a\n field u32 v[4] = 0\n",
	  "t/s.tev:4:8: error: user_events carry fixed arrays of bytes only (char[N])" },
	{ "system s\nevent e\n proto const char *a\n field char v[1025] = a\n",
	  "t/s.tev:4:8: error: a user event's char[N] holds at most 1024 bytes" },
	{ "system s\nevent e\n proto const char *a, int n\n dynarray char v[n] = a\n",
	  "t/s.tev:4:11: error: text in a user event is a 'string' (a char dynarray needs its NUL)" },
	{ "system s\nevent e\n proto int a\n",
	  "t/s.tev:2:1: error: 'e' has no fields" },
};

Test(tevgen_user, bad_user_specs_point_at_the_line)
{
	char long_spec[2048];
	int n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[512];
		struct tev_spec *spec = tev_parse("t/s.tev", bad[i].spec, TEV_USER, err, sizeof(err));

		cr_assert_null(spec, "spec %zu parsed", i);
		cr_expect_str_eq(err, bad[i].msg, "spec %zu: got %s", i, err);
	}
	/* 26 fields of 20 bytes each: a registration string Linux would refuse */
	n = snprintf(long_spec, sizeof(long_spec), "system s\nclass c\n proto int a\n");
	for (char c = 'a'; c <= 'z'; c++)
		n += snprintf(long_spec + n, sizeof(long_spec) - (size_t)n,
			      " field int field_%c_123456 = a\n", c);
	snprintf(long_spec + n, sizeof(long_spec) - (size_t)n, "event e : c\n");
	{
		char err[512];

		cr_assert_null(tev_parse("t/s.tev", long_spec, TEV_USER, err, sizeof(err)));
		cr_expect_str_eq(err, "t/s.tev:30:1: error: 'e': its user_events registration "
				 "string is 520 bytes (at most 511)");
	}
}

Test(tevgen_user, a_user_spec_needs_no_print_and_makes_no_format)
{
	char err[256];
	struct tev_spec *spec = tev_parse("t/s.tev", "system s\nevent e\n proto int a\n field int a\n",
					  TEV_USER, err, sizeof(err));

	cr_assert_not_null(spec, "%s", err);
	tev_free(spec);
	cr_assert_null(tev_parse("t/s.tev", "system s\nevent e\n proto int a\n field int a\n",
				 TEV_KERNEL, err, sizeof(err)), "a kernel event needs its print line");
	cr_expect_eq(cmd_tevgen(5, (char *[]){ "tevgen", "-u", "-F", "/tmp", "t/s.tev", NULL }), 2,
		     "a user event's format is the kernel's to make");
}
