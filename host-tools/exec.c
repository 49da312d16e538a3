/*
 * spoor exec [OPTIONS] SCRIPT...: run scripts in the guest shell and exit
 * with the first failing one's status (docs/DESIGN.md, "The guest/runner
 * protocol").
 *
 * The scripts travel in a temporary initrd: the standard one's entries
 * re-emitted, then /spoor/exec/1.sh.. and the --file extras. QEMU's COM1
 * is a pipe; the console is copied as it arrives, the guest's stdout to
 * ours and its stderr to ours, and the guest's protocol lines (console.h),
 * a panic, QEMU's exit status or the deadline decide how we exit.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "console.h"
#include "cpio.h"
#include "iso.h"
#include "qemu.h"
#include "spoor.h"
#include "tracedat_collect.h"

#define EXIT_USAGE	2	/* a bad command line, as getopt-style tools say it */
#define EXIT_TIMEOUT	124	/* timeout(1)'s status */
#define EXIT_BROKEN	125	/* panic or no shell */
/* 126 comes from the guest: a script with a syntax error (SH_EXEC_SYNTAX). */
/* After the status line or a panic the guest stops on its own; don't wait forever. */
#define SETTLE_SECONDS	5.0
/* After a timeout, how long the guest may print its tasks (qemu_monitor_report). */
#define TASK_DUMP_SECONDS	3.0

static const char usage[] =
	"usage: spoor exec [OPTIONS] SCRIPT... | -c COMMANDS | -\n"
	"Boot Spoor, run each SCRIPT with the guest's sh in order, power off. The\n"
	"console comes to stdout, what the scripts write to stderr to stderr. Exit\n"
	"status: 0 if every script succeeded, else the first failing script's\n"
	"status (the run stops there unless --keep-going); 126 when a script has a\n"
	"syntax error (none of it runs); 124 on timeout; 125 on a panic, a failed\n"
	"boot or when the guest cannot be started; 2 on a usage error.\n"
	"  -c COMMANDS      a script given inline (repeatable; runs before SCRIPTs)\n"
	"  -                the script is read from stdin\n"
	"  --keep-going     run every script even after one fails\n"
	"  --quiet          show the guest console from its first script on (no boot\n"
	"                   log; the kernel also boots with quiet)\n"
	"  --timeout S      give up after S seconds (default 60; 0: never)\n"
	"  --file HOST[:GUEST]  add a file or a directory tree to the initrd (default /tmp/BASENAME)\n"
	"  --dump DIR       collect the guest's trace-dump output as DIR/trace-N.dat (perf-N.data)\n"
	QEMU_OPTIONS_HELP;

/* What one run is made of; everything here is undone by exec_cleanup(). */
struct exec_run {
	char *append;		/* the kernel command line: spoor.exec=N and --append */
	char *initrd;		/* temporary initrd, removed at the end */
	char *iso;		/* temporary image for --iso, removed at the end */
	pid_t qemu;
	int console;		/* read end of QEMU's stdout */
	int console_in;		/* write end of QEMU's stdin: open and silent, so COM1 input never ends */
	char *dump_port;	/* --dump: DIR/dump-port.raw, QEMU's capture of COM2 */
	char *monitor;		/* QEMU's monitor socket, asked where the CPUs are on a timeout */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *read_whole(const char *path, size_t *len)
{
	FILE *f;
	struct stat st;
	char *buf = NULL;

	errno = 0;
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) < 0)
		goto fail;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		goto fail;
	fclose(f);
	*len = (size_t)st.st_size;
	return buf;
fail:
	spoor_err("exec: %s: %s", path, errno ? strerror(errno) : "read failed");
	free(buf);
	if (f)
		fclose(f);
	return NULL;
}

static int copy_entry(void *arg, const struct cpio_entry *e)
{
	cpio_add_entry(arg, e->name, e->mode, e->data, e->size);
	return 0;
}

