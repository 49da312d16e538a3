/* Unit tests of sleeping mutexes (kernel/locking/mutex.c) between host threads. */
/* uses: kernel/locking/mutex.c */
#include <criterion/criterion.h>
#include <pthread.h>
#include <unistd.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/errno.h>

/*
 * The scheduler as the mutex sees it: each test thread is a task on a
 * CPU of its own; a sleep is a short nap after which the waiter looks
 * again (under wait_lock) whether it was handed the lock.
 */
DEFINE_PER_CPU(struct task_struct *, current_task);

#define NR_TASKS 5
static struct task_struct tasks[NR_TASKS];

void schedule(void)
{
	usleep(20);
}

bool wake_up_process(struct task_struct *p)
{
	__atomic_store_n(&p->__state, TASK_RUNNING, __ATOMIC_SEQ_CST);
	return true;
}

bool fatal_signal_pending(const struct task_struct *p)
{
	return __atomic_load_n(&p->pending_signals, __ATOMIC_SEQ_CST) & sigmask(SIGKILL);
}

static void become_task(int i)
{
	host_cpu_id = i;
	this_cpu_write(current_task, &tasks[i]);
}

static void setup(void)
{
	memset(tasks, 0, sizeof(tasks));
	become_task(0);
}
TestSuite(mutex, .init = setup);

static unsigned int queued(struct mutex *m)
{
	struct list_head *p;
	unsigned int n = 0;

	spin_lock(&m->wait_lock);
	list_for_each(p, &m->wait_list)
		n++;
	spin_unlock(&m->wait_lock);
	return n;
}

static void wait_queued(struct mutex *m, unsigned int n)
{
	while (queued(m) != n)
		usleep(100);
}

Test(mutex, uncontended)
{
	DEFINE_MUTEX(m);

	cr_assert(!mutex_is_locked(&m));
	mutex_lock(&m);
	cr_assert_eq(mutex_owner(&m), &tasks[0]);
	cr_assert_eq(m.owner, (unsigned long)&tasks[0], "no waiter flag without waiters");
	cr_assert_eq(mutex_trylock(&m), 0, "held, even by us");
	mutex_unlock(&m);
	cr_assert_eq(m.owner, 0);
	cr_assert_eq(mutex_trylock(&m), 1);
	cr_assert_eq(mutex_owner(&m), &tasks[0]);
	mutex_unlock(&m);
	cr_assert_eq(mutex_lock_interruptible(&m), 0);
	mutex_unlock(&m);
	cr_assert_eq(mutex_lock_killable(&m), 0);
	mutex_unlock(&m);
	cr_assert(!mutex_is_locked(&m));
}

/* Contention: increments split into a read and a later write lose counts unless excluded. */
static struct mutex counter_lock;
static long counter;
static int owner_errors;
#define ROUNDS 3000

static void *count_thread(void *arg)
{
	int i = (int)(long)arg;

	become_task(i);
	for (int r = 0; r < ROUNDS; r++) {
		long v;

		mutex_lock(&counter_lock);
		if (mutex_owner(&counter_lock) != &tasks[i])
			__atomic_add_fetch(&owner_errors, 1, __ATOMIC_RELAXED);
		v = counter;
		if (!(r % 64))
			sched_yield();
		counter = v + 1;
		mutex_unlock(&counter_lock);
	}
	return NULL;
}

Test(mutex, contended_counter_exact)
{
	pthread_t th[4];

	mutex_init(&counter_lock);
	counter = 0;
	for (long i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, count_thread, (void *)(i + 1));
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	cr_assert_eq(counter, 4 * ROUNDS);
	cr_assert_eq(owner_errors, 0);
	cr_assert_eq(counter_lock.owner, 0, "free, no waiter flag left");
	cr_assert_eq(queued(&counter_lock), 0);
}

/* First come, first served: the lock goes to the waiters in their order. */
static struct mutex fifo_lock;
static int order[NR_TASKS], nr_order;

static void *fifo_thread(void *arg)
{
	int i = (int)(long)arg;

	become_task(i);
	mutex_lock(&fifo_lock);
	order[nr_order++] = i;	/* under the lock */
	mutex_unlock(&fifo_lock);
	return NULL;
}

