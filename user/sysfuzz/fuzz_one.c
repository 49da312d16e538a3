/*
 * One fuzzed call: draw the arguments, rewrite the few that would hurt the
 * caller (a worker thread must survive; a child only must not reach
 * anybody else), log it under -v, make it, and tidy up after it (a worker
 * gives back mappings that landed outside its arena).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "sysfuzz.h"

#define O_ACCMODE_	03
#define O_CREAT_	0100
#define O_TRUNC_	01000
#define O_APPEND_	02000
#define O_NONBLOCK_	04000
#define O_ASYNC_	020000
#define O_TMPFILE_	020000000
#define MAP_FIXED_	0x10
#define MAP_FIXED_NOREPLACE_	0x100000
#define MREMAP_MAYMOVE_	1
#define MREMAP_FIXED_	2
#define CLONE_PARENT_	0x8000
#define TASK_SIZE_	0x00007ffffffff000UL

static bool in_arena(uint64_t a)
{
	return a >= (uint64_t)pools.arena && a < (uint64_t)pools.arena + ARENA_PAGES * PAGE;
}

#define TOP_PAGE_	(TASK_SIZE_ - PAGE)

/*
 * The address and length of munmap/mprotect/madvise/mremap/mmap(MAP_FIXED)
 * in a worker: a range that starts in the arena stays in it, and any other
 * address must be one the kernel has to refuse (unaligned, kernel half,
 * non-canonical) or the last user page, where nothing of ours lives. A
 * plausible address elsewhere (0, 0x10000) with a huge length would take
 * the program's own text and heap: such an address is moved into the arena.
 * A length running past the end of user space is left for the kernel to
 * refuse (Linux does: EINVAL/ENOMEM), except for mprotect, which Linux
 * applies up to the first hole before it fails (partial): clamped too.
 */
static void confine(struct rng *r, uint64_t *addr, uint64_t *len, bool partial)
{
	uint64_t end = (uint64_t)pools.arena + ARENA_PAGES * PAGE;

	if (!in_arena(*addr) && *addr < TASK_SIZE_ && !(*addr & (PAGE - 1)) && *addr != TOP_PAGE_)
		*addr = (uint64_t)pools.arena + rng_below(r, ARENA_PAGES) * PAGE;
	if (in_arena(*addr) && *len > end - *addr && (partial || *len <= TASK_SIZE_ - *addr))
		*len = end - *addr;
}

/*
 * Does a path we generated start with prefix? Only our private page is
 * looked at, and never past its end: some names run into the hole on purpose.
 */
static bool priv_prefix(struct fuzzer *f, uint64_t path, const char *prefix)
{
	size_t n = strlen(prefix);

	return path >= (uint64_t)f->priv && path < (uint64_t)f->priv_edge &&
	       n <= (uint64_t)f->priv_edge - path && !memcmp((const char *)path, prefix, n);
}

/* System files are only ever opened read-only; /tmp/sfz names may be anything. */
static void open_flags(struct fuzzer *f, uint64_t path, uint64_t *flags)
{
	bool ours = priv_prefix(f, path, "/tmp/sfz");

	if (!ours)
		*flags &= ~(uint64_t)(O_ACCMODE_ | O_CREAT_ | O_TRUNC_ | O_APPEND_ | O_TMPFILE_);
	*flags &= ~(uint64_t)O_ASYNC_;	/* SIGIO would end the caller */
	if (!f->child)
		*flags |= O_NONBLOCK_;
}

/* A mode asking for a character or block device becomes a FIFO's. */
static void no_devices(uint64_t *mode)
{
	uint64_t type = *mode & 0170000;

	if (type == 0020000 || type == 0060000)
		*mode = (*mode & ~(uint64_t)0170000) | 0010000;
}

/* openat2: struct open_how built here, so its flags obey open_flags too. */
static void openat2_how(struct fuzzer *f, uint64_t *a)
{
	uint64_t *how = (uint64_t *)(f->priv + 2 * PAGE + 3072);

	how[0] = arg_value(f, A_FLAGS);
	how[1] = arg_value(f, A_FLAGS);
	how[2] = arg_value(f, A_FLAGS);
	open_flags(f, a[1], &how[0]);
	a[2] = (uint64_t)how;
	a[3] = (uint64_t[]){ 24, 0, 16, 32, 4096 }[rng_below(&f->rng, 5)];
}

