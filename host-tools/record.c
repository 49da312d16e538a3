/*
 * spoor record [OPTIONS] [--] COMMAND [ARG]...: what `trace-cmd record` is
 * on Linux, in one line: boot Spoor, enable the events, run COMMAND in the
 * guest's shell, stop, write the trace to a trace.dat on the host, and
 * print it with `spoor report` when asked.
 *
 * It is a `spoor exec` run (exec.c) of a script this file writes: the
 * guest's tracefs is driven exactly as a user would, and trace-dump sends
 * the file through the dump port. The exit status is COMMAND's, or
 * exec's for a run that went wrong (124, 125); 2 for a usage error,
 * including an event the guest does not have.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "qemu.h"
#include "spoor.h"

static const char usage[] =
	"usage: spoor record [OPTIONS] [--] COMMAND [ARG]...\n"
	"Boot Spoor, enable the events, run COMMAND in the guest's shell, and write\n"
	"the trace to a trace.dat (trace-cmd record's options where they apply).\n"
	"  -e EVENT[,EVENT]  an event, SYSTEM:EVENT, a SYSTEM, a glob or 'all'\n"
	"                    (repeatable; default: all)\n"
	"  -o FILE           the trace.dat to write (default trace.dat)\n"
	"  -a                accepted for trace-cmd: every event's format is always saved\n"
	"  --report          print the trace afterwards (spoor report FILE)\n"
	"  --timeout S       give up after S seconds (default 60; 0: never)\n"
	QEMU_OPTIONS_HELP;

/* text with every ' closed, escaped and reopened: safe inside '...'. */
static void put_quoted(FILE *f, const char *text)
{
	fputc('\'', f);
	for (; *text; text++) {
		if (*text == '\'')
			fputs("'\\''", f);
		else
			fputc(*text, f);
	}
	fputc('\'', f);
}

/*
 * The guest's part. set_event takes trace-cmd's event syntax (system,
 * system:event, event, globs); a name it does not know makes the write
 * fail, and the script says which one before anything runs.
 */
static char *write_script(char **events, int nr_events, char **cmd, int nr_cmd)
{
	char *path = spoor_temp_name("spoor-record");
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		spoor_err("record: cannot create %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	fputs("cd /sys/kernel/tracing || exit 125\n"
	      "echo 0 > tracing_on\necho > set_event\n", f);
	for (int i = 0; i < nr_events; i++) {
		const char *e = strcmp(events[i], "all") ? events[i] : "*:*";

		fputs("echo ", f);
		put_quoted(f, e);
		fputs(" >> set_event 2>/dev/null || { echo \"spoor: record: no event ", f);
		put_quoted(f, events[i]);
		fputs(" in the guest (see available_events)\" >&2; exit 2; }\n", f);
	}
	fputs("echo > trace\necho 1 > tracing_on\n", f);
	for (int i = 0; i < nr_cmd; i++) {
		put_quoted(f, cmd[i]);
		fputc(i + 1 < nr_cmd ? ' ' : '\n', f);
	}
	fputs("status=$?\necho 0 > tracing_on\ntrace-dump > /dev/null || exit 125\nexit $status\n", f);
	if (fclose(f) != 0) {
		spoor_err("record: writing %s: %s", path, strerror(errno));
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

/* -e A,B -e C -> A B C, in order. */
static int split_events(char *arg, char **events, int *n, int max)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		if (*n == max) {
			spoor_err("record: more than %d events", max);
			return -1;
		}
		events[(*n)++] = tok;
	}
	return 0;
}

/* Move DIR/trace-0.dat to out; 0 or -1 (said). */
static int take_dump(const char *dir, const char *out)
{
	char *dump;
	int rc = 0;

	if (asprintf(&dump, "%s/trace-0.dat", dir) < 0)
		return -1;
	if (access(dump, R_OK) < 0) {
		spoor_err("record: the guest wrote no trace");
		rc = -1;
	} else if (rename(dump, out) < 0) {
		spoor_err("record: %s: %s", out, strerror(errno));
		rc = -1;
	}
	free(dump);
	return rc;
}

static void remove_dir(const char *dir)
{
	char *cmd;

	/* Only what exec --dump left there: frames it could not name. */
	if (asprintf(&cmd, "rm -rf '%s'", dir) >= 0) {
		if (system(cmd) != 0)
			spoor_err("record: could not remove %s", dir);
		free(cmd);
	}
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		QEMU_LONG_OPTIONS,
		{ "report", no_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum { MAX_EVENTS = 64 };
	char *events[MAX_EVENTS], **exec_argv, *script = NULL, *dir = NULL;
	const char *out = "trace.dat", *timeout = "60";
	int nr_events = 0, opt, rc = 2, n = 0, first = 1;
	bool report = false;

	/* Ours plus the few exec gets below: never more than argc + 8. */
	exec_argv = calloc((size_t)argc + 8, sizeof(*exec_argv));
	if (!exec_argv)
		return 2;
	exec_argv[n++] = "exec";
	while ((opt = getopt_long(argc, argv, "+he:o:a", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(usage, stdout);
			rc = 0;
			goto out;
		case 'e':
			if (split_events(optarg, events, &nr_events, MAX_EVENTS) < 0)
				goto out;
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			break;
		case 'r':
			report = true;
			break;
		case 't':
			timeout = optarg;
			break;
		case '?':
			fprintf(stderr, "%.*s", (int)strcspn(usage, "\n") + 1, usage);
			goto out;
		default:
			/* A QEMU option: handed on to exec as written, which checks it. */
			while (first < optind)
				exec_argv[n++] = argv[first++];
		}
		first = optind;
	}
	if (optind == argc) {
		spoor_err("record: no COMMAND to run");
		fprintf(stderr, "%.*s", (int)strcspn(usage, "\n") + 1, usage);
		goto out;
	}
	if (!nr_events)
		events[nr_events++] = "all";
	dir = spoor_temp_name("spoor-record-dump");
	if (!mkdtemp(dir)) {
		spoor_err("record: %s: %s", dir, strerror(errno));
		free(dir);
		dir = NULL;
		goto out;
	}
	script = write_script(events, nr_events, argv + optind, argc - optind);
	if (!script)
		goto out;
	exec_argv[n++] = "--quiet";
	exec_argv[n++] = "--timeout";
	exec_argv[n++] = (char *)timeout;
	exec_argv[n++] = "--dump";
	exec_argv[n++] = dir;
	exec_argv[n++] = script;
	exec_argv[n] = NULL;
	optind = 0;	/* exec parses its own command line with getopt */
	rc = cmd_exec(n, exec_argv);
	if (rc == 0 || (rc != 2 && rc < 124)) {
		if (take_dump(dir, out) < 0)
			rc = rc ? rc : 1;
		else if (report) {
			char *report_argv[] = { "report", (char *)out, NULL };

			fflush(stdout);
			optind = 0;
			if (cmd_report(2, report_argv) && !rc)
				rc = 1;
		}
	}
out:
	if (script) {
		unlink(script);
		free(script);
	}
	if (dir) {
		remove_dir(dir);
		free(dir);
	}
	free(exec_argv);
	return rc;
}
