/*
 * Process system calls: identity, exit and wait, thread set-up
 * (arch_prctl, set_tid_address, robust lists), scheduling, limits and
 * system information. Spoor has one user, root (uid and gid 0).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/random.h>
#include <kernel/utsname.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>
#include <asm/cpu.h>

#define ARCH_SET_GS	0x1001
#define ARCH_SET_FS	0x1002
#define ARCH_GET_FS	0x1003
#define ARCH_GET_GS	0x1004
#define PR_SET_NAME	15
#define PR_GET_NAME	16
#define RLIMIT_STACK	3
#define RLIMIT_NOFILE	7
#define RLIM_NLIMITS	16
#define RLIM_INFINITY	(~0UL)
#define GRND_NONBLOCK	1
#define GRND_RANDOM	2
#define GRND_INSECURE	4
#define P_ALL		0
#define P_PID		1
#define P_PGID		2
#define WEXITED		4

SYSCALL_DEFINE0(getpid) { return current->tgid; }
SYSCALL_DEFINE0(gettid) { return current->pid; }
SYSCALL_DEFINE0(getuid) { return 0; }
SYSCALL_DEFINE0(geteuid) { return 0; }
SYSCALL_DEFINE0(getgid) { return 0; }
SYSCALL_DEFINE0(getegid) { return 0; }

SYSCALL_DEFINE0(getppid)
{
	struct task_struct *leader = current->signal ? current->signal->leader : current;
	struct task_struct *p;
	unsigned long flags;
	pid_t ppid;

	/* The parent cannot exit (and be freed) without reparenting us first, under the lock. */
	spin_lock_irqsave(&tasklist_lock, flags);
	p = leader->parent;
	ppid = p ? p->tgid : 0;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ppid;
}