/* HOST[:GUEST] -> the guest path; HOST alone goes to /tmp/<basename>. */
static int add_extra(struct cpio *c, char *spec)
{
	char *colon = strchr(spec, ':');
	char guest[4096];

	if (colon) {
		*colon = '\0';
		snprintf(guest, sizeof(guest), "%s", colon + 1);
	} else {
		const char *base = strrchr(spec, '/');

		snprintf(guest, sizeof(guest), "/tmp/%s", base ? base + 1 : spec);
	}
	if (!*spec || !*guest || guest[strlen(guest) - 1] == '/') {
		spoor_err("exec: --file wants HOST[:GUEST] naming files or directories, not '%s'", spec);
		return -1;
	}
	return cpio_add_tree(c, guest, spec);
}

static int write_initrd(struct exec_run *run, const struct qemu_config *cfg,
			char **scripts, char **names, int nr_scripts, char **files, int nr_files)
{
	size_t len;
	char *base = read_whole(cfg->initrd, &len);
	struct cpio c;
	FILE *f;
	int fd, rc = 0;

	if (!base)
		return -1;
	run->initrd = spoor_temp_name("spoor-exec");
	fd = mkstemp(run->initrd);
	f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f) {
		spoor_err("exec: cannot create %s: %s", run->initrd, strerror(errno));
		free(run->initrd);
		run->initrd = NULL;
		free(base);
		return -1;
	}
	cpio_begin(&c, f);
	if (cpio_read(base, len, copy_entry, &c) < 0) {
		spoor_err("exec: %s is not a cpio (newc) archive; run ninja", cfg->initrd);
		rc = -1;
	}
	free(base);
	for (int i = 0; i < nr_scripts && !rc; i++) {
		char guest[64];

		snprintf(guest, sizeof(guest), "/spoor/exec/%d.sh", i + 1);
		rc = cpio_add_file(&c, guest, scripts[i]);
		/* The name the guest's messages give the script: the user's, not ours. */
		snprintf(guest, sizeof(guest), "/spoor/exec/%d.name", i + 1);
		cpio_add_data(&c, guest, 0644, names[i], strlen(names[i]));
	}
	for (int i = 0; i < nr_files && !rc; i++)
		rc = add_extra(&c, files[i]);
	if (cpio_end(&c) < 0 && !rc) {
		spoor_err("exec: writing %s failed", run->initrd);
		rc = -1;
	}
	fclose(f);
	return rc;
}

static int start_qemu(struct exec_run *run, const struct qemu_config *cfg)
{
	char **argv = qemu_argv(cfg);
	int out[2], in[2];

	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(in, O_CLOEXEC) < 0) {
		spoor_err("exec: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	run->qemu = fork();
	if (run->qemu == 0) {
		/* QEMU must not outlive us, however we die. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(argv[0], argv);
		spoor_err("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	qemu_argv_free(argv);
	close(out[1]);
	close(in[0]);
	run->console = out[0];
	run->console_in = in[1];
	if (run->qemu < 0) {
		spoor_err("exec: fork: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* stdout went away: keep running, stop copying */
		buf += w;
		n -= (size_t)w;
	}
}

/*
 * Copy the console until QEMU closes it or a deadline passes; returns how
 * the run ended (0 for end of stream, or one of the reasons below).
 */
enum { RUN_EOF, RUN_TIMEOUT, RUN_SETTLE, RUN_SIGNAL };

static int pump_console(struct exec_run *run, struct console *con, double timeout)
{
	double deadline = timeout > 0 ? now() + timeout : 0, settle = 0;
	char in[4096];

	for (;;) {
		struct pollfd pfd = { .fd = run->console, .events = POLLIN };
		double t = now(), until = deadline;
		ssize_t n;

		if ((con->status >= 0 || con->panic) && !settle)
			settle = t + SETTLE_SECONDS;
		if (settle && (!until || settle < until))
			until = settle;
		if (until && t >= until)
			return until == settle ? RUN_SETTLE : RUN_TIMEOUT;
		if (stop_signal)
			return RUN_SIGNAL;
		if (poll(&pfd, 1, until ? (int)((until - t) * 1000) + 1 : -1) <= 0)
			continue;	/* timeout or EINTR: the checks above decide */
		n = read(run->console, in, sizeof(in));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			console_finish(con);
			return RUN_EOF;
		}
		console_feed(con, in, (size_t)n);
		if (settle)
			settle = now() + SETTLE_SECONDS;	/* still talking */
	}
}