static const uint64_t fcntl_cmds[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1024, 1025, 1026,
				       1030, 1031, 1032, 1033, 1034, 1035, 1036 };

/* Only the rewrites a worker thread needs to stay alive and unblocked. */
static unsigned fix_worker(struct fuzzer *f, unsigned nr, uint64_t *a)
{
	struct rng *r = &f->rng;

	switch (nr) {
	case 7:		/* poll: a few ms at most */
		a[2] = rng_below(r, 3);
		break;
	case 9:		/* mmap: without MAP_FIXED the address is only a hint */
		if (a[3] & (MAP_FIXED_ | MAP_FIXED_NOREPLACE_))
			confine(r, &a[0], &a[1], false);
		break;
	case 28:	/* madvise: nothing that changes what a fork copies (DONTFORK, WIPEONFORK) */
		if (a[2] == 10 || a[2] == 18)
			a[2] = 11;	/* MADV_DOFORK */
		confine(r, &a[0], &a[1], false);
		break;
	case 10:	/* mprotect */
		confine(r, &a[0], &a[1], true);
		break;
	case 11:	/* munmap */
		confine(r, &a[0], &a[1], false);
		break;
	case 12:	/* brk: grow from where it stood, or ask for nonsense; never shrink musl's heap */
		if (rng_chance(r, 2))
			a[0] = f->brk0 + rng_below(r, 64) * PAGE;
		break;
	case 16:	/* ioctl: FIONBIO/FIOASYNC would make descriptors blocking or signalling */
		if (a[1] == 0x5421 || a[1] == 0x5452)
			a[1] = 0x541b;
		break;
	/*
	 * Every descriptor a worker can create is non-blocking, so a later
	 * read or write on it returns. The flag-less variants become the ones
	 * with flags (pipe -> pipe2, eventfd -> eventfd2, ...).
	 */
	case 22:	/* pipe */
		a[1] = O_NONBLOCK_;
		return 293;
	case 253:	/* inotify_init */
		a[0] = O_NONBLOCK_;
		return 294;
	case 284:	/* eventfd */
		a[1] = O_NONBLOCK_;
		return 290;
	case 282:	/* signalfd */
		a[3] = O_NONBLOCK_;
		return 289;
	case 294:	/* inotify_init1, fanotify_init's FAN_NONBLOCK is 2 */
		a[0] |= O_NONBLOCK_;
		break;
	case 300:
		a[0] |= 2;
		break;
	case 41:	/* socket, socketpair, eventfd2, timerfd_create, mq_open, pidfd_open, pipe2 */
	case 53:
	case 290:
	case 283:
	case 240:
	case 434:
	case 293:
		a[1] |= O_NONBLOCK_;
		break;
	case 289:	/* signalfd4 */
		a[3] |= O_NONBLOCK_;
		break;
	case 25:	/* mremap */
		confine(r, &a[0], &a[1], false);
		if (a[3] & MREMAP_FIXED_)
			confine(r, &a[4], &a[2], false);
		break;
	case 72:	/* fcntl: no blocking lock, no SIGIO, no dnotify */
		if (a[1] == 4)
			a[2] = (a[2] | O_NONBLOCK_) & ~(uint64_t)O_ASYNC_;
		else if (a[1] == 7)
			a[1] = 6;
		else if (a[1] == 1026 || a[1] == 1024)
			a[1] = 1025;
		break;
	case 230:	/* clock_nanosleep: never on our own CPU-time clock, which stops while we sleep */
		if ((uint32_t)a[0] == 2)
			a[0] = 1;
		break;
	case 85:	/* creat: the open it stands for, non-blocking (a FIFO made by mknod waits for a reader) */
		a[2] = a[1];
		a[1] = 01 | O_CREAT_ | O_TRUNC_ | O_NONBLOCK_;
		return 2;
	case 141:	/* setpriority: not below normal, so a worker is never starved */
		a[2] &= ~(uint64_t)0x80000000;
		break;
	case 157:	/* prctl: only options that change nothing fatal */
		a[0] = (uint64_t[]){ 1, 2, 3, 15, 16, 21, 23, 37, 39, 0x7fffffff }[rng_below(r, 10)];
		if (a[0] == 1)	/* PR_SET_PDEATHSIG: keep SIGKILL, so nothing outlives the coordinator */
			a[1] = SIGKILL;
		break;
	/*
	 * Nothing may write a pointer to our own memory (TLS, musl's robust
	 * list) into the buffers: a later call would read it back as an
	 * iovec or a futex address and have the kernel write through it.
	 * So no ARCH_GET_FS/GS, no get_robust_list results, no
	 * PR_GET_TID_ADDRESS (left out above); and musl's FS stays, no vDSO
	 * remap, no shadow stack.
	 */
	case 158:
		if ((a[0] >= 0x1002 && a[0] <= 0x1004) || (a[0] >= 0x2001 && a[0] <= 0x2003) ||
		    (a[0] >= 0x5001 && a[0] <= 0x5005))
			a[0] = 0x1011;	/* ARCH_GET_CPUID */
		break;
	case 274:
		a[1] = (uint64_t)pools.rdonly;
		break;
	case 131:	/* sigaltstack: crash.c's handler runs on our own alternate stack; keep it */
		if (a[0] < TASK_SIZE_)
			a[0] = rng_chance(r, 2) ? 0 : 0xffff888000000000UL;
		break;
	case 302:	/* prlimit64: read only (a new RLIMIT_STACK or _AS would starve our children) */
		if (a[2] < TASK_SIZE_)
			a[2] = rng_chance(r, 4) ? 0xffff888000000000UL : 0;
		break;
	}
	return nr;
}

