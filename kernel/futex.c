/*
 * futex(2). A waiter sleeps on a hash bucket under a key: the address
 * space and the user address for private futexes (threads of one
 * process), the physical address of the word for shared ones (memory
 * shared across fork). WAIT checks the word under the bucket lock, so a
 * WAKE that follows the change the waiter raced with always finds it.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/mman.h>
#include <kernel/futex.h>
#include <kernel/syscalls.h>
#include <asm/uaccess.h>
#include <asm/page.h>

#define FUTEX_BUCKETS	64

struct futex_q {
	struct list_head node;
	struct task_struct *task;
	u64 key_a, key_b;
	u32 bitset;
	bool woken;
};

struct futex_bucket {
	spinlock_t lock;
	struct list_head waiters;
};

static struct futex_bucket buckets[FUTEX_BUCKETS];

/*
 * Before the other CPUs start. It used to run lazily at the first futex
 * call, guarded by a flag: two first callers at once both ran the loop, and
 * the slower one reset a bucket another thread had already locked. A ticket
 * taken from the reset lock then waited for an owner count that had moved
 * past it, spinning with interrupts off (the hang under load, ROADMAP).
 */
void futex_init(void)
{
	for (int i = 0; i < FUTEX_BUCKETS; i++) {
		spin_lock_init(&buckets[i].lock);
		INIT_LIST_HEAD(&buckets[i].waiters);
	}
}

/* The key of the word at uaddr: (mm, address) if private, (physical address, 0) if shared. */
static int futex_key(unsigned long uaddr, bool private, u64 *a, u64 *b)
{
	struct mm_struct *mm = current->mm;
	u64 *pte;
	u32 v;

	if (uaddr & 3)
		return -EINVAL;
	if (private) {
		*a = (u64)mm;
		*b = uaddr;
		return 0;
	}
	/* Fault the page in (and break copy-on-write), then name it by its frame. */
	if (get_user(v, (u32 *)uaddr))
		return -EFAULT;
	(void)v;
	spin_lock(&mm->lock);
	pte = user_pte(mm->pgd, uaddr, false);
	*a = pte && (*pte & _PAGE_PRESENT) ? (*pte & PTE_ADDR_MASK) | (uaddr & ~PAGE_MASK) : 0;
	spin_unlock(&mm->lock);
	*b = 0;
	return *a ? 0 : -EFAULT;
}

static struct futex_bucket *bucket_of(u64 a, u64 b)
{
	u64 h = (a ^ (b * 0x9e3779b97f4a7c15ULL)) >> 4;

	return &buckets[(h ^ (h >> 17)) % FUTEX_BUCKETS];
}

static long futex_wait(unsigned long uaddr, bool private, u32 val, u64 timeout_ns, u32 bitset)
{
	struct futex_q q = { .task = current, .bitset = bitset };
	struct futex_bucket *hb;
	long ret = 0;
	u32 cur;
	int err = futex_key(uaddr, private, &q.key_a, &q.key_b);

	if (err)
		return err;
	if (!bitset)
		return -EINVAL;
	/* Fault the word in now: the check below runs with interrupts off. */
	if (get_user(cur, (u32 *)uaddr))
		return -EFAULT;
	hb = bucket_of(q.key_a, q.key_b);
	spin_lock_irq(&hb->lock);
	if (get_user(cur, (u32 *)uaddr)) {
		spin_unlock_irq(&hb->lock);
		return -EFAULT;
	}
	if (cur != val) {
		spin_unlock_irq(&hb->lock);
		return -EAGAIN;
	}
	list_add_tail(&q.node, &hb->waiters);
	set_current_state(TASK_INTERRUPTIBLE);
	spin_unlock_irq(&hb->lock);
	if (!READ_ONCE(q.woken) && !signal_pending(current)) {
		long left = schedule_timeout(timeout_ns == (u64)-1 ? MAX_SCHEDULE_TIMEOUT
						 : (long)nsecs_to_jiffies_ceil(timeout_ns));

		if (!left && !READ_ONCE(q.woken))
			ret = -ETIMEDOUT;
	}
	__set_current_state(TASK_RUNNING);
	spin_lock_irq(&hb->lock);
	if (!q.woken) {
		list_del(&q.node);
		if (!ret)
			ret = -EINTR;
	} else {
		ret = 0;
	}
	spin_unlock_irq(&hb->lock);
	return ret;
}

static int futex_wake_key(u64 a, u64 b, int nr, u32 bitset)
{
	struct futex_bucket *hb = bucket_of(a, b);
	struct futex_q *q, *n;
	int woken = 0;

	spin_lock_irq(&hb->lock);
	list_for_each_entry_safe(q, n, &hb->waiters, node) {
		if (woken >= nr)
			break;
		if (q->key_a != a || q->key_b != b || !(q->bitset & bitset))
			continue;
		list_del(&q->node);
		WRITE_ONCE(q->woken, true);
		wake_up_process(q->task);
		woken++;
	}
	spin_unlock_irq(&hb->lock);
	return woken;
}

int futex_wake(unsigned long uaddr, int nr)
{
	u64 a, b;

	/* The exit path does not know whether the word was shared: wake both kinds. */
	if (futex_key(uaddr, true, &a, &b))
		return 0;
	nr = futex_wake_key(a, b, nr, FUTEX_BITSET_MATCH_ANY);
	if (!futex_key(uaddr, false, &a, &b))
		nr += futex_wake_key(a, b, 1, FUTEX_BITSET_MATCH_ANY);
	return nr;
}

/* A relative (FUTEX_WAIT) or absolute monotonic (FUTEX_WAIT_BITSET) timeout, in ns from now. */
static int futex_timeout(unsigned long utime, bool absolute, u64 *ns)
{
	struct { s64 sec, nsec; } ts;
	u64 t, now = ktime_get_ns();

	*ns = (u64)-1;
	if (!utime)
		return 0;
	if (copy_from_user(&ts, (void *)utime, sizeof(ts)))
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	t = (u64)ts.sec * NSEC_PER_SEC + (u64)ts.nsec;
	*ns = absolute ? (t > now ? t - now : 0) : t;
	return 0;
}

SYSCALL_DEFINE6(futex, unsigned long, uaddr, int, op, u32, val, unsigned long, utime,
		unsigned long, uaddr2, u32, val3)
{
	bool private = op & FUTEX_PRIVATE_FLAG;
	int cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	u64 a, b, ns;
	int err;

	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		err = futex_timeout(utime, cmd == FUTEX_WAIT_BITSET, &ns);
		if (err)
			return err;
		return futex_wait(uaddr, private, val, ns,
				  cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY : val3);
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
		err = futex_key(uaddr, private, &a, &b);
		if (err)
			return err;
		if (cmd == FUTEX_WAKE_BITSET && !val3)
			return -EINVAL;
		return futex_wake_key(a, b, (int)val, cmd == FUTEX_WAKE ? FUTEX_BITSET_MATCH_ANY : val3);
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE: {
		/* Without requeueing: wake val, and the rest wake up on the second word's wake anyway. */
		u32 cur;

		if (cmd == FUTEX_CMP_REQUEUE && (get_user(cur, (u32 *)uaddr) || cur != val3))
			return get_user(cur, (u32 *)uaddr) ? -EFAULT : -EAGAIN;
		err = futex_key(uaddr, private, &a, &b);
		if (err)
			return err;
		(void)uaddr2;
		return futex_wake_key(a, b, (int)val + (int)utime, FUTEX_BITSET_MATCH_ANY);
	}
	default:
		return -ENOSYS;
	}
}