/* Reap QEMU, killing it if it has not exited by the deadline; returns its wait status. */
static int reap_qemu(struct exec_run *run, double seconds)
{
	double deadline = now() + seconds;
	int wstatus;

	while (waitpid(run->qemu, &wstatus, WNOHANG) == 0) {
		if (now() >= deadline) {
			kill(run->qemu, SIGKILL);
			waitpid(run->qemu, &wstatus, 0);
			break;
		}
		poll(NULL, 0, 5);
	}
	run->qemu = 0;
	return wstatus;
}

/* The exit status of the run, with a word on stderr when it is not the guest's. */
static int verdict(const struct console *con, int how, int wstatus, double timeout)
{
	bool exited = WIFEXITED(wstatus);
	int code = exited ? WEXITSTATUS(wstatus) : -1;
	const char *what;

	/* isa-debug-exit turns the kernel's 0x10 into QEMU status (0x10 << 1) | 1. */
	if (con->panic || (exited && code == 33)) {
		spoor_err("exec: kernel panic");
		return EXIT_BROKEN;
	}
	if (con->status >= 0) {
		if (how == RUN_SETTLE)
			spoor_err("exec: warning: the guest did not power off after its status line");
		return con->status;
	}
	if (how == RUN_SIGNAL)
		return 128 + stop_signal;
	if (how == RUN_TIMEOUT && con->started) {
		spoor_err("exec: timed out after %g s", timeout);
		return EXIT_TIMEOUT;
	}
	if (how == RUN_TIMEOUT) {
		spoor_err("exec: the guest never reached the shell (timed out after %g s)", timeout);
		return EXIT_BROKEN;
	}
	/* A triple fault ends QEMU (-no-reboot) as quietly as a poweroff. */
	what = con->started ? "the guest stopped before its status line"
			    : "the guest never reached the shell";
	if (exited)
		spoor_err("exec: %s (QEMU exited with status %d)", what, code);
	else
		spoor_err("exec: %s (QEMU killed by signal %d)", what, WTERMSIG(wstatus));
	return EXIT_BROKEN;
}

static void exec_cleanup(struct exec_run *run)
{
	if (run->qemu > 0) {
		kill(run->qemu, SIGKILL);
		waitpid(run->qemu, NULL, 0);
	}
	if (run->console > 0)
		close(run->console);
	if (run->console_in > 0)
		close(run->console_in);
	if (run->initrd)
		unlink(run->initrd);
	if (run->iso)
		unlink(run->iso);
	free(run->append);
	free(run->initrd);
	free(run->iso);
	free(run->dump_port);
	if (run->monitor)
		unlink(run->monitor);
	free(run->monitor);
}

/* The guest's stdout to ours, its stderr to ours (console_emit_fn). */
static void show_stream(void *ctx, enum console_stream stream, const char *s, size_t n)
{
	write_all(stream == CONSOLE_STDERR ? 2 : 1, s, n);
}

static int run_guest(struct exec_run *run, const struct qemu_config *cfg, double timeout,
		     bool quiet)
{
	struct console con;
	int how, wstatus;

	if (start_qemu(run, cfg) < 0)
		return EXIT_BROKEN;
	console_init(&con, show_stream, NULL);
	con.quiet = quiet;
	how = pump_console(run, &con, timeout);
	if (quiet && !con.started && how != RUN_SIGNAL)
		spoor_err("exec: the boot failed under --quiet; run without it for the boot log");
	if (how == RUN_TIMEOUT && con.started && cfg->monitor) {
		qemu_monitor_report(cfg->monitor, cfg->kernel, stderr);
		pump_console(run, &con, TASK_DUMP_SECONDS);
	}
	/* QEMU closed COM1 only by exiting; otherwise it is stuck or we were told to stop. */
	wstatus = reap_qemu(run, how == RUN_EOF ? SETTLE_SECONDS : 0);
	return verdict(&con, how, wstatus, timeout);
}

