/*
 * sysfuzz [-s SEED] [-t SECONDS] [-p WORKERS] [-w THREADS] [-x NR,..] [-o NR,..] [-v]
 * (-x: never call these numbers; -o: call only these; -v: log each call to stderr)
 * sysfuzz -F [-k KIND]: the fault children one by one (faultcheck.c)
 *
 * The coordinator: forks the workers, waits for them (SIGKILLing any still
 * there WORKER_GRACE seconds after the deadline, and giving up on one that
 * SIGKILL does not end within KILL_GRACE seconds), removes /tmp/sfz, and
 * prints what was done and how every child ended. Exit 0 only if every
 * worker exited 0 and every child was reaped with a status its kind allows.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sysfuzz.h"

#define WORKER_GRACE	30
#define KILL_GRACE	10

struct options opt = { .seed = 1, .seconds = 10, .workers = 4, .threads = 2, .fault_kind = -1 };
struct shared *shared;
int log_fd = -1;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr, "usage: sysfuzz [-s SEED] [-t SECONDS] [-p WORKERS<=%d] [-w THREADS<=%d] "
			"[-x NR,NR...] [-o NR,NR...] [-K KIND,KIND...] [-v]\n       sysfuzz -F [-k KIND] [-K KIND,KIND...]\n", MAX_WORKERS, MAX_THREADS);
	exit(2);
}

/* -x/-o/-K: mark the numbers of a comma-separated list in table[0..max]. */
static void skip_list(unsigned char *table, unsigned long max, char *list, unsigned char skip)
{
	for (char *s = list; *s;) {
		unsigned long nr = strtoul(s, &s, 0);

		if (nr <= max)
			table[nr] = skip;
		if (*s)
			s++;
	}
}

static void parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "s:t:p:w:x:o:vFk:K:")) != -1) {
		switch (c) {
		case 's':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			opt.seconds = atoi(optarg);
			break;
		case 'p':
			opt.workers = atoi(optarg);
			break;
		case 'w':
			opt.threads = atoi(optarg);
			break;
		case 'x':
			skip_list(opt.skip, NR_MAX, optarg, 1);
			break;
		case 'o':	/* only these: every other number is skipped */
			memset(opt.skip, 1, sizeof(opt.skip));
			skip_list(opt.skip, NR_MAX, optarg, 0);
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case 'F':
			opt.faults = 1;
			break;
		case 'k':
			opt.fault_kind = atoi(optarg);
			break;
		case 'K':
			skip_list(opt.fault_skip, MAX_FAULT_KINDS - 1, optarg, 1);
			break;
		default:
			usage();
		}
	}
	if (opt.seconds < 0 || opt.workers < 1 || opt.workers > MAX_WORKERS || opt.threads < 1 ||
	    opt.threads > MAX_THREADS || optind != argc)
		usage();
}

/* A worker that died left its children to init: end them, so nothing outlives the run. */
static void orphans(int w)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (shared->w[w].inflight[i] > 1)
			kill(shared->w[w].inflight[i], SIGKILL);
}

/* The call thread t of worker w is making, or made last. */
static void print_call(int w, int t)
{
	struct call_note *n = &shared->w[w].now[t];

	if (n->nr < 0 || n->nr > NR_MAX)
		return;
	printf("sysfuzz:   thread %d: call %ld %s(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n", t, n->nr,
	       call_desc((unsigned)n->nr)->name, (unsigned long)n->args[0], (unsigned long)n->args[1],
	       (unsigned long)n->args[2], (unsigned long)n->args[3], (unsigned long)n->args[4],
	       (unsigned long)n->args[5]);
}

static void report_crash(int w)
{
	struct crash *c = &shared->w[w].crash;

	if (!c->sig)
		return;
	printf("sysfuzz:   signal %d at %#lx, rip %#lx rsp %#lx, in thread %d (pools %#lx, private pages %#lx, "
	       "shared %p)\n", c->sig, (unsigned long)c->addr, (unsigned long)c->rip, (unsigned long)c->rsp,
	       c->thread, (unsigned long)c->pools, (unsigned long)c->priv, (void *)shared);
	if (c->thread >= 0 && c->thread < opt.threads)
		print_call(w, c->thread);
}

