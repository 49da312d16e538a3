/*
 * threads [N]: N pthreads (default 4) that meet at a barrier built on the
 * raw futex system call, so clone with CLONE_THREAD/SETTID/CLEARTID,
 * futex wait/wake and set_robust_list are all exercised. In each of
 * ROUNDS rounds every thread adds ITERS to an atomic counter and to a
 * mutex-held one, then waits at the barrier; past it, every thread checks
 * that both counters hold exactly what all threads added so far (a lost
 * wake-up hangs here, a barrier that lets a thread through early shows as
 * a short count). Each thread records the CPU it ran on (getcpu).
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXTHREADS 64
#define ROUNDS 3
#define ITERS 20000

/* Linux's futex operations; musl-gcc sees no kernel headers. */
#define FUTEX_WAIT_PRIVATE (0 | 128)
#define FUTEX_WAKE_PRIVATE (1 | 128)

/*
 * A generation barrier: the last thread to arrive resets the count and
 * bumps the generation; the others sleep on the generation word until it
 * changes (FUTEX_WAIT returns at once if it already has).
 */
struct barrier {
	int arrived;
	int gen;
	int n;
};

static struct barrier bar;
static long atomic_count, locked_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int nthreads, errors;

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void barrier_wait(struct barrier *b)
{
	int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == b->n) {
		__atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
		futex(&b->gen, FUTEX_WAKE_PRIVATE, INT_MAX);
		return;
	}
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen)
		futex(&b->gen, FUTEX_WAIT_PRIVATE, gen);
}

struct worker {
	pthread_t thread;
	unsigned cpu;
	int id;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned node;

	for (int r = 1; r <= ROUNDS; r++) {
		for (int i = 0; i < ITERS; i++) {
			__atomic_add_fetch(&atomic_count, 1, __ATOMIC_RELAXED);
			pthread_mutex_lock(&lock);
			locked_count++;
			pthread_mutex_unlock(&lock);
		}
		barrier_wait(&bar);
		long want = (long)r * nthreads * ITERS;
		long got_atomic = __atomic_load_n(&atomic_count, __ATOMIC_RELAXED);

		pthread_mutex_lock(&lock);
		if (got_atomic != want || locked_count != want) {
			printf("thread %d round %d: counters %ld %ld, want %ld\n",
			       w->id, r, got_atomic, locked_count, want);
			errors++;
		}
		pthread_mutex_unlock(&lock);
		/* Nobody may start the next round before everyone checked this one. */
		barrier_wait(&bar);
	}
	if (syscall(SYS_getcpu, &w->cpu, &node, NULL) < 0)
		w->cpu = -1u;
	return w;
}

int main(int argc, char **argv)
{
	static struct worker workers[MAXTHREADS];

	nthreads = argc > 1 ? atoi(argv[1]) : 4;
	if (nthreads < 1 || nthreads > MAXTHREADS) {
		fprintf(stderr, "threads: N must be 1..%d\n", MAXTHREADS);
		return 2;
	}
	bar.n = nthreads;
	for (int i = 0; i < nthreads; i++) {
		workers[i].id = i;
		if (pthread_create(&workers[i].thread, NULL, work, &workers[i])) {
			fprintf(stderr, "threads: pthread_create failed\n");
			return 1;
		}
	}
	for (int i = 0; i < nthreads; i++) {
		void *ret;

		if (pthread_join(workers[i].thread, &ret) || ret != &workers[i]) {
			printf("thread %d: join failed\n", i);
			errors++;
		}
	}
	for (int i = 0; i < nthreads; i++)
		printf("thread %d: cpu %d\n", i, (int)workers[i].cpu);
	printf("threads: %d threads, %d rounds, atomic %ld, locked %ld, errors %d\n",
	       nthreads, ROUNDS, atomic_count, locked_count, errors);
	return errors ? 1 : 0;
}