SYSCALL_DEFINE1(exit, int, code)
{
	do_exit((code & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, code)
{
	do_group_exit((code & 0xff) << 8);
}

/* struct rusage: all zero (Spoor does not account it per child). */
#define RUSAGE_SIZE	144

SYSCALL_DEFINE4(wait4, pid_t, pid, int *, ustatus, int, options, void *, rusage)
{
	int status = 0;
	pid_t r;

	if (options & ~(WNOHANG | 0x2 /* WUNTRACED */ | 0x8 /* WCONTINUED */ | 0x40000000 /* __WALL */))
		return -EINVAL;
	r = do_wait(pid, &status, options & WNOHANG);
	if (r > 0 && ustatus && put_user(status, ustatus))
		return -EFAULT;
	if (r > 0 && rusage && clear_user(rusage, RUSAGE_SIZE))
		return -EFAULT;
	return r;
}

/* siginfo for waitid: signo, errno, code, then pid, uid, status. */
SYSCALL_DEFINE5(waitid, int, which, pid_t, upid, void *, infop, int, options, void *, rusage)
{
	int status = 0, si[8] = { 0 };
	pid_t pid, r;

	if (!(options & WEXITED) || (options & ~(WEXITED | WNOHANG | WNOWAIT | 0x2 | 0x8)))
		return -EINVAL;
	switch (which) {
	case P_ALL: pid = -1; break;
	case P_PID: pid = upid; if (pid <= 0) return -EINVAL; break;
	case P_PGID: pid = upid ? -upid : 0; break;
	default: return -EINVAL;
	}
	r = do_wait(pid, &status, options & (WNOHANG | WNOWAIT));
	if (r < 0)
		return r;
	if (r > 0) {
		si[0] = SIGCHLD;
		si[2] = (status & 0x7f) ? CLD_KILLED : CLD_EXITED;
		si[4] = r;
		si[6] = (status & 0x7f) ? (status & 0x7f) : (status >> 8) & 0xff;
	}
	if (infop && copy_to_user(infop, si, sizeof(si)))
		return -EFAULT;
	if (rusage && clear_user(rusage, RUSAGE_SIZE))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(arch_prctl, int, code, unsigned long, addr)
{
	struct thread_struct *th = &current->thread;

	switch (code) {
	case ARCH_SET_FS:
	case ARCH_SET_GS:
		if (addr >= TASK_SIZE)
			return -EPERM;
		if (code == ARCH_SET_FS)
			th->fsbase = addr;
		else
			th->gsbase = addr;
		preempt_disable();
		load_fsgs_base(th->fsbase, th->gsbase);
		preempt_enable();
		return 0;
	case ARCH_GET_FS:
		return put_user(th->fsbase, (unsigned long *)addr);
	case ARCH_GET_GS:
		return put_user(th->gsbase, (unsigned long *)addr);
	default:
		return -EINVAL;
	}
}

SYSCALL_DEFINE1(set_tid_address, int *, tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}

SYSCALL_DEFINE2(set_robust_list, unsigned long, head, size_t, len)
{
	if (len != 24)		/* sizeof(struct robust_list_head) */
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

SYSCALL_DEFINE3(get_robust_list, int, pid, unsigned long *, head, size_t *, len)
{
	if (pid && pid != current->pid)
		return -ESRCH;
	if (put_user(current->robust_list, head) || put_user((size_t)24, len))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE5(prctl, int, option, unsigned long, a2, unsigned long, a3, unsigned long, a4,
		unsigned long, a5)
{
	char name[TASK_COMM_LEN];
	long n;

	(void)a3; (void)a4; (void)a5;
	switch (option) {
	case PR_SET_NAME:
		n = strncpy_from_user(name, (const char *)a2, sizeof(name) - 1);
		if (n < 0)
			return -EFAULT;
		name[n] = '\0';
		set_task_comm(current, name);
		return 0;
	case PR_GET_NAME:
		memcpy(name, current->comm, sizeof(name));
		return copy_to_user((void *)a2, name, sizeof(name)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}

struct utsname_user {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

SYSCALL_DEFINE1(uname, struct utsname_user *, buf)
{
	struct utsname_user u;

	memset(&u, 0, sizeof(u));
	strscpy(u.sysname, UTS_SYSNAME, sizeof(u.sysname));
	strscpy(u.nodename, UTS_NODENAME, sizeof(u.nodename));
	strscpy(u.release, UTS_RELEASE, sizeof(u.release));
	strscpy(u.version, UTS_VERSION, sizeof(u.version));
	strscpy(u.machine, UTS_MACHINE, sizeof(u.machine));
	strscpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(buf, &u, sizeof(u)) ? -EFAULT : 0;
}

struct sysinfo_user {
	s64 uptime;
	u64 loads[3];
	u64 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u32 pad2;
	u64 totalhigh, freehigh;
	u32 mem_unit;
	char f[4];
};

SYSCALL_DEFINE1(sysinfo, struct sysinfo_user *, buf)
{
	struct sysinfo_user s;
	struct task_struct *p;
	unsigned long flags;

	memset(&s, 0, sizeof(s));
	s.uptime = (s64)(ktime_get_ns() / NSEC_PER_SEC);
	s.totalram = totalram_pages() * PAGE_SIZE;
	s.freeram = nr_free_pages() * PAGE_SIZE;
	s.mem_unit = 1;
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		s.procs++;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return copy_to_user(buf, &s, sizeof(s)) ? -EFAULT : 0;
}

SYSCALL_DEFINE3(getrandom, char *, buf, size_t, count, unsigned int, flags)
{
	u8 k[256];
	size_t done = 0;

	if (flags & ~(unsigned int)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (count > 33554431)		/* Linux's INT_MAX >> 6 cap */
		count = 33554431;
	while (done < count) {
		size_t n = count - done < sizeof(k) ? count - done : sizeof(k);

		get_random_bytes(k, n);
		if (copy_to_user(buf + done, k, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

/* The limits: RLIMIT_STACK is the stack vma, RLIMIT_NOFILE the table; the rest unlimited. */
static void rlimit_of(unsigned int res, u64 lim[2])
{
	lim[0] = lim[1] = RLIM_INFINITY;
	if (res == RLIMIT_STACK)
		lim[0] = STACK_SIZE_MAX;
	else if (res == RLIMIT_NOFILE)
		lim[0] = lim[1] = NR_OPEN;
}

SYSCALL_DEFINE2(getrlimit, unsigned int, res, u64 *, ulim)
{
	u64 lim[2];

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	rlimit_of(res, lim);
	return copy_to_user(ulim, lim, sizeof(lim)) ? -EFAULT : 0;
}

SYSCALL_DEFINE4(prlimit64, pid_t, pid, unsigned int, res, const u64 *, newlim, u64 *, oldlim)
{
	u64 lim[2];

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid && pid != current->tgid)
		return -ESRCH;
	if (newlim) {
		if (copy_from_user(lim, newlim, sizeof(lim)))
			return -EFAULT;
		if (lim[0] > lim[1])
			return -EINVAL;
		/* Accepted and not enforced: Spoor's limits are fixed. */
	}
	rlimit_of(res, lim);
	if (oldlim && copy_to_user(oldlim, lim, sizeof(lim)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE0(sched_yield)
{
	yield();
	return 0;
}

SYSCALL_DEFINE3(sched_getaffinity, pid_t, pid, unsigned int, len, unsigned long *, mask)
{
	u64 m = 0;

	if (len < sizeof(u64) || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	if (pid && pid != current->pid)
		return -ESRCH;
	for (unsigned int cpu = 0; cpu < num_online_cpus(); cpu++)
		if (current->cpus_allowed & (1ULL << cpu))
			m |= 1ULL << cpu;
	if (put_user(m, (u64 *)mask))
		return -EFAULT;
	return sizeof(u64);
}

SYSCALL_DEFINE3(sched_setaffinity, pid_t, pid, unsigned int, len, const unsigned long *, umask)
{
	u64 m, online = (num_online_cpus() >= 64) ? ~0ULL : (1ULL << num_online_cpus()) - 1;

	if (len < sizeof(u64))
		return -EINVAL;
	if (pid && pid != current->pid)
		return -ESRCH;
	if (get_user(m, (const u64 *)umask))
		return -EFAULT;
	if (!(m & online))
		return -EINVAL;
	/* Recorded for sched_getaffinity; Spoor's balancer does not consult it yet. */
	current->cpus_allowed = m & online;
	return 0;
}

SYSCALL_DEFINE3(getcpu, unsigned int *, cpu, unsigned int *, node, void *, cache)
{
	unsigned int c = (unsigned int)smp_processor_id();

	(void)cache;
	if (cpu && put_user(c, cpu))
		return -EFAULT;
	if (node && put_user(0u, node))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(setpgid, pid_t, pid, pid_t, pgid)
{
	struct task_struct *p = current;
	unsigned long flags;

	if (pgid < 0)
		return -EINVAL;
	if (pid && pid != current->tgid) {
		spin_lock_irqsave(&tasklist_lock, flags);
		p = find_task_by_pid(pid);
		if (p && p->parent != current)
			p = NULL;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (!p)
			return -ESRCH;
	}
	if (!p->signal)
		return -EPERM;
	p->signal->pgrp = pgid ? pgid : p->tgid;
	return 0;
}

SYSCALL_DEFINE1(getpgid, pid_t, pid)
{
	struct task_struct *p;
	unsigned long flags;
	pid_t r = -ESRCH;

	if (!pid)
		return current->signal->pgrp;
	spin_lock_irqsave(&tasklist_lock, flags);
	p = find_task_by_pid(pid);
	if (p)
		r = p->signal ? p->signal->pgrp : p->pid;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return r;
}

SYSCALL_DEFINE0(getpgrp)
{
	return current->signal->pgrp;
}

SYSCALL_DEFINE0(setsid)
{
	struct signal_struct *sig = current->signal;

	if (sig->pgrp == current->tgid)
		return -EPERM;
	sig->pgrp = sig->session = current->tgid;
	return sig->session;
}