static const char *variant_name(int v)
{
	return v == 0 ? "default" : v == 1 ? "blocked" : v == 2 ? "ignored" : "-";
}

static void describe_status(char *buf, size_t len, int status)
{
	if (status == -1)
		snprintf(buf, len, "not found by wait4");
	else if (status == -2)
		snprintf(buf, len, "hung, SIGKILLed after the timeout");
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "status 0x%x", status);
}

/* Prints every unexpected end; returns how many there were. */
static int report_bad(int w)
{
	struct worker_stats *s = &shared->w[w];
	char how[96];

	for (int i = 0; i < s->nbad && i < MAX_BAD; i++) {
		struct bad_child *b = &s->bad[i];

		describe_status(how, sizeof(how), b->status);
		if (b->kind >= 0)
			printf("sysfuzz: BAD worker %d child %d (fault \"%s\", signal %s): %s, wanted signal %d\n",
			       w, (int)b->pid, fault_name(b->kind), variant_name(b->variant), how,
			       fault_signal(b->kind));
		else if (b->variant < 0)
			printf("sysfuzz: BAD worker %d: stray child %d nobody forked: %s\n", w, (int)b->pid, how);
		else
			printf("sysfuzz: BAD worker %d fuzz child %d: %s\n", w, (int)b->pid, how);
	}
	if (s->nbad > MAX_BAD)
		printf("sysfuzz: BAD worker %d: %d more\n", w, s->nbad - MAX_BAD);
	return s->nbad;
}

/* Where the time went: the numbers with the most cycles in the kernel. */
static void print_slowest(void)
{
	struct counts *c = &shared->counts;
	unsigned long total = 0;
	int top[5] = { -1, -1, -1, -1, -1 };

	for (int nr = 0; nr <= NR_MAX; nr++) {
		total += c->nr_cycles[nr];
		for (int i = 0; i < 5; i++)
			if (top[i] < 0 || c->nr_cycles[nr] > c->nr_cycles[top[i]]) {
				memmove(top + i + 1, top + i, (4 - i) * sizeof(int));
				top[i] = nr;
				break;
			}
	}
	printf("sysfuzz: most time in:");
	for (int i = 0; i < 5 && total; i++)
		printf(" %d %s %.0f%% (%lu calls)%s", top[i], call_desc(top[i])->name,
		       100.0 * c->nr_cycles[top[i]] / total, c->nr_calls[top[i]], i < 4 ? "," : "");
	printf("\n");
}

/* Numbers never called (skipped ones aside): children too few for the time given. */
static void print_uncalled(void)
{
	int n = 0;

	for (int nr = 0; nr <= NR_MAX; nr++)
		if (!shared->counts.nr_calls[nr] && !opt.skip[nr] && call_desc(nr)->cls != CL_NEVER)
			printf("%s %d", n++ ? "," : "sysfuzz: never called:", nr);
	if (n)
		printf("\n");
}

static void summary(double secs, int bad)
{
	unsigned long calls = shared->counts.calls, forked = 0, reaped = 0, exits = 0, timeouts = 0, sigs[65] = { 0 };
	unsigned long fault_ok[64] = { 0 };
	int tried = 0, succeeded = 0;

	for (int w = 0; w < opt.workers; w++) {
		struct worker_stats *s = &shared->w[w];

		forked += s->forked;
		reaped += s->reaped;
		exits += s->fuzz_exit;
		timeouts += s->fuzz_timeout;
		for (int i = 0; i < 65; i++)
			sigs[i] += s->fuzz_sig[i];
		for (int k = 0; k < fault_kinds(); k++)
			fault_ok[k] += s->fault_ok[k];
	}
	for (int nr = 0; nr <= NR_MAX; nr++) {
		tried += shared->counts.nr_calls[nr] != 0;
		succeeded += shared->counts.nr_ok[nr] != 0;
	}
	printf("sysfuzz: %lu calls in %.1f s: %.0f calls/s; %d of %d numbers called, %d succeeded at least once\n",
	       calls, secs, secs > 0 ? calls / secs : 0.0, tried, NR_MAX + 1, succeeded);
	print_slowest();
	print_uncalled();
	printf("sysfuzz: children: %lu forked, %lu reaped as expected\n", forked, reaped);
	for (int k = 0; k < fault_kinds(); k++)
		if (opt.fault_skip[k])
			printf("sysfuzz:   fault %-32s skipped (-K)\n", fault_name(k));
		else
			printf("sysfuzz:   fault %-32s %5lu killed by signal %d (%s)\n", fault_name(k),
			       fault_ok[k], fault_signal(k), strsignal(fault_signal(k)));
	printf("sysfuzz:   fuzz children: %lu exited, %lu blocked or traced and SIGKILLed", exits, timeouts);
	for (int i = 1; i <= 64; i++)
		if (sigs[i])
			printf(", %lu signal %d", sigs[i], i);
	printf("\n");
	printf("sysfuzz: %s (%d unexpected)\n", bad ? "FAIL" : "PASS", bad);
}