/* The command line, checked: what cmd_exec() runs. */
struct exec_args {
	struct qemu_config cfg;
	double timeout;
	char **scripts;		/* host files, in order */
	char **names;		/* what the guest calls each: its path as given, "-c", "stdin" */
	char **temps;		/* scripts written from -c and stdin, removed at the end */
	int nr_scripts, nr_temps;
	bool keep_going, quiet;
	char **files;		/* --file specs, HOST[:GUEST] */
	int nr_files;
	const char *dump_dir;	/* --dump: where the guest's trace-dump files go */
};

static int parse_timeout(const char *arg, double *timeout)
{
	char *end;

	errno = 0;
	*timeout = strtod(arg, &end);
	if (errno || end == arg || *end || !(*timeout >= 0) || *timeout > 1e6) {
		spoor_err("exec: --timeout wants seconds, not '%s'", arg);
		return -1;
	}
	return 0;
}

/* A script given as text (-c, stdin): a temporary file named name in the guest. */
static int add_text_script(struct exec_args *a, const char *text, size_t len, char *name)
{
	char *path = spoor_temp_name("spoor-script");
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		spoor_err("exec: cannot write %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	a->temps[a->nr_temps++] = path;
	a->scripts[a->nr_scripts] = path;
	a->names[a->nr_scripts++] = name;
	return 0;
}

static int add_stdin_script(struct exec_args *a)
{
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	do {
		if (len == cap && !(text = realloc(text, cap = cap * 2 + 4096))) {
			spoor_err("exec: out of memory");
			return -1;
		}
		n = fread(text + len, 1, cap - len, stdin);
		len += n;
	} while (n);
	if (ferror(stdin)) {
		spoor_err("exec: reading the script from stdin: %s", strerror(errno));
		free(text);
		return -1;
	}
	rc = add_text_script(a, text, len, "stdin");
	free(text);
	return rc;
}

static int check_file(const char *what, const char *path, bool want_dir_too)
{
	struct stat st;
	const char *why = stat(path, &st) < 0 ? strerror(errno) :
			  !S_ISREG(st.st_mode) && !(want_dir_too && S_ISDIR(st.st_mode)) ?
			  "not a regular file" : NULL;

	if (why)
		spoor_err("exec: %s %s: %s", what, path, why);
	return why ? -1 : 0;
}

/* Returns 0, or -1 after saying what is wrong (a usage error). */
static int parse_args(struct exec_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		QEMU_LONG_OPTIONS,
		{ "timeout", required_argument, NULL, 't' },
		{ "file", required_argument, NULL, 'f' },
		{ "dump", required_argument, NULL, 'D' },
		{ "keep-going", no_argument, NULL, 'K' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool from_stdin = false;
	int opt, rc = 0;

	qemu_config_init(&a->cfg);
	a->timeout = 60;
	while (!rc && (opt = getopt_long(argc, argv, "+hc:q", longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage, stdout);
			exit(0);
		}
		if (opt == 'c')
			rc = add_text_script(a, optarg, strlen(optarg), "-c");
		else if (opt == 'K')
			a->keep_going = true;
		else if (opt == 'q')
			a->quiet = true;
		else if (opt == 't')
			rc = parse_timeout(optarg, &a->timeout);
		else if (opt == 'f')
			a->files[a->nr_files++] = optarg;
		else if (opt == 'D')
			a->dump_dir = optarg;
		else
			rc = qemu_config_option(&a->cfg, opt, optarg);
	}
	if (rc)
		return -1;
	for (int i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "-")) {
			if (from_stdin) {
				spoor_err("exec: stdin holds one script: '-' given twice");
				return -1;
			}
			from_stdin = true;
			if (add_stdin_script(a) < 0)
				return -1;
			continue;
		}
		if (check_file("script", argv[i], false) < 0)
			return -1;
		a->scripts[a->nr_scripts] = argv[i];
		a->names[a->nr_scripts++] = argv[i];
	}
	if (!a->nr_scripts) {
		spoor_err("exec: no script to run (give SCRIPT..., -c COMMANDS or -)");
		return -1;
	}
	/* --file HOST[:GUEST]: a missing HOST is the command line's fault, found before booting. */
	for (int i = 0; i < a->nr_files; i++) {
		char *host = strndup(a->files[i], strcspn(a->files[i], ":"));
		int r = host ? check_file("--file", host, true) : -1;

		free(host);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* Everything between a checked command line and a booted guest; 0 or -1. */
static int prepare(struct exec_run *run, struct exec_args *a)
{
	struct qemu_config *cfg = &a->cfg;

	if (qemu_config_check(cfg) < 0 ||
	    write_initrd(run, cfg, a->scripts, a->names, a->nr_scripts, a->files, a->nr_files) < 0)
		return -1;
	if (asprintf(&run->append, "spoor.exec=%d%s%s%s%s", a->nr_scripts,
		     a->keep_going ? " spoor.keep_going" : "", a->quiet ? " quiet" : "",
		     cfg->append ? " " : "", cfg->append ? cfg->append : "") < 0) {
		run->append = NULL;
		return -1;
	}
	cfg->append = run->append;
	cfg->initrd = run->initrd;
	if (cfg->want_iso) {
		run->iso = iso_build(cfg->kernel, cfg->initrd, cfg->append);
		if (!run->iso)
			return -1;
		cfg->iso = run->iso;
	}
	return 0;
}

static void free_args(struct exec_args *a)
{
	for (int i = 0; i < a->nr_temps; i++) {
		unlink(a->temps[i]);
		free(a->temps[i]);
	}
	free(a->temps);
	free(a->scripts);
	free(a->names);
	free(a->files);
}

/* A fresh name for the monitor's socket (QEMU creates it), or NULL to go without. */
static char *monitor_path(void)
{
	char *path = spoor_temp_name("spoor-mon");
	int fd = mkstemp(path);

	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	unlink(path);
	return path;
}

int cmd_exec(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	size_t n = (size_t)argc + 1;
	struct exec_args a = {
		.files = calloc(n, sizeof(char *)), .scripts = calloc(n, sizeof(char *)),
		.names = calloc(n, sizeof(char *)), .temps = calloc(n, sizeof(char *)),
	};
	struct exec_run run = { 0 };
	int rc = EXIT_USAGE;

	if (!a.files || !a.scripts || !a.names || !a.temps || parse_args(&a, argc, argv) < 0) {
		fprintf(stderr, "%.*s(spoor exec --help tells more)\n", (int)strcspn(usage, "\n") + 1, usage);
		goto out;
	}
	/* From here on a signal ends the run through exec_cleanup(). */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (a.dump_dir && ((mkdir(a.dump_dir, 0777) < 0 && errno != EEXIST) ||
			   asprintf(&run.dump_port, "%s/%s", a.dump_dir, TRACEDAT_PORT_FILE) < 0)) {
		spoor_err("exec: --dump %s: %s", a.dump_dir, strerror(errno));
		rc = EXIT_BROKEN;
		goto out;
	}
	/* QEMU keeps what an old file holds: start from an empty port. */
	if (run.dump_port)
		unlink(run.dump_port);
	a.cfg.dump_port = run.dump_port;
	a.cfg.monitor = run.monitor = monitor_path();
	rc = prepare(&run, &a) < 0 ? EXIT_BROKEN : run_guest(&run, &a.cfg, a.timeout, a.quiet);
	/* Dumps are collected whatever the scripts said: a failing run is when they matter. */
	if (a.dump_dir && rc != EXIT_BROKEN)
		tracedat_collect(a.dump_dir);
	exec_cleanup(&run);
out:
	free_args(&a);
	return rc;
}
