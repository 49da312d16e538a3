/*
 * syscall_bench [BATCHES [OP]]: instructions per operation of a few kernel paths,
 * timed with rdtsc. Under QEMU -icount shift=0 the guest TSC advances by one
 * per retired instruction, so each figure is an exact instruction count that
 * is the same on every run and comparable between kernels running this same
 * binary (bench/syscall_guest.sh runs it on Spoor and on Linux 6.12).
 *
 * Each operation runs BATCHES (default 9) batches of a fixed size; the line
 * reports the median batch divided by the batch size, plus the smallest and
 * largest batch the same way, so a noisy figure shows itself. One line each:
 *   syscall_bench op=NAME iters=N batches=B median=X min=Y max=Z
 * Counts include the loop around the operation (a few instructions) and, for
 * fork and exec, everything the child does until the parent's wait returns.
 *
 * System calls are made with the syscall instruction directly, not through
 * musl's wrappers, so the figures are the kernels' and not libc's.
 *
 * OP runs that operation alone (profiling one path): `syscall_bench 9 OP`
 * minus `syscall_bench 9 loop` is (BATCHES + 1) * iters operations, the
 * extra batch being the warm-up.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_BATCHES 31
#define FAULT_PAGES 256	/* 1 MiB: under 2 MiB, so no huge page can back it */
#define PAGE_SIZE 4096

static inline unsigned long rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (unsigned long)hi << 32 | lo;
}

static inline long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys4(long nr, long a, long b, long c, long d)
{
	register long r10 asm("r10") = d;
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 asm("r10") = d, r8 asm("r8") = e, r9 asm("r9") = f;
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10),
		     "r"(r8), "r"(r9) : "rcx", "r11", "memory");
	return ret;
}

static void die(const char *what, long err)
{
	fprintf(stderr, "syscall_bench: %s: error %ld\n", what, err);
	exit(1);
}

/* One batch: the operation `iters` times; returns the TSC cycles it took. */
typedef unsigned long (*batch_fn)(int iters);

static int null_fd;
static char *const hello_argv[] = { "/bin/hello", NULL };
static char *const hello_envp[] = { NULL };

/* Calibration: a dec/jnz loop of known length, 2 instructions per turn. */
static unsigned long batch_loop(int iters)
{
	unsigned long t0 = rdtsc();
	long n = iters;

	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
	return rdtsc() - t0;
}

static unsigned long batch_getpid(int iters)
{
	unsigned long t0 = rdtsc();

	for (int i = 0; i < iters; i++)
		sys3(SYS_getpid, 0, 0, 0);
	return rdtsc() - t0;
}

static unsigned long batch_write(int iters)
{
	static const char byte = 'x';
	unsigned long t0 = rdtsc();

	for (int i = 0; i < iters; i++) {
		long r = sys3(SYS_write, null_fd, (long)&byte, 1);

		if (r != 1)
			die("write /dev/null", r);
	}
	return rdtsc() - t0;
}

/* Waits for pid and checks it exited with status 0. */
static void reap(long pid)
{
	int status = -1;
	long r = sys4(SYS_wait4, pid, (long)&status, 0, 0);

	if (r != pid || status != 0)
		die("wait4 (child status)", r < 0 ? r : status);
}

static unsigned long batch_fork(int iters)
{
	unsigned long t0 = rdtsc();

	for (int i = 0; i < iters; i++) {
		long pid = sys3(SYS_fork, 0, 0, 0);

		if (pid == 0)
			sys3(SYS_exit_group, 0, 0, 0);
		if (pid < 0)
			die("fork", pid);
		reap(pid);
	}
	return rdtsc() - t0;
}

static unsigned long batch_exec(int iters)
{
	unsigned long t0 = rdtsc();

	for (int i = 0; i < iters; i++) {
		long pid = sys3(SYS_fork, 0, 0, 0);

		if (pid == 0) {
			/* hello's output would land in the parent's batch timing on a
			 * slow console: /dev/null keeps the cost the kernel's */
			sys3(SYS_dup2, null_fd, 1, 0);
			sys3(SYS_execve, (long)hello_argv[0], (long)hello_argv, (long)hello_envp);
			sys3(SYS_exit_group, 127, 0, 0);
		}
		if (pid < 0)
			die("fork", pid);
		reap(pid);
	}
	return rdtsc() - t0;
}

/* iters is the page count; the mapping is made and removed outside the timing. */
static unsigned long batch_fault(int iters)
{
	long len = (long)iters * PAGE_SIZE;
	long addr = sys6(SYS_mmap, 0, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char *p = (volatile char *)addr;
	unsigned long t0, t;

	if (addr < 0 && addr > -4096)
		die("mmap", addr);
	t0 = rdtsc();
	for (int i = 0; i < iters; i++)
		p[(long)i * PAGE_SIZE] = 1;
	t = rdtsc() - t0;
	sys3(SYS_munmap, addr, len, 0);
	return t;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The operations, in the order they run and print. */
static const struct op {
	const char *name;
	batch_fn fn;
	int iters;	/* per batch */
} ops[] = {
	{ "loop", batch_loop, 1000 },
	{ "getpid", batch_getpid, 1000 },
	{ "write_null", batch_write, 1000 },
	{ "fork_exit_wait", batch_fork, 20 },
	{ "fork_execve_wait", batch_exec, 10 },
	{ "page_fault", batch_fault, FAULT_PAGES },
};

static void run(const struct op *op, int batches)
{
	unsigned long t[MAX_BATCHES];
	int n = op->iters;

	op->fn(n);	/* warm-up: first-touch faults on code and data */
	for (int b = 0; b < batches; b++)
		t[b] = op->fn(n);
	qsort(t, batches, sizeof(t[0]), cmp_ul);
	printf("syscall_bench op=%s iters=%d batches=%d median=%lu min=%lu max=%lu\n",
	       op->name, n, batches, (t[batches / 2] + n / 2) / n,
	       (t[0] + n / 2) / n, (t[batches - 1] + n / 2) / n);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int batches = argc > 1 ? atoi(argv[1]) : 9;
	const char *only = argc > 2 ? argv[2] : NULL;
	int ran = 0;

	if (batches < 1 || batches > MAX_BATCHES) {
		fprintf(stderr, "syscall_bench: BATCHES must be 1..%d\n", MAX_BATCHES);
		return 2;
	}
	null_fd = open("/dev/null", O_WRONLY);
	if (null_fd < 0) {
		perror("syscall_bench: /dev/null");
		return 1;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (only && strcmp(only, ops[i].name) != 0)
			continue;
		run(&ops[i], batches);
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "syscall_bench: no operation %s\n", only);
		return 2;
	}
	return 0;
}