Test(mutex, handed_to_waiters_in_arrival_order)
{
	pthread_t th[3];

	mutex_init(&fifo_lock);
	nr_order = 0;
	mutex_lock(&fifo_lock);
	for (int i = 0; i < 3; i++) {
		/* Tasks 3, 1, 2 queue in that order. */
		long id = (long[]){ 3, 1, 2 }[i];

		pthread_create(&th[i], NULL, fifo_thread, (void *)id);
		wait_queued(&fifo_lock, i + 1);
	}
	cr_assert_eq(mutex_owner(&fifo_lock), &tasks[0]);
	cr_assert(fifo_lock.owner & MUTEX_FLAG_WAITERS);
	cr_assert_eq(mutex_trylock(&fifo_lock), 0);
	mutex_unlock(&fifo_lock);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	cr_assert_eq(nr_order, 3);
	cr_assert_eq(order[0], 3);
	cr_assert_eq(order[1], 1);
	cr_assert_eq(order[2], 2);
	cr_assert_eq(fifo_lock.owner, 0);
}

/* A signal ends an interruptible (a fatal one a killable) wait: off the queue, lock not taken. */
static struct mutex sig_lock;
static int sig_ret[NR_TASKS];

static void *interruptible_thread(void *arg)
{
	int i = (int)(long)arg;

	become_task(i);
	sig_ret[i] = mutex_lock_interruptible(&sig_lock);
	if (!sig_ret[i])
		mutex_unlock(&sig_lock);
	return NULL;
}

static void *killable_thread(void *arg)
{
	int i = (int)(long)arg;

	become_task(i);
	sig_ret[i] = mutex_lock_killable(&sig_lock);
	if (!sig_ret[i])
		mutex_unlock(&sig_lock);
	return NULL;
}

static void post_signal(int task, int sig)
{
	__atomic_or_fetch(&tasks[task].pending_signals, sigmask(sig), __ATOMIC_SEQ_CST);
}

Test(mutex, signals_end_interruptible_and_killable_waits)
{
	pthread_t a, b, c;

	mutex_init(&sig_lock);
	memset(sig_ret, 0x7f, sizeof(sig_ret));
	mutex_lock(&sig_lock);
	pthread_create(&a, NULL, interruptible_thread, (void *)1L);
	wait_queued(&sig_lock, 1);
	pthread_create(&b, NULL, killable_thread, (void *)2L);
	wait_queued(&sig_lock, 2);
	pthread_create(&c, NULL, killable_thread, (void *)3L);
	wait_queued(&sig_lock, 3);

	post_signal(1, SIGUSR1);
	pthread_join(a, NULL);
	cr_assert_eq(sig_ret[1], -EINTR);
	cr_assert_eq(queued(&sig_lock), 2);

	post_signal(2, SIGUSR1);	/* not fatal: a killable wait goes on */
	post_signal(3, SIGKILL);
	pthread_join(c, NULL);
	cr_assert_eq(sig_ret[3], -EINTR);
	cr_assert_eq(queued(&sig_lock), 1);
	cr_assert(sig_lock.owner & MUTEX_FLAG_WAITERS);

	mutex_unlock(&sig_lock);
	pthread_join(b, NULL);
	cr_assert_eq(sig_ret[2], 0, "task 2 got the lock");
	cr_assert_eq(sig_lock.owner, 0);

	/* The last waiter leaving clears the flag: the owner's unlock is the fast one again. */
	tasks[1].pending_signals = 0;
	mutex_lock(&sig_lock);
	pthread_create(&a, NULL, interruptible_thread, (void *)1L);
	wait_queued(&sig_lock, 1);
	cr_assert(sig_lock.owner & MUTEX_FLAG_WAITERS);
	post_signal(1, SIGINT);
	pthread_join(a, NULL);
	cr_assert_eq(sig_ret[1], -EINTR);
	cr_assert_eq(sig_lock.owner, (unsigned long)&tasks[0]);
	mutex_unlock(&sig_lock);
	cr_assert_eq(sig_lock.owner, 0);
}

/* Only the owner unlocks: another task's unlock warns and changes nothing. */
static struct mutex stolen_lock;

static void *unlock_thread(void *arg)
{
	become_task(1);
	mutex_unlock(&stolen_lock);
	return NULL;
}

Test(mutex, unlock_by_another_task_is_refused)
{
	pthread_t t;

	mutex_init(&stolen_lock);
	mutex_lock(&stolen_lock);
	pthread_create(&t, NULL, unlock_thread, NULL);
	pthread_join(t, NULL);
	cr_assert_eq(stolen_lock.owner, (unsigned long)&tasks[0]);
	mutex_unlock(&stolen_lock);
	cr_assert_eq(stolen_lock.owner, 0);
}
