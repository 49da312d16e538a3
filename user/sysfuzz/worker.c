/*
 * A worker process: its threads fuzz side by side, and its main thread
 * also forks the children (fault and fuzz children), keeps at most
 * MAX_INFLIGHT of them, reaps each with wait4 on its pid, SIGKILLs one
 * that blocks past CHILD_TIMEOUT_NS, and checks how each one ended. Only
 * the main thread ever waits, so no status is taken by anyone else.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sysfuzz.h"

#define MAX_INFLIGHT	MAX_CHILDREN
#define CHILD_TIMEOUT_NS	3000000000ULL
#define WALL	0x40000000	/* __WALL: also children with an exit signal other than SIGCHLD */

/*
 * A fuzz child counts its calls in its slot's own shared pages, never in
 * the coordinator's: with its registers restored from garbage by a fuzzed
 * rt_sigreturn, a child may run our code in any state and write anywhere
 * it can. So children unmap the coordinator's memory first, and the worker
 * adds a slot's counts to the totals only if they are believable.
 */
#define SLOT_PAGES	((sizeof(struct counts) + PAGE - 1) / PAGE)
#define MAX_CHILD_CALLS	1000

struct child {
	pid_t pid;		/* 0: free slot */
	int kind;		/* fault kind, -1: fuzz child */
	int variant;
	uint64_t start_ns;
	bool killed;		/* we SIGKILLed it after the timeout */
};

static struct child inflight[MAX_INFLIGHT];
static struct counts *slot_counts[MAX_INFLIGHT];
static struct worker_stats *ws;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void setup_fuzzer(struct fuzzer *f, int worker, int thread, bool child)
{
	f->child = child;
	f->worker = worker;
	f->thread = thread;
	f->pid = getpid();
	f->tid = (pid_t)raw_syscall6(186, 0, 0, 0, 0, 0, 0);
	f->counts = &shared->counts;
	f->note = &ws->now[thread];
	f->brk0 = (uint64_t)raw_syscall6(12, 0, 0, 0, 0, 0, 0);
	f->priv = pools_priv(thread);
	f->priv_edge = f->priv + PRIV_PAGES * PAGE;
}

static void fuzz_until_deadline(struct fuzzer *f)
{
	while (now_ns() < shared->deadline_ns)
		for (int i = 0; i < 64; i++)
			fuzz_one(f, pick_nr(f));
}

static void *thread_main(void *arg)
{
	struct fuzzer *f = arg;

	f->tid = (pid_t)raw_syscall6(186, 0, 0, 0, 0, 0, 0);
	crash_current(f);
	fuzz_until_deadline(f);
	return NULL;
}

static void record_bad(struct child *c, int status)
{
	if (ws->nbad < MAX_BAD)
		ws->bad[ws->nbad] = (struct bad_child){ c->kind, c->variant, status, c->pid };
	ws->nbad++;
}

static void add_counts(struct counts *c)
{
	struct counts *t = &shared->counts;

	if (c->calls > MAX_CHILD_CALLS)
		return;
	for (int nr = 0; nr <= NR_MAX; nr++)
		if (c->nr_calls[nr] > MAX_CHILD_CALLS || c->nr_ok[nr] > c->nr_calls[nr])
			return;
	__atomic_add_fetch(&t->calls, c->calls, __ATOMIC_RELAXED);
	for (int nr = 0; nr <= NR_MAX; nr++) {
		__atomic_add_fetch(&t->nr_calls[nr], c->nr_calls[nr], __ATOMIC_RELAXED);
		__atomic_add_fetch(&t->nr_ok[nr], c->nr_ok[nr], __ATOMIC_RELAXED);
		__atomic_add_fetch(&t->nr_cycles[nr], c->nr_cycles[nr], __ATOMIC_RELAXED);
	}
}

/* Did this end fit the child's kind? Count it either way. */
static void account(struct child *c, int status)
{
	add_counts(slot_counts[c - inflight]);
	if (c->kind >= 0) {
		if (!c->killed && WIFSIGNALED(status) && WTERMSIG(status) == fault_signal(c->kind)) {
			ws->fault_ok[c->kind]++;
			ws->reaped++;
		} else {
			record_bad(c, c->killed ? -2 : status);
		}
	} else if (c->killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		ws->fuzz_timeout++;
		ws->reaped++;
	} else if (WIFEXITED(status)) {
		ws->fuzz_exit++;
		ws->reaped++;
	} else if (WIFSIGNALED(status) && WTERMSIG(status) > 0 && WTERMSIG(status) <= 64) {
		ws->fuzz_sig[WTERMSIG(status)]++;
		ws->reaped++;
	} else {
		record_bad(c, status);
	}
	c->pid = 0;
	ws->inflight[c - inflight] = 0;
}

/* Reap what has ended; SIGKILL what ran too long. */
static int reap(void)
{
	int busy = 0;

	for (int i = 0; i < MAX_INFLIGHT; i++) {
		struct child *c = &inflight[i];
		int status;
		pid_t r;

		if (!c->pid)
			continue;
		r = wait4(c->pid, &status, WNOHANG | WALL, NULL);
		if (r == c->pid && WIFSTOPPED(status)) {
			/* a fuzz child that asked for PTRACE_TRACEME stops at each signal: end it */
			kill(c->pid, SIGKILL);
			c->killed = true;
			busy++;
			continue;
		}
		if (r == c->pid) {
			account(c, status);
			continue;
		}
		if (r < 0) {	/* the kernel lost our child */
			record_bad(c, -1);
			c->pid = 0;
			ws->inflight[i] = 0;
			continue;
		}
		busy++;
		if (!c->killed && now_ns() - c->start_ns > CHILD_TIMEOUT_NS) {
			kill(c->pid, SIGKILL);
			c->killed = true;
		}
	}
	return busy;
}

