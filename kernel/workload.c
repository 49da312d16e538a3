/* Workload generators (kernel/workload.h). */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/workload.h>

#define WORKLOAD_MAX_THREADS	64

/* The threads of one run, started and reaped together. */
struct workload {
	int (*fn)(void *);
	void *args[WORKLOAD_MAX_THREADS];
	struct task_struct *tasks[WORKLOAD_MAX_THREADS];
	unsigned int nr;
};

/*
 * Starts every thread, waits for all of them, and passes a fatal signal
 * the caller receives on to them (they check fatal_signal_pending).
 * Returns the first failure: a start error, a thread's non-zero exit
 * code, or -EINTR.
 */
static int workload_run(struct workload *w, const char *name)
{
	unsigned int started = 0;
	int ret = 0;

	for (; started < w->nr; started++) {
		struct task_struct *t = kthread_create(w->fn, w->args[started], "%s/%u", name, started);

		if (IS_ERR(t)) {
			ret = (int)PTR_ERR(t);
			break;
		}
		get_task_struct(t);	/* stays valid for send_sig after it is reaped */
		w->tasks[started] = t;
	}
	for (unsigned int i = 0; i < started; i++)
		wake_up_new_task(w->tasks[i]);
	if (ret)
		for (unsigned int i = 0; i < started; i++)
			send_sig(SIGKILL, w->tasks[i]);
	/* Each by pid: the caller's other children (a shell's jobs) are not ours to reap. */
	for (unsigned int i = 0; i < started; ) {
		int status = 0;
		pid_t pid = kernel_wait(w->tasks[i]->pid, &status);

		if (pid == -EINTR) {
			/* The caller was told to stop: so are its threads. Then reap them. */
			for (unsigned int j = 0; j < started; j++)
				send_sig(SIGKILL, w->tasks[j]);
			flush_signals(current);
			ret = ret ? ret : -EINTR;
			continue;
		}
		i++;
		if (pid > 0 && WEXITSTATUS(status) && !ret)
			ret = -(int)WEXITSTATUS(status);
	}
	for (unsigned int i = 0; i < started; i++)
		put_task_struct(w->tasks[i]);
	return ret;
}

/* nr_threads threads of fn, all given the same arg. */
static int workload_run_shared(int (*fn)(void *), void *arg, unsigned int nr_threads,
			       const char *name)
{
	struct workload *w;
	int ret;

	if (!nr_threads || nr_threads > WORKLOAD_MAX_THREADS)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->fn = fn;
	w->nr = nr_threads;
	for (unsigned int i = 0; i < nr_threads; i++)
		w->args[i] = arg;
	ret = workload_run(w, name);
	kfree(w);
	return ret;
}

/* --- ping-pong --- */

/* One pair's shared state: whose turn it is, and where each side waits. */
struct pingpong {
	struct wait_queue_head wq[2];
	int turn;			/* 0 or 1 */
	unsigned int iterations;
};

struct pingpong_side {
	struct pingpong *pp;
	int me;
};

static int pingpong_thread(void *arg)
{
	struct pingpong_side *s = arg;
	struct pingpong *pp = s->pp;

	for (unsigned int i = 0; i < pp->iterations; i++) {
		if (wait_event_interruptible(pp->wq[s->me], READ_ONCE(pp->turn) == s->me) ||
		    fatal_signal_pending(current))
			return EINTR;
		WRITE_ONCE(pp->turn, !s->me);
		wake_up(&pp->wq[!s->me]);
	}
	return 0;
}

int workload_pingpong(unsigned int nr_pairs, unsigned int iterations)
{
	struct workload *w;
	struct pingpong *pairs;
	struct pingpong_side *sides;
	int ret;

	if (!nr_pairs || nr_pairs * 2 > WORKLOAD_MAX_THREADS)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	pairs = kcalloc(nr_pairs, sizeof(*pairs), GFP_KERNEL);
	sides = kcalloc(nr_pairs * 2, sizeof(*sides), GFP_KERNEL);
	ret = -ENOMEM;
	if (w && pairs && sides) {
		for (unsigned int i = 0; i < nr_pairs; i++) {
			init_waitqueue_head(&pairs[i].wq[0]);
			init_waitqueue_head(&pairs[i].wq[1]);
			pairs[i].iterations = iterations;
			for (int side = 0; side < 2; side++) {
				sides[2 * i + side] = (struct pingpong_side){ &pairs[i], side };
				w->args[2 * i + side] = &sides[2 * i + side];
			}
		}
		w->fn = pingpong_thread;
		w->nr = nr_pairs * 2;
		ret = workload_run(w, "pingpong");
	}
	kfree(sides);
	kfree(pairs);
	kfree(w);
	return ret;
}

/* --- kmalloc/kfree --- */

struct kmalloc_args {
	unsigned int iterations;
	size_t max_size;
};

static int kmalloc_thread(void *arg)
{
	struct kmalloc_args *a = arg;
	size_t size = 8;

	for (unsigned int i = 0; i < a->iterations; i++) {
		char *p = kmalloc(size, GFP_KERNEL);

		if (!p)
			return ENOMEM;
		p[0] = p[size - 1] = (char)i;	/* touch both ends: the block is really that big */
		kfree(p);
		size = size * 2 > a->max_size ? 8 : size * 2;
		if ((i & 63) == 63 && fatal_signal_pending(current))
			return EINTR;
	}
	return 0;
}

int workload_kmalloc(unsigned int nr_threads, unsigned int iterations, size_t max_size)
{
	struct kmalloc_args a = { iterations, max_size < 8 ? 8 : max_size };

	return workload_run_shared(kmalloc_thread, &a, nr_threads, "kmalloc");
}

/* --- CPU hog --- */

struct hog_args {
	u64 end_ns;
	u64 cpus_seen;
};

static int hog_thread(void *arg)
{
	struct hog_args *a = arg;

	while (ktime_get_ns() < a->end_ns) {
		__atomic_or_fetch(&a->cpus_seen, 1ULL << smp_processor_id(), __ATOMIC_RELAXED);
		if (fatal_signal_pending(current))
			return EINTR;
	}
	return 0;
}

int workload_cpu_hog(unsigned int nr_threads, unsigned int duration_ms, u64 *cpus_seen)
{
	struct hog_args a = { ktime_get_ns() + (u64)duration_ms * NSEC_PER_MSEC, 0 };
	int ret = workload_run_shared(hog_thread, &a, nr_threads, "cpuhog");

	if (cpus_seen)
		*cpus_seen = a.cpus_seen;
	return ret;
}