/*
 * Children make every call, mount, settimeofday and sethostname included:
 * harmless under Spoor (no such calls, one throwaway guest) but not for
 * root on a real machine. There, run it as an unprivileged user.
 */
static bool refuse_host(void)
{
	struct utsname u;

	if (uname(&u) == 0 && strcmp(u.sysname, "Spoor") && geteuid() == 0) {
		fprintf(stderr, "sysfuzz: refusing to run as root on %s (run as an unprivileged user)\n",
			u.sysname);
		return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_WORKERS];
	int alive, bad = 0;
	uint64_t start, killed_ns = 0;

	parse(argc, argv);
	if (refuse_host())
		return 2;
	if (opt.faults)
		return fault_check(opt.fault_kind) ? 1 : 0;
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("sysfuzz: mmap");
		return 1;
	}
	if (opt.verbose)
		log_fd = fcntl(2, F_DUPFD, 250);
	calls_init();
	printf("sysfuzz: seed %llu, %d workers x %d threads, %d s\n", (unsigned long long)opt.seed,
	       opt.workers, opt.threads, opt.seconds);
	fflush(stdout);
	start = now_ns();
	shared->deadline_ns = start + (uint64_t)opt.seconds * 1000000000ULL;
	for (int w = 0; w < opt.workers; w++) {
		pids[w] = fork();
		if (pids[w] < 0) {
			perror("sysfuzz: fork");
			return 1;
		}
		if (pids[w] == 0)
			worker_main(w);
	}
	alive = opt.workers;
	while (alive) {
		int status;
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p < 0 && errno != EINTR)
			break;
		for (int w = 0; p > 0 && w < opt.workers; w++) {
			char how[96];

			if (pids[w] != p)
				continue;
			pids[w] = 0;
			alive--;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && shared->w[w].done)
				continue;
			describe_status(how, sizeof(how), status);
			printf("sysfuzz: BAD worker %d (pid %d) %s\n", w, (int)p, how);
			report_crash(w);
			orphans(w);
			bad++;
		}
		if (p > 0)
			continue;
		if (!killed_ns && now_ns() > shared->deadline_ns + WORKER_GRACE * 1000000000ULL) {
			for (int w = 0; w < opt.workers; w++)
				if (pids[w]) {
					printf("sysfuzz: BAD worker %d (pid %d) still running %d s after the end: SIGKILL\n",
					       w, (int)pids[w], WORKER_GRACE);
					for (int t = 0; t < opt.threads; t++)
						print_call(w, t);
					kill(pids[w], SIGKILL);
				}
			killed_ns = now_ns();
		}
		/* A task SIGKILL cannot end is stuck in the kernel: say so and stop waiting. */
		if (killed_ns && now_ns() > killed_ns + KILL_GRACE * 1000000000ULL) {
			for (int w = 0; w < opt.workers; w++)
				if (pids[w]) {
					printf("sysfuzz: BAD worker %d (pid %d) still there %d s after SIGKILL\n", w,
					       (int)pids[w], KILL_GRACE);
					bad++;
				}
			break;
		}
		usleep(10000);
	}
	pools_cleanup_files();
	for (int w = 0; w < opt.workers; w++)
		bad += report_bad(w);
	summary((double)(now_ns() - start) / 1e9, bad);
	return bad ? 1 : 0;
}
