/*
 * sysfuzz: a hostile-input system call fuzzer for Spoor (and Linux).
 *
 * Shape: the coordinator (main.c) forks worker processes; each worker
 * (worker.c) runs several pthreads that make random system calls, and its
 * main thread now and then forks a child: either a "fault child" that
 * executes one faulting instruction (faults.c) and must die by one exact
 * signal, or a "fuzz child" that makes the calls that could wedge or kill
 * the caller (rt_sigreturn, exit, clone, pause, ...) and may die any way.
 * Arguments come from pools of boundary values (args.c); calls.c says, per
 * Linux x86_64 number, what each argument is and where the call may run.
 * Every random choice flows from the seed, so a seed replays the same
 * sequence (only how far each thread gets depends on timing).
 */
#ifndef SYSFUZZ_H
#define SYSFUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define NR_MAX		460	/* fuzz numbers 0..NR_MAX (Linux 6.12 ends at 462) */
#define NR_NONE		(NR_MAX + 1)	/* pick_nr: no number may be called here */
#define MAX_WORKERS	32
#define MAX_THREADS	8
#define POOL_FDS	12	/* descriptors a process opens for the fd pool */
#define POOL_TMP_FD0	5	/* pools.fds[5], [6]: /tmp/sfz and /tmp/sfz/a */

/* xoshiro256** state: one per thread, seeded by splitmix64 from (seed, ids). */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}
static inline bool rng_chance(struct rng *r, unsigned one_in)
{
	return rng_below(r, one_in) == 0;
}

/* Where a call may run: decided per number in calls.c. */
enum call_class {
	CL_ANY,		/* in worker threads too: cannot kill, wedge or unmap the caller */
	CL_CHILD,	/* only in fuzz children: may end, block or corrupt the caller */
	CL_NEVER,	/* would end the test itself (reboot, kexec) */
};

/* What one argument is, so its value comes from the matching pool. */
enum arg_kind {
	A_ANY,		/* anything: the whole boundary pool */
	A_FD,		/* descriptor */
	A_TFD,		/* descriptor a call may change (chmod, truncate): /tmp/sfz only */
	A_BUF,		/* user buffer the kernel reads or writes */
	A_LEN,		/* byte or element count */
	A_PATH,		/* path name that may be a system file: opened read-only */
	A_TPATH,	/* path name the call may create/remove: only under /tmp/sfz */
	A_FLAGS,	/* bit mask */
	A_OFF,		/* file offset */
	A_PID,		/* pid/tid: own pid, nothing, or a pid that cannot exist */
	A_SIG,		/* signal number */
	A_MADDR,	/* address for mmap/munmap/...: the worker's arena */
	A_MLEN,		/* length for those: stays inside the arena in a worker */
	A_TS,		/* pointer to a timespec (a short one in a worker) */
	A_IOV,		/* pointer to an iovec array */
	A_SMALL,	/* small integer (which, how, resource, clock id, ...) */
};

struct call_note;
struct counts;

/* One fuzzing context: a worker thread or a fuzz child. */
struct fuzzer {
	struct rng rng;
	bool child;		/* a fuzz child: CL_CHILD calls allowed, wide arguments */
	int worker, thread;
	pid_t pid, tid;		/* own ids, for A_PID */
	uint64_t brk0;		/* the break when fuzzing began: never shrink below it */
	struct call_note *note;	/* the call being made (shared: the coordinator reads it) */
	char *priv;		/* PRIV_PAGES private: timespecs, iovecs, path strings */
	char *priv_edge;	/* = priv + PRIV_PAGES * PAGE, an unmapped page */
	struct counts *counts;	/* where this fuzzer counts its calls */
};

/* Memory a process's fuzzers share (args.c). */
struct pools {
	char *bufs;		/* BUF_PAGES of buffers the kernel reads and writes */
	char *rdonly;		/* a read-only page: copy_to_user must fail */
	char *edge;		/* a page whose next page is unmapped */
	char *freed;		/* a range that was mapped and is no longer */
	char *arena;		/* ARENA_PAGES for mmap/munmap/mprotect/mremap in workers */
	char *priv;		/* MAX_THREADS private areas (pools_priv) */
	int fds[POOL_FDS];
};
#define BUF_PAGES	16
#define ARENA_PAGES	32
#define PRIV_PAGES	4
#define PAGE		4096UL
extern struct pools pools;

void pools_init(struct rng *r);
void pools_open_fds(void);
void pools_cleanup_files(void);
uint64_t arg_value(struct fuzzer *f, enum arg_kind kind);
char *pools_priv(int thread);

