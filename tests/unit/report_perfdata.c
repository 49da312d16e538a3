/*
 * End to end: perf record in the guest (per task with inherit, and
 * system-wide with callchains), the perf.data files out through
 * trace-dump --file and spoor exec --dump, then on the host: Debian's
 * perf script and spoor report print the same samples (byte for byte
 * without callchains; with them, the same frames, where only the symbol
 * text may differ: perf looks in the host's kallsyms, spoor report in the
 * file's), perf report --stdio reads both files, and the guest's own
 * perf script saw as many samples. Needs the build's spoor, spoor.elf and
 * initrd, QEMU and Linux's perf (tools/setup.sh installs linux-perf);
 * skipped when one is missing.
 */
/* needs: guest */
#include "tests/unit/guest_run.h"

static const char script[] =
	"cd /tmp\n"
	"perf record -e raw_syscalls:sys_enter,sched:sched_process_fork,sched:sched_process_exit "
	"-o /tmp/task.data -- forkloop 20 || exit 1\n"
	"perf record -a -g -e sched:sched_switch -o /tmp/all.data -- forkloop 5 || exit 1\n"
	"perf record -e cpu-clock,sched:sched_process_fork -o /tmp/mix.data -- forkloop 5 || exit 1\n"
	"perf record -g -e task-clock -c 100000 -o /tmp/clock.data -- forkloop 3 || exit 1\n"
	"echo \"guest-script-lines $(perf script -i /tmp/task.data | wc -l)\"\n"
	"echo \"guest-clock-lines $(perf script -i /tmp/mix.data | grep -c ' cpu-clock:  ')\"\n"
	"trace-dump --file /tmp/task.data || exit 1\n"
	"trace-dump --file /tmp/all.data || exit 1\n"
	"trace-dump --file /tmp/mix.data || exit 1\n"
	"trace-dump --file /tmp/clock.data || exit 1\n";

/* Say where a and b first differ. */
static void expect_same(const char *what, const char *a, const char *b)
{
	const char *x = a, *y = b;
	int line = 1;

	if (!strcmp(a, b))
		return;
	while (*x && *x == *y) {
		line += *x == '\n';
		x++;
		y++;
	}
	while (x > a && x[-1] != '\n') {
		x--;
		y--;
	}
	cr_expect_fail("%s differ at line %d:\n perf:  %.*s\n spoor: %.*s", what, line,
		       (int)strcspn(x, "\n"), x, (int)strcspn(y, "\n"), y);
}

/* A counter sample's "EVENT:  ADDR": where its address ends, or 0 if the line has none. */
static size_t counter_ip_end(const char *line, size_t n)
{
	size_t at = 0;

	while (at + 3 <= n && memcmp(line + at, ":  ", 3))
		at++;
	at += 3;
	if (at + 16 >= n || line[at + 16] != ' ')
		return 0;
	for (size_t i = at; i < at + 16; i++)
		if (!strchr(" 0123456789abcdef", line[i]))
			return 0;
	return at + 16;
}

/*
 * Callchain lines ("\tADDR SYMBOL (DSO)") and counter samples cut after
 * the address: symbols come from different tables.
 */
static void drop_symbols(char *s)
{
	char *w = s;

	for (char *r = s; *r;) {
		size_t n = strcspn(r, "\n");
		size_t keep = *r == '\t' && n > 17 ? 17 : counter_ip_end(r, n) ? counter_ip_end(r, n) : n;

		memmove(w, r, keep);
		w += keep;
		r += n;
		if (*r)
			*w++ = *r++;
	}
	*w = 0;
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/*
 * perf script on DATA (a format argument), its stderr after its output,
 * less the two lines Debian's perf prints for the print fmt of
 * ftrace:func_repeats, Linux 6.12's own text (its "(REC)->" defeats perf's
 * parser; trace-cmd's reads it), which every perf.data carries with the
 * ftrace formats; its status.
 */
#define PERF_SCRIPT(data)						\
	"perf script -i " data " 2>" data ".err; s=$?; grep -v -x "	\
	"-e 'libtraceevent: No such file or directory' "		\
	"-e '  Error: expected type 4 but read 5' " data ".err; exit $s"

static char *host(const char *fmt, const char *dir, int *status)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), fmt, build, dir);
	return run(cmd, status);
}