/* Children may do nearly anything to themselves, but nothing to other processes or files. */
static unsigned fix_child(struct fuzzer *f, unsigned nr, uint64_t *a)
{
	struct rng *r = &f->rng;

	switch (nr) {
	case 56:	/* clone: a CLONE_PARENT child would be the worker's and confuse its count */
		a[0] &= ~(uint64_t)CLONE_PARENT_;
		break;
	case 435:	/* clone3: arguments built here, for the same reason */
	{
		uint64_t *ca = (uint64_t *)(f->priv + 2 * PAGE + 1024);

		for (int i = 0; i < 11; i++)
			ca[i] = arg_value(f, i == 0 ? A_FLAGS : i == 4 ? A_SIG : i == 6 ? A_LEN : A_BUF);
		ca[0] &= ~(uint64_t)CLONE_PARENT_;
		a[0] = (uint64_t)ca;
		a[1] = (uint64_t[]){ 64, 80, 88, 0, 4096, 63 }[rng_below(r, 6)];
		break;
	}
	case 59:	/* execve: rarely a real program, never one that forks or fuzzes */
		if (rng_chance(r, 4)) {
			static const char *const progs[] = { "/bin/hello", "/bin/args", "/bin/hello_pie" };
			char *p = f->priv + 2 * PAGE + 2048;
			uint64_t *argv = (uint64_t *)(f->priv + 2 * PAGE + 2560);

			strcpy(p, progs[rng_below(r, 3)]);
			a[0] = (uint64_t)p;
			argv[0] = (uint64_t)p;
			for (int i = 1; i < 6; i++)
				argv[i] = rng_chance(r, 3) ? 0 : arg_value(f, A_BUF);
			argv[6] = 0;
			if (rng_chance(r, 2))
				a[1] = (uint64_t)argv;
		} else if (priv_prefix(f, a[0], "/bin/") || priv_prefix(f, a[0], "hello") ||
			   priv_prefix(f, a[0], "//bin") || priv_prefix(f, a[0], "bin/")) {
			/* a pool path that names a program is made one that cannot start */
			a[0] = (uint64_t)"/proc/meminfo";
		} else if (a[0] < (uint64_t)f->priv || a[0] >= (uint64_t)f->priv_edge) {
			a[0] = 0xffff888000000000UL;	/* a buffer might hold a program's name */
		}
		break;
	case 157:	/* prctl: as in a worker, PR_SET_PDEATHSIG stays SIGKILL */
		if (a[0] == 1)
			a[1] = SIGKILL;
		break;
	case 62:	/* kill: only ourselves (0 would be our group: make it us) */
	case 200:
	case 129:
		if (a[0] == 0)
			a[0] = f->pid;
		break;
	case 234:
	case 297:
		if (a[0] == 0)
			a[0] = f->pid;
		break;
	}
	return nr;
}