/* calls.c */
struct call_desc {
	enum call_class cls;
	unsigned char weight;	/* relative frequency */
	unsigned char arg[6];	/* enum arg_kind */
	const char *name;	/* for -v logs */
};
const struct call_desc *call_desc(unsigned nr);
long fuzz_one(struct fuzzer *f, unsigned nr);	/* sanitize, call, clean up */
unsigned pick_nr(struct fuzzer *f);
void calls_init(void);
long raw_syscall6(long nr, long a, long b, long c, long d, long e, long g);
long raw_fork_syscall(long nr, long a, long b, long c, long d, long e);

/* faults.c: child that must die by fault_signal(kind). */
#define MAX_FAULT_KINDS	64
int fault_kinds(void);
const char *fault_name(int kind);
int fault_signal(int kind);
void fault_run(int kind, int variant, struct rng *r) __attribute__((noreturn));
#define FAULT_VARIANTS	3	/* default action, signal blocked, signal ignored */
int fault_check(int only);	/* faultcheck.c: returns the number of bad ends */
#define FAULT_INTN	14	/* the int $N kind: one vector per run under -F */
int fault_int_vectors(void);
int fault_vector_number(int i);
extern int fault_vector;	/* index of the int $N vector, -1: random */

/* options and filters (main.c) */
struct options {
	uint64_t seed;
	int seconds;
	int workers;
	int threads;
	int verbose;
	int faults;		/* -F: run the fault children one by one instead */
	int fault_kind;		/* -k: only this one (-1: all) */
	unsigned char skip[NR_MAX + 1];	/* -x: numbers never called */
	/*
	 * -K: fault kinds never run. For instructions the CPU model gets wrong:
	 * under QEMU TCG, Linux too sees SIGILL for icebp, no #XM for SSE and
	 * an oops for iretq to a kernel CS (docs/sysfuzz.md).
	 */
	unsigned char fault_skip[MAX_FAULT_KINDS];
};
extern struct options opt;
extern int log_fd;	/* -v: each call is logged here before it is made */

/* A child whose end was not what its kind allows, kept for the report. */
struct bad_child {
	int kind;		/* fault kind, or -1 for a fuzz child */
	int variant;
	int status;		/* wait status, or -1: could not be reaped */
	pid_t pid;
};
#define MAX_BAD		16
#define MAX_CHILDREN	4	/* children a worker has at once */

/* The call a thread makes now (or made last): number and arguments. */
struct call_note {
	long nr;		/* -1: none yet */
	uint64_t args[6];
};

/* How a worker died by a fault (crash.c): where, and which thread. */
struct crash {
	int sig;		/* 0: no fault */
	int thread;
	uint64_t addr, rip, rsp;
	uint64_t pools, priv;	/* where the worker's pools and private pages are */
};
void crash_watch(struct crash *c);
void crash_current(const struct fuzzer *f);
void crash_forget(void);

/* What one worker did, in memory shared with the coordinator (MAP_SHARED). */
struct worker_stats {
	unsigned long fault_ok[64];	/* fault children per kind that died as they must */
	unsigned long fuzz_exit;	/* fuzz children that exited */
	unsigned long fuzz_sig[65];	/* fuzz children killed by each signal */
	unsigned long fuzz_timeout;	/* fuzz children that blocked (or stopped) and were SIGKILLed */
	unsigned long forked;		/* children forked */
	unsigned long reaped;		/* children reaped with an allowed status */
	int nbad;
	struct bad_child bad[MAX_BAD];
	int done;			/* the worker finished its loop */
	pid_t inflight[MAX_CHILDREN];	/* its children not yet reaped: the coordinator kills
					   them if the worker dies (no PR_SET_PDEATHSIG on Spoor) */
	struct crash crash;
	struct call_note now[MAX_THREADS];	/* each thread's current call */
};
/* Calls made, in all and per number (relaxed atomic adds: threads share one). */
struct counts {
	unsigned long calls;
	unsigned long nr_calls[NR_MAX + 1];
	unsigned long nr_ok[NR_MAX + 1];	/* ... that returned >= 0 (or a pointer) */
	unsigned long nr_cycles[NR_MAX + 1];	/* TSC cycles spent in them: where the time goes */
};

struct shared {
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC: workers stop fuzzing here */
	struct counts counts;		/* all workers' threads, and the children they reaped */
	struct worker_stats w[MAX_WORKERS];
};
extern struct shared *shared;

/* worker.c */
void worker_main(int idx) __attribute__((noreturn));

#endif
