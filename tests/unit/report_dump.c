/*
 * End to end: boot the guest with `spoor exec --dump`, trace sched, kmem,
 * irq and timer events while it works, dump with trace-dump (once to the
 * dump port, once to a file in the guest), then check on the host that
 * trace-cmd report reads the dump and that spoor report prints the same
 * text for every event, field by field, in the default, raw and
 * no-plugin views, and the same --stat (the per-CPU stats trace-dump
 * keeps). Also: frames damaged on the way are named, not taken.
 * Needs the build's spoor, spoor.elf and initrd next to this test's
 * directory, QEMU and trace-cmd; skipped when one is missing.
 */
/* uses: trace/tracedat_frame.c */
#include "tests/unit/guest_run.h"
#include "trace/tracedat_frame.h"

/* Boot the guest running script with `spoor exec --dump DIR/out`; dir: a new directory. */
static bool guest_dump(const char *script, char *dir)
{
	char path[PATH_MAX + 64], cmd[3 * PATH_MAX];
	char *out;
	int status;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.sh", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/spoor exec --timeout 200 --dump %s/out %s 2>&1", build, dir, path);
	out = run(cmd, &status);
	if (status) {
		cr_expect_fail("spoor exec failed:\n%s", out);
		free(out);
		return false;
	}
	cr_expect(strstr(out, "trace-dump: ") && strstr(out, "-> dump port"), "%s", out);
	free(out);
	return true;
}

