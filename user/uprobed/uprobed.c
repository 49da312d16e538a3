/*
 * uprobed: a target for uprobes. Its functions are the probe points of
 * the uprobes boot test and bench; it finds their file offsets in its
 * own ELF symbol table (as `nm` and a segment table would), and checks
 * that what it computes is right however often it was probed.
 *
 *   uprobed offset SYM       the file offset of SYM's first byte (0x...)
 *   uprobed addr SYM         its address (0x...)
 *   uprobed run N NAME       N rounds of add(i, 2i), bump(), greet(NAME)
 *   uprobed spin MS          add() in a loop for MS milliseconds
 *   uprobed fork N           run N in a child and in the parent at once
 *   uprobed alarm MS         spin, and call add() from a 1 ms SIGALRM handler too
 *                            (signals land inside probed calls and their returns)
 *   uprobed sema MS          the semaphore, MS milliseconds apart: "V0 V1"
 *   uprobed bench            rdtsc cycles per add() call, the median of 9
 *                            batches (instructions under QEMU -icount shift=0:
 *                            bench/function_guest.sh measures a uprobe hit so)
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>

/*
 * An SDT-style semaphore: a u16 in the data segment that the kernel
 * increments in each process while a uprobe naming its file offset as
 * REF_CTR_OFFSET is in.
 */
__attribute__((section(".data"))) volatile unsigned short uprobed_semaphore;

/* What bump() counts; probes read it with @+OFFSET (file-relative). */
long uprobed_counter = 1000;

__attribute__((noinline)) long uprobed_add(long a, long b)
{
	__asm__ volatile("" ::: "memory");
	return a + b;
}

/* Its first instruction reads uprobed_counter RIP-relative. */
__attribute__((noinline)) long uprobed_bump(void)
{
	return ++uprobed_counter;
}

__attribute__((noinline)) size_t uprobed_greet(const char *name)
{
	__asm__ volatile("" ::: "memory");
	return strlen(name);
}

/*
 * SYM's address, or its file offset: the address in the PT_LOAD that
 * holds it, less the segment's, plus the segment's file offset.
 */
static int print_symbol(const char *sym, int file_offset)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	static char buf[1 << 20];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Shdr *sh;
	Elf64_Phdr *ph;

	if (f)
		fclose(f);
	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > n) {
		fprintf(stderr, "uprobed: cannot read my ELF file\n");
		return 1;
	}
	sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	ph = (Elf64_Phdr *)(buf + eh->e_phoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *syms = (Elf64_Sym *)(buf + sh[i].sh_offset);
		const char *names;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		names = buf + sh[sh[i].sh_link].sh_offset;
		for (size_t k = 0; k < sh[i].sh_size / sizeof(*syms); k++) {
			unsigned long v = syms[k].st_value;

			if (strcmp(names + syms[k].st_name, sym))
				continue;
			for (int p = 0; p < eh->e_phnum; p++)
				if (ph[p].p_type == PT_LOAD && v >= ph[p].p_vaddr &&
				    v < ph[p].p_vaddr + ph[p].p_filesz) {
					printf("0x%lx\n", file_offset ?
					       v - ph[p].p_vaddr + ph[p].p_offset : v);
					return 0;
				}
		}
	}
	fprintf(stderr, "uprobed: no symbol %s\n", sym);
	return 1;
}

/* N rounds; fails if a probe changed what the calls compute. */
static int run(long n, const char *name)
{
	long sum = 0, start = uprobed_counter;
	size_t len = 0;

	for (long i = 1; i <= n; i++) {
		sum += uprobed_add(i, 2 * i);
		uprobed_bump();
		len += uprobed_greet(name);
	}
	if (sum != 3 * n * (n + 1) / 2 || uprobed_counter != start + n || len != strlen(name) * n) {
		printf("uprobed: wrong results: sum %ld counter %ld len %zu\n", sum,
		       uprobed_counter, len);
		return 1;
	}
	printf("uprobed: %ld rounds, sum %ld, counter %ld\n", n, sum, uprobed_counter);
	return 0;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int spin(long ms)
{
	long end = now_ms() + ms, calls = 0;

	while (now_ms() < end) {
		for (long i = 0; i < 100; i++, calls++)
			if (uprobed_add(calls, i) != calls + i) {
				printf("uprobed: add(%ld, %ld) went wrong\n", calls, i);
				return 1;
			}
	}
	printf("uprobed: spun %ld calls\n", calls);
	return 0;
}

static volatile long alarm_calls, alarm_bad;

static void on_alarm(int sig)
{
	if (uprobed_add(alarm_calls, sig) != alarm_calls + sig)
		alarm_bad++;
	alarm_calls++;
}

static int alarm_run(long ms)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	int ret;

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	ret = spin(ms);
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	printf("uprobed: %ld alarms, %ld wrong\n", alarm_calls, alarm_bad);
	return ret || alarm_bad || !alarm_calls;
}

static int sema(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	/* the first value out at once: a test waits for it before it enables the probe */
	printf("uprobed: semaphore %u", uprobed_semaphore);
	fflush(stdout);
	nanosleep(&ts, NULL);
	printf(" %u\n", uprobed_semaphore);
	return 0;
}

static int fork_run(long n)
{
	pid_t pid = fork();
	int status = 0, ret;

	if (pid < 0)
		return 1;
	if (!pid)
		_exit(run(n, "child"));
	ret = run(n, "parent");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		ret = 1;
	return ret;
}

static inline unsigned long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (unsigned long)hi << 32 | lo;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int bench(void)
{
	enum { BATCHES = 9, CALLS = 200 };
	unsigned long t[BATCHES];
	long sum = 0;

	for (int b = -1; b < BATCHES; b++) {	/* batch -1 warms up (faults, slots) */
		unsigned long t0 = rdtsc();

		for (long i = 0; i < CALLS; i++)
			sum += uprobed_add(i, b);
		if (b >= 0)
			t[b] = (rdtsc() - t0) / CALLS;
	}
	qsort(t, BATCHES, sizeof(t[0]), cmp_ulong);
	printf("uprobed op=add calls=%d median=%lu min=%lu max=%lu sum=%ld\n", CALLS, t[BATCHES / 2],
	       t[0], t[BATCHES - 1], sum);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && (!strcmp(argv[1], "offset") || !strcmp(argv[1], "addr")))
		return print_symbol(argv[2], argv[1][0] == 'o');
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(atol(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return fork_run(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "sema"))
		return sema(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "alarm"))
		return alarm_run(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "bench"))
		return bench();
	fprintf(stderr, "usage: uprobed offset|addr SYM | run N NAME | spin MS | fork N | alarm MS | sema MS | bench\n");
	return 2;
}