/* A fuzz child: its own process group and descriptors, then anything goes. */
static void fuzz_child(struct fuzzer *parent, uint64_t seed, struct counts *counts) __attribute__((noreturn));
static void fuzz_child(struct fuzzer *parent, uint64_t seed, struct counts *counts)
{
	struct fuzzer f = *parent;
	unsigned n;

	setpgid(0, 0);
	pools_open_fds();
	static struct call_note note;	/* the coordinator's memory is gone: a private one */

	setup_fuzzer(&f, parent->worker, parent->thread, true);
	f.counts = counts;
	f.note = &note;
	rng_seed(&f.rng, seed, 0);
	n = 20 + (unsigned)rng_below(&f.rng, 500);
	for (unsigned i = 0; i < n; i++)
		fuzz_one(&f, pick_nr(&f));
	/* children of fuzzed fork/clone left at once: reap them here */
	while (wait4(-1, NULL, WNOHANG | WALL, NULL) > 0)
		;
	raw_syscall6(231, 0, 0, 0, 0, 0, 0);
	__builtin_unreachable();
}

static void spawn(struct fuzzer *f, bool faulty)
{
	struct child *c = NULL;
	uint64_t seed = rng_next(&f->rng);
	int kind = (int)rng_below(&f->rng, (uint64_t)fault_kinds());
	int variant = (int)rng_below(&f->rng, FAULT_VARIANTS);
	pid_t pid;

	if (faulty && opt.fault_skip[kind])
		faulty = false;
	for (int i = 0; i < MAX_INFLIGHT; i++)
		if (!inflight[i].pid)
			c = &inflight[i];
	if (!c)
		return;
	memset(slot_counts[c - inflight], 0, sizeof(struct counts));
	pid = fork();
	if (pid == 0) {
		struct rng r;

		/* should the worker die, so do its children: nothing is left behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		crash_forget();
		munmap(shared, sizeof(*shared));
		rng_seed(&r, seed, 1);
		if (faulty)
			fault_run(kind, variant, &r);
		fuzz_child(f, seed, slot_counts[c - inflight]);
	}
	if (pid < 0)
		return;
	ws->forked++;
	ws->inflight[c - inflight] = pid;
	*c = (struct child){ pid, faulty ? kind : -1, variant, now_ns(), false };
}

/* Descriptors fuzzed calls opened pile up: close all but the pool now and then. */
static void close_strays(void)
{
	int top = 0;

	for (int i = 0; i < POOL_FDS; i++)
		if (pools.fds[i] > top)
			top = pools.fds[i];
	for (int fd = top + 1; fd < 256; fd++)
		if (fd != log_fd)
			close(fd);
}

void worker_main(int idx)
{
	static struct fuzzer fz[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	struct rng r;
	struct fuzzer *f = &fz[0];
	int status;

	ws = &shared->w[idx];
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	crash_watch(&ws->crash);
	crash_current(&fz[0]);
	/* Signals our own fuzzed calls can raise and whose default would end us. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGIO, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	rng_seed(&r, opt.seed, 1000 + (uint64_t)idx);
	for (int i = 0; i < MAX_INFLIGHT; i++) {	/* before the pools: not in their holes */
		slot_counts[i] = mmap(NULL, SLOT_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (slot_counts[i] == MAP_FAILED)
			exit(3);
	}
	pools_init(&r);
	pools_open_fds();
	ws->crash.pools = (uint64_t)pools.bufs;
	ws->crash.priv = (uint64_t)pools.priv;
	for (int t = 0; t < opt.threads; t++) {
		ws->now[t].nr = -1;
		setup_fuzzer(&fz[t], idx, t, false);
		rng_seed(&fz[t].rng, opt.seed, 2000 + (uint64_t)idx * MAX_THREADS + (uint64_t)t);
	}
	for (int t = 1; t < opt.threads; t++)
		if (pthread_create(&tids[t], NULL, thread_main, &fz[t]))
			exit(4);
	for (unsigned long batch = 0; now_ns() < shared->deadline_ns; batch++) {
		for (int i = 0; i < 32; i++) {
			unsigned u = (unsigned)rng_below(&f->rng, 1000);

			if (u < 6)
				spawn(f, true);
			else if (u < 10)
				spawn(f, false);
			else
				fuzz_one(f, pick_nr(f));
		}
		reap();
		if (batch % 64 == 63)
			close_strays();
	}
	for (int t = 1; t < opt.threads; t++)
		pthread_join(tids[t], NULL);
	while (reap()) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
	}
	/* Anything else still ours was never forked by us: a kernel bookkeeping error. */
	for (pid_t p; (p = wait4(-1, &status, WNOHANG | WALL, NULL)) > 0;) {
		struct child stray = { p, -1, -1, 0, false };

		record_bad(&stray, status);
	}
	ws->done = 1;
	exit(0);
}