/* trace-cmd report and spoor report print the dump the same in a view: trace-cmd's text (free it). */
static char *expect_same_report(const char *dir, const char *view)
{
	char cmd[3 * PATH_MAX];
	char *tc, *sp;
	int st1, st2;

	snprintf(cmd, sizeof(cmd), "trace-cmd report %s -i %s/out/trace-0.dat 2>&1", view, dir);
	tc = run(cmd, &st1);
	snprintf(cmd, sizeof(cmd), "%s/spoor report %s %s/out/trace-0.dat 2>&1", build, view, dir);
	sp = run(cmd, &st2);
	cr_expect_eq(st1, 0, "trace-cmd report %s: %.400s", view, tc);
	cr_expect_eq(st2, 0, "spoor report %s: %.400s", view, sp);
	if (strcmp(tc, sp)) {
		const char *a = tc, *b = sp;
		int line = 1;

		while (*a && *a == *b) {
			line += *a == '\n';
			a++;
			b++;
		}
		while (a > tc && a[-1] != '\n') {
			a--;
			b--;
		}
		cr_expect_fail("view \"%s\" differs at line %d:\n trace-cmd: %.*s\n spoor:     %.*s",
			       view, line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
	}
	free(sp);
	return tc;
}

static void remove_dir(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(report_dump, guest_dump_reads_the_same_in_trace_cmd_and_spoor_report, .timeout = 300)
{
	static const char script[] =
		"cd /sys/kernel/tracing\n"
		"echo 1 > events/sched/enable\n"
		"echo 1 > events/kmem/enable\n"
		"echo 1 > events/irq/enable\n"
		"echo 1 > events/timer/enable\n"
		"i=0\n"
		"while [ $i -lt 10 ]; do seq 1 100 > /dev/null; ls / > /dev/null; i=$((i+1)); done\n"
		"trace-dump || exit 1\n"
		"seq 1 50 > /dev/null\n"
		"echo 0 > tracing_on\n"
		"trace-dump -o /tmp/t.dat || exit 1\n"
		"test -s /tmp/t.dat\n";
	char dir[] = "/tmp/spoor-dump-test-XXXXXX", cmd[3 * PATH_MAX];
	const char *views[] = { "", "-R", "-N" };

	if (!find_build("trace-cmd"))
		cr_skip_test("needs the build's spoor and spoor.elf, QEMU and trace-cmd");
	if (!guest_dump(script, dir))
		return;
	for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
		char *tc = expect_same_report(dir, views[v]);

		/* sched, kmem and irq events of a busy shell: hundreds at least. */
		cr_expect_gt(lines(tc), 300, "only %zu lines", lines(tc));
		cr_expect(strstr(tc, "sched_switch:") && strstr(tc, "kmalloc:") && strstr(tc, "kfree:"));
		free(tc);
	}
	{
		/* --stat: the per_cpu stats trace-dump kept, after the pages were taken. */
		char *tc, *sp;
		int st1, st2;

		snprintf(cmd, sizeof(cmd), "trace-cmd report --stat -i %s/out/trace-0.dat 2>&1", dir);
		tc = run(cmd, &st1);
		snprintf(cmd, sizeof(cmd), "%s/spoor report --stat %s/out/trace-0.dat 2>&1", build, dir);
		sp = run(cmd, &st2);
		cr_expect_eq(st1, 0, "trace-cmd report --stat: %.400s", tc);
		cr_expect_eq(st2, 0, "spoor report --stat: %.400s", sp);
		cr_expect(strstr(tc, "\nCPU: 0\nentries: ") && strstr(tc, "\nread events: ") &&
			  !strstr(tc, "No stats in this file"), "%s", tc);
		cr_expect_str_eq(sp, tc);
		free(tc);
		free(sp);
	}
	remove_dir(dir);
}

/*
 * With 8 KiB sub-buffers: the dump's pages are 8 KiB and both readers
 * take them. A 4,096-byte marker still makes events of 4,054 bytes of
 * text and the rest, as Linux 6.12's (its cut does not follow the
 * sub-buffer size).
 */
Test(report_dump, dump_with_8k_sub_buffers, .timeout = 300)
{
	static const char script[] =
		"cd /sys/kernel/tracing\n"
		"echo 8 > buffer_subbuf_size_kb\n"
		"echo 1 > events/sched/enable\n"
		"i=0\n"
		"while [ $i -lt 10 ]; do seq 1 100 > /dev/null; ls / > /dev/null; i=$((i+1)); done\n"
		"printf 'm%.0s' $(seq 4096) > trace_marker\n"
		"trace-dump || exit 1\n";
	char dir[] = "/tmp/spoor-dump-test-XXXXXX", cmd[3 * PATH_MAX], want[4100];
	char *tc, *info;
	int status;

	if (!find_build("trace-cmd"))
		cr_skip_test("needs the build's spoor and spoor.elf, QEMU and trace-cmd");
	if (!guest_dump(script, dir))
		return;
	/* The header: magic, "tracing", "6\0", endian 0, long size 8, then the page size (LE). */
	snprintf(cmd, sizeof(cmd), "head -c 20 %s/out/trace-0.dat | od -A n -t x1 | tr -d ' \\n'", dir);
	info = run(cmd, &status);
	cr_expect(strstr(info, "74726163696e6736000008" "00200000"), "page size 8192: %s", info);
	free(info);
	tc = expect_same_report(dir, "");
	cr_expect_gt(lines(tc), 100, "only %zu lines", lines(tc));
	want[0] = ' ';
	memset(want + 1, 'm', 4054);
	strcpy(want + 4055, "\n");
	cr_expect(strstr(tc, want), "4,054 bytes of the marker in one event");
	cr_expect(strstr(tc, " " "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm" "\n"), "and the other 42 in the next");
	free(tc);
	remove_dir(dir);
}

/* What a scan reported, frame by frame. */
struct seen {
	unsigned int count;
	u32 seq[8];
	enum tdframe_status status[8];
	u64 have[8];
};

static void note(void *ctx, const struct tdframe *f)
{
	struct seen *s = ctx;

	if (s->count < 8) {
		s->seq[s->count] = f->seq;
		s->status[s->count] = f->status;
		s->have[s->count] = f->have;
	}
	s->count++;
}

static const char payload[] = "not really a trace.dat, but bytes all the same";

/* Noise, two good frames with noise between; returns the length. */
static size_t two_frames(u8 *buf)
{
	size_t len = sizeof(payload), n = 0;

	memcpy(buf, "noise", 5);
	n += 5;
	for (u32 seq = 0; seq < 2; seq++) {
		tdframe_header(buf + n, seq, len);
		memcpy(buf + n + TDFRAME_HDR_SIZE, payload, len);
		tdframe_trailer(buf + n + TDFRAME_HDR_SIZE + len, tdframe_crc32(0, payload, len));
		n += TDFRAME_HDR_SIZE + len + TDFRAME_TRAILER_SIZE;
		memcpy(buf + n, "xyz", 3);
		n += 3;
	}
	return n;
}

/* The frame scan the collector relies on: whole, cut short, bit-flipped, end marker lost. */
Test(report_dump, frames_truncated_or_corrupted_are_named)
{
	static u8 buf[4096];
	size_t n = two_frames(buf), first = 5, second = first + TDFRAME_HDR_SIZE + sizeof(payload) +
					    TDFRAME_TRAILER_SIZE + 3;
	struct seen s = { 0 };

	cr_assert_eq(tdframe_crc32(0, "123456789", 9), 0xcbf43926u);	/* the CRC-32 check value */
	cr_expect_eq(tdframe_scan(buf, n, note, &s), 2);
	cr_expect(s.status[0] == TDFRAME_OK && s.status[1] == TDFRAME_OK && s.seq[1] == 1);

	memset(&s, 0, sizeof(s));
	tdframe_scan(buf, second + TDFRAME_HDR_SIZE + 10, note, &s);	/* cut inside frame 1 */
	cr_expect_eq(s.count, 2);
	cr_expect_eq(s.status[1], TDFRAME_TRUNCATED);
	cr_expect_eq(s.have[1], 10);

	buf[first + TDFRAME_HDR_SIZE + 7] ^= 0x10;			/* one bit of frame 0 */
	memset(&s, 0, sizeof(s));
	tdframe_scan(buf, n, note, &s);
	cr_expect(s.status[0] == TDFRAME_BAD_CRC && s.status[1] == TDFRAME_OK);
	buf[first + TDFRAME_HDR_SIZE + 7] ^= 0x10;

	buf[first + TDFRAME_HDR_SIZE + sizeof(payload) + 6] = '?';	/* frame 0's end marker */
	memset(&s, 0, sizeof(s));
	tdframe_scan(buf, n, note, &s);
	cr_expect_eq(s.status[0], TDFRAME_BAD_TRAILER);
	cr_expect_eq(s.status[s.count - 1], TDFRAME_OK, "the next frame is still found");
}