Test(report_perfdata, guest_perf_record_reads_the_same_in_perf_script_and_spoor_report,
     .timeout = 300)
{
	char dir[] = "/tmp/spoor-perfdata-test-XXXXXX", path[PATH_MAX + 64], cmd[3 * PATH_MAX];
	char *out, *perf, *spoor, *guest;
	int status, st1, st2;
	FILE *f;

	if (!find_build("perf"))
		cr_skip_test("needs the build's spoor and spoor.elf, QEMU and Linux's perf "
			     "(tools/setup.sh installs linux-perf)");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.sh", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/spoor exec --timeout 200 --dump %s/out %s 2>&1", build, dir, path);
	out = run(cmd, &status);
	cr_assert_eq(status, 0, "spoor exec failed:\n%s", out);
	guest = strstr(out, "guest-script-lines ");
	cr_assert_not_null(guest, "%s", out);

	/* Per task: identical text, and the guest's perf script had as many samples. */
	perf = host(PERF_SCRIPT("%2$s/out/perf-0.data") " #%1$s", dir, &st1);
	spoor = host("%s/spoor report %s/out/perf-0.data", dir, &st2);
	cr_expect_eq(st1, 0, "perf script: %.400s", perf);
	cr_expect_eq(st2, 0, "spoor report: %.400s", spoor);
	cr_expect_gt(lines(perf), 200, "only %zu lines:\n%s", lines(perf), perf);
	cr_expect(strstr(perf, "sched:sched_process_fork: comm=forkloop") &&
		  strstr(perf, "raw_syscalls:sys_enter: NR ") && strstr(perf, "sched_process_exit"),
		  "%.2000s", perf);
	expect_same("perf script and spoor report (per task)", perf, spoor);
	cr_expect_eq(strtoul(guest + strlen("guest-script-lines "), NULL, 10), lines(spoor));
	free(perf);
	free(spoor);
	perf = host("perf report --stdio -i %2$s/out/perf-0.data 2>/dev/null #%1$s", dir, &st1);
	cr_expect_eq(st1, 0, "perf report: %.400s", perf);
	cr_expect(strstr(perf, "of event 'raw_syscalls:sys_enter'") &&
		  strstr(perf, "of event 'sched:sched_process_fork'"), "%.2000s", perf);
	free(perf);

	/* System wide with callchains: the same lines and frames. */
	perf = host(PERF_SCRIPT("%2$s/out/perf-1.data") " #%1$s", dir, &st1);
	spoor = host("%s/spoor report %s/out/perf-1.data", dir, &st2);
	cr_expect_eq(st1, 0, "perf script: %.400s", perf);
	cr_expect_eq(st2, 0, "spoor report: %.400s", spoor);
	cr_expect(strstr(perf, "sched:sched_switch: prev_comm=") && strstr(perf, "\tffffffff"),
		  "%.2000s", perf);
	drop_symbols(perf);
	drop_symbols(spoor);
	expect_same("perf script and spoor report (-a -g)", perf, spoor);
	free(perf);
	free(spoor);
	perf = host("perf report --stdio -i %2$s/out/perf-1.data 2>/dev/null #%1$s", dir, &st1);
	cr_expect_eq(st1, 0, "perf report: %.400s", perf);
	cr_expect(strstr(perf, "of event 'sched:sched_switch'"), "%.2000s", perf);
	free(perf);

	/* cpu-clock samples among tracepoint ones, and task-clock with callchains. */
	for (int i = 2; i < 4; i++) {
		char file[PATH_MAX + 32];

		snprintf(file, sizeof(file), "%s/out/perf-%d.data", dir, i);
		perf = host(PERF_SCRIPT("%2$s") " #%1$s", file, &st1);
		spoor = host("%s/spoor report %s", file, &st2);
		cr_expect_eq(st1, 0, "perf script: %.400s", perf);
		cr_expect_eq(st2, 0, "spoor report: %.400s", spoor);
		cr_expect(strstr(perf, i == 2 ? "     250000                cpu-clock:  " :
						 "     100000 task-clock: \n\t"),
			  "%.2000s", perf);
		if (i == 2)
			cr_expect_eq(strtoul(strstr(out, "guest-clock-lines ") + 18, NULL, 10),
				     count_of(perf, " cpu-clock:  "), "%.2000s", perf);
		drop_symbols(perf);
		drop_symbols(spoor);
		expect_same("perf script and spoor report (cpu-clock, task-clock -g)", perf, spoor);
		free(perf);
		free(spoor);
	}
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}
