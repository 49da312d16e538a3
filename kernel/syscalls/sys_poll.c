/*
 * poll and ppoll. Files with a poll operation report their readiness;
 * the rest are always ready, as regular files are on Linux. Waiting
 * re-checks every tick (no wait-queue registration yet): a ready pipe is
 * seen within a millisecond.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>

#define POLL_MAX_FDS	4096

struct pollfd_user {
	int fd;
	short events, revents;
};

static int poll_once(struct pollfd_user *fds, unsigned int n)
{
	int ready = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct file *f;
		unsigned int mask;

		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;
		f = fget(fds[i].fd);
		if (!f) {
			fds[i].revents = POLLNVAL;
			ready++;
			continue;
		}
		mask = f->f_op && f->f_op->poll ? f->f_op->poll(f) : POLLIN | POLLOUT;
		fput(f);
		fds[i].revents = (short)(mask & ((unsigned short)fds[i].events | POLLERR | POLLHUP));
		if (fds[i].revents)
			ready++;
	}
	return ready;
}

/* timeout_ns: -1 for ever. */
static long do_poll(struct pollfd_user *ufds, unsigned int n, s64 timeout_ns)
{
	struct pollfd_user *fds;
	u64 end = timeout_ns < 0 ? (u64)-1 : ktime_get_ns() + (u64)timeout_ns;
	long r;

	if (n > POLL_MAX_FDS)
		return -EINVAL;
	fds = kmalloc(n * sizeof(*fds) + 1, GFP_KERNEL);
	if (!fds)
		return -ENOMEM;
	if (copy_from_user(fds, ufds, n * sizeof(*fds))) {
		kfree(fds);
		return -EFAULT;
	}
	for (;;) {
		r = poll_once(fds, n);
		if (r || ktime_get_ns() >= end)
			break;
		if (signal_pending(current)) {
			r = -EINTR;
			break;
		}
		schedule_timeout_interruptible(1);
	}
	if (r >= 0 && copy_to_user(ufds, fds, n * sizeof(*fds)))
		r = -EFAULT;
	kfree(fds);
	return r;
}

SYSCALL_DEFINE3(poll, struct pollfd_user *, fds, unsigned int, n, int, timeout_ms)
{
	return do_poll(fds, n, timeout_ms < 0 ? -1 : (s64)timeout_ms * (s64)NSEC_PER_MSEC);
}

SYSCALL_DEFINE5(ppoll, struct pollfd_user *, fds, unsigned int, n, const s64 *, uts,
		const u64 *, sigmask, size_t, sigsetsize)
{
	s64 ts[2], timeout = -1;
	u64 mask;

	if (uts) {
		if (copy_from_user(ts, uts, sizeof(ts)))
			return -EFAULT;
		if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (s64)NSEC_PER_SEC)
			return -EINVAL;
		timeout = ts[0] * (s64)NSEC_PER_SEC + ts[1];
	}
	/* The mask holds only while it waits: a sleep no signal can slip in front of. */
	if (sigmask) {
		if (sigsetsize != sizeof(u64))
			return -EINVAL;
		if (copy_from_user(&mask, sigmask, sizeof(mask)))
			return -EFAULT;
		set_user_sigmask(mask);
	}
	return do_poll(fds, n, timeout);
}