static void log_call(struct fuzzer *f, unsigned nr, const uint64_t *a)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "sysfuzz %d.%d%s: %u %s(%lx, %lx, %lx, %lx, %lx, %lx)\n",
			 f->worker, f->thread, f->child ? "c" : "", nr, call_desc(nr)->name,
			 (unsigned long)a[0], (unsigned long)a[1], (unsigned long)a[2],
			 (unsigned long)a[3], (unsigned long)a[4], (unsigned long)a[5]);

	write(log_fd, line, (size_t)n);
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * Calls that take real memory at once, not when touched: mmap with
 * MAP_POPULATE or MAP_LOCKED, shared anonymous memory (Spoor fills it in at
 * mmap time), mremap of such a mapping, fallocate. Eight threads asking
 * for gigabytes each would only measure the machine's RAM (and on Linux
 * wake the OOM killer for everyone), so a valid length is capped at
 * MEM_CAP; lengths the kernel must refuse pass unchanged.
 */
#define MEM_CAP		(8UL << 20)
#define MAP_SHARED_TYPE_	0x3
#define MAP_ANONYMOUS_	0x20
#define MAP_LOCKED_	0x2000
#define MAP_POPULATE_	0x8000

static void cap_len(uint64_t *len)
{
	if (*len > MEM_CAP && *len <= TASK_SIZE_)
		*len = MEM_CAP;
}

static void cap_memory(unsigned nr, uint64_t *a)
{
	if (nr == 9 && ((a[3] & (MAP_POPULATE_ | MAP_LOCKED_)) ||
			((a[3] & MAP_SHARED_TYPE_) && (a[3] & MAP_ANONYMOUS_))))
		cap_len(&a[1]);
	else if (nr == 25)
		cap_len(&a[2]);
	else if (nr == 285)
		cap_len(&a[3]);
}

static bool is_fork(unsigned nr)
{
	return nr == 56 || nr == 57 || nr == 58 || nr == 435;
}

long fuzz_one(struct fuzzer *f, unsigned nr)
{
	const struct call_desc *d;
	uint64_t a[6], t0;
	unsigned real;
	long ret;

	if (nr == NR_NONE) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
		return 0;
	}
	d = call_desc(nr);
	for (int i = 0; i < 6; i++)
		a[i] = arg_value(f, (enum arg_kind)d->arg[i]);
	if (nr == 2)
		open_flags(f, a[0], &a[1]);
	else if (nr == 257)
		open_flags(f, a[1], &a[2]);
	else if (nr == 437)
		openat2_how(f, a);
	else if (nr == 133 || nr == 259)	/* mknod(at): FIFOs and files, no device nodes */
		no_devices(&a[nr == 133 ? 1 : 2]);
	else if (nr == 72)
		a[1] = fcntl_cmds[rng_below(&f->rng, sizeof(fcntl_cmds) / 8)];
	else if (nr == 202)	/* futex: mostly real operations, private or not, either clock */
		a[1] = rng_chance(&f->rng, 8) ? a[1] : (rng_below(&f->rng, 14) | (rng_below(&f->rng, 2) << 7) |
							 (rng_below(&f->rng, 2) << 8));
	real = f->child ? fix_child(f, nr, a) : fix_worker(f, nr, a);
	cap_memory(real, a);
	if (opt.verbose)
		log_call(f, nr, a);
	f->note->nr = real;
	memcpy(f->note->args, a, sizeof(a));
	/* counted before: exit, rt_sigreturn and pause never come back to count */
	__atomic_add_fetch(&f->counts->nr_calls[nr], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&f->counts->calls, 1, __ATOMIC_RELAXED);
	t0 = rdtsc();
	if (is_fork(real))
		ret = raw_fork_syscall(real, a[0], a[1], a[2], a[3], a[4]);
	else
		ret = raw_syscall6(real, a[0], a[1], a[2], a[3], a[4], a[5]);
	__atomic_add_fetch(&f->counts->nr_cycles[nr], rdtsc() - t0, __ATOMIC_RELAXED);
	if (ret >= 0 || ret < -4095)
		__atomic_add_fetch(&f->counts->nr_ok[nr], 1, __ATOMIC_RELAXED);
	/* A worker keeps only its arena: give back what mmap/mremap placed elsewhere. */
	if (!f->child && (real == 9 || real == 25) && ret > 0 && (uint64_t)ret < TASK_SIZE_) {
		uint64_t len = real == 9 ? a[1] : a[2];

		if (!(in_arena((uint64_t)ret) && in_arena((uint64_t)ret + len - 1)))
			munmap((void *)ret, len);
	}
	return ret;
}
