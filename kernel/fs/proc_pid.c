/*
 * /proc/<pid>: one directory per task, made when looked up, with Linux
 * 6.12's layouts of comm, stat and status, the exe link and the task/
 * directory of thread ids (the address-space files are proc_pid_mm.c).
 *
 * Each read looks the pid up again, so a file of an exited task reads
 * ESRCH. What Spoor does not have prints as Linux prints it for a task
 * without it: no capabilities beyond root's full set, no NUMA (one node),
 * no tty, no tracer. Spoor does not split run time into user and system
 * time: a process's is reported as user time, a kernel thread's as
 * system time.
 */
#include <kernel/fs/proc_internal.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/fdtable.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/time.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <asm/page.h>

#define USER_HZ		100	/* the unit of times in stat */

/* What comm, stat and status print of a task, copied under tasklist_lock. */
struct task_snapshot {
	pid_t pid, tgid, ppid, pgrp, session;
	char comm[TASK_COMM_LEN];
	char state;
	bool sleeping;			/* stat's wchan: 1 when not running (see task_snapshot) */
	bool kthread;			/* PF_KTHREAD: a kernel thread that never exec'd */
	unsigned int flags;
	unsigned int umask;
	int prio, nice, cpu, exit_code, exit_signal;
	int nr_threads;
	int fd_size;			/* descriptor table slots (0 once the files are gone) */
	u64 cpus_allowed;
	u64 start_time_ns;
	u64 runtime_ns, min_flt, maj_flt;	/* summed over the group unless a tid view */
	u64 nvcsw, nivcsw;
	u64 pending, blocked, ignored, caught;
};

static const char *task_state_name(char c)
{
	switch (c) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'D': return "D (disk sleep)";
	case 'T': return "T (stopped)";
	case 't': return "t (tracing stop)";
	case 'X': return "X (dead)";
	case 'Z': return "Z (zombie)";
	case 'P': return "P (parked)";
	default:  return "I (idle)";
	}
}

/* Signal dispositions. Read without the sighand lock: a snapshot, each word read once. */
static void snapshot_sigactions(const struct task_struct *p, struct task_snapshot *s)
{
	if (!p->sighand)
		return;
	for (int sig = 1; sig <= _NSIG; sig++) {
		unsigned long h = READ_ONCE(p->sighand->action[sig - 1].handler);

		if (h == SIG_IGN)
			s->ignored |= sigmask(sig);
		else if (h != SIG_DFL)
			s->caught |= sigmask(sig);
	}
}

static void snapshot_counters(const struct task_struct *t, struct task_snapshot *s)
{
	s->runtime_ns += READ_ONCE(t->sum_exec_runtime);
	s->min_flt += READ_ONCE(t->min_flt);
	s->maj_flt += READ_ONCE(t->maj_flt);
}

static int task_snapshot(const void *data, struct task_snapshot *s)
{
	struct task_struct *p, *t;
	struct fs_struct *fs;
	unsigned long irqf;

	memset(s, 0, sizeof(*s));
	spin_lock_irqsave(&tasklist_lock, irqf);
	p = find_task_by_pid(proc_pid_of(data));
	if (!p) {
		spin_unlock_irqrestore(&tasklist_lock, irqf);
		return -ESRCH;
	}
	s->pid = p->pid;
	s->tgid = p->tgid;
	s->ppid = p->parent ? p->parent->tgid : 0;
	s->pgrp = p->signal ? p->signal->pgrp : 0;
	s->session = p->signal ? p->signal->session : 0;
	memcpy(s->comm, p->comm, sizeof(s->comm));
	s->comm[TASK_COMM_LEN - 1] = '\0';
	s->state = task_state_char(p);
	s->kthread = p->flags & PF_KTHREAD;
	s->flags = p->flags & ~PF_AUTOREAP;	/* Spoor's own bit, not Linux's */
	/* exit_fs clears p->fs before freeing it; a task on its way out has no umask worth showing. */
	fs = READ_ONCE(p->fs);
	s->umask = fs && !(p->flags & PF_EXITING) ? fs->umask : 0022;
	s->fd_size = p->files ? NR_OPEN : 0;
	s->prio = p->prio - MAX_RT_PRIO;
	s->nice = task_nice(p);
	s->cpu = task_cpu(p);
	s->exit_code = p->exit_code;
	s->exit_signal = p->exit_signal;
	s->cpus_allowed = p->cpus_allowed & (nr_cpu_ids < 64 ? (1ULL << nr_cpu_ids) - 1 : ~0ULL);
	s->start_time_ns = p->start_time_ns;
	s->nvcsw = p->nvcsw;
	s->nivcsw = p->nivcsw;
	s->pending = READ_ONCE(p->pending_signals);
	s->blocked = READ_ONCE(p->blocked);
	snapshot_sigactions(p, s);
	s->nr_threads = p->signal ? READ_ONCE(p->signal->live) : 1;
	/* Linux leaves a group's wchan out when the group has other threads to be in. */
	s->sleeping = s->state != 'R' && (proc_is_tid_view(data) || s->nr_threads < 2);
	if (p->signal && !proc_is_tid_view(data) && !list_empty(&p->signal->threads)) {
		list_for_each_entry(t, &p->signal->threads, thread_node)
			snapshot_counters(t, s);
	} else {
		snapshot_counters(p, s);
	}
	spin_unlock_irqrestore(&tasklist_lock, irqf);
	return 0;
}

struct mm_struct *proc_task_mm(pid_t pid)
{
	struct task_struct *p;
	struct mm_struct *mm = NULL;
	unsigned long irqf;

	spin_lock_irqsave(&tasklist_lock, irqf);
	p = find_task_by_pid(pid);
	if (p)
		mm = READ_ONCE(p->mm);
	if (mm && !mmget_not_zero(mm))
		mm = NULL;
	spin_unlock_irqrestore(&tasklist_lock, irqf);
	return mm;
}

static int pid_comm_show(struct seq_file *m, void *v)
{
	struct task_snapshot s;
	int err = task_snapshot(m->private, &s);

	if (!err)
		seq_printf(m, "%s\n", s.comm);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(pid_comm);

static unsigned long ns_to_clock_t(u64 ns)
{
	return (unsigned long)(ns / (NSEC_PER_SEC / USER_HZ));
}

/* Linux's 52 fields. The signal masks are cut to 31 bits, as Linux cuts them. */
static int pid_stat_show(struct seq_file *m, void *v)
{
	const unsigned long sig31 = 0x7fffffff;
	struct mm_struct *mm = proc_task_mm(proc_pid_of(m->private));
	struct proc_mm_info mi = { 0 };
	struct task_snapshot s;
	unsigned long utime, stime;
	int err = task_snapshot(m->private, &s);

	if (err)
		goto out;
	if (mm)
		proc_mm_info(mm, &mi);
	utime = mm ? ns_to_clock_t(s.runtime_ns) : 0;
	stime = mm ? 0 : ns_to_clock_t(s.runtime_ns);
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags */
	seq_printf(m, "%d (%s) %c %d %d %d 0 -1 %u ", s.pid, s.comm, s.state, s.ppid, s.pgrp,
		   s.session, s.flags);
	/* minflt cminflt majflt cmajflt utime stime cutime cstime */
	seq_printf(m, "%lu 0 %lu 0 %lu %lu 0 0 ", (unsigned long)s.min_flt,
		   (unsigned long)s.maj_flt, utime, stime);
	/* priority nice num_threads itrealvalue starttime vsize rss rsslim */
	seq_printf(m, "%d %d %d 0 %lu %lu %lu 18446744073709551615 ", s.prio, s.nice,
		   s.nr_threads, ns_to_clock_t(s.start_time_ns), mi.total_vm << PAGE_SHIFT, mi.rss);
	/* startcode endcode startstack kstkesp kstkeip signal blocked sigignore sigcatch wchan */
	seq_printf(m, "%lu %lu %lu 0 0 %lu %lu %lu %lu %d ", mi.start_code, mi.end_code,
		   mi.start_stack, (unsigned long)s.pending & sig31, (unsigned long)s.blocked & sig31,
		   (unsigned long)s.ignored & sig31, (unsigned long)s.caught & sig31, s.sleeping);
	/* nswap cnswap exit_signal processor rt_priority policy delayacct guest cguest */
	seq_printf(m, "0 0 %d %d 0 0 0 0 0 ", s.exit_signal, s.cpu);
	/* start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu %d\n", mi.start_data, mi.end_data, mi.start_brk,
		   mi.arg_start, mi.arg_end, mi.env_start, mi.env_end, s.exit_code);
out:
	if (mm)
		mmput(mm);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(pid_stat);

/* A CPU mask as Linux's %*pb prints it: hex, 32-bit groups separated by commas. */
static void show_cpumask(struct seq_file *m, u64 mask)
{
	unsigned int n = nr_cpu_ids;

	if (n > 32)
		seq_printf(m, "%0*lx,", (int)(n - 32 + 3) / 4, (unsigned long)(mask >> 32));
	seq_printf(m, "%0*lx", n > 32 ? 8 : (int)(n + 3) / 4, (unsigned long)(mask & 0xffffffff));
}

/* The same mask as %*pbl: ranges, "0-3,6". */
static void show_cpulist(struct seq_file *m, u64 mask)
{
	const char *sep = "";

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		unsigned int last = cpu;

		if (!(mask & (1ULL << cpu)))
			continue;
		while (last + 1 < nr_cpu_ids && (mask & (1ULL << (last + 1))))
			last++;
		if (last == cpu)
			seq_printf(m, "%s%u", sep, cpu);
		else
			seq_printf(m, "%s%u-%u", sep, cpu, last);
		sep = ",";
		cpu = last;
	}
}

static void status_kb(struct seq_file *m, const char *name, unsigned long kb)
{
	seq_printf(m, "%s:\t%8lu kB\n", name, kb);
}

/* The address-space block; Spoor keeps no high-water marks, so the peaks are the current sizes. */
static void show_status_mm(struct seq_file *m, struct mm_struct *mm)
{
	const unsigned long kb = PAGE_SIZE / 1024;
	struct proc_mm_info mi;
	unsigned long text, lib;

	proc_mm_info(mm, &mi);
	text = (ALIGN_UP(mi.end_code, PAGE_SIZE) - (mi.start_code & PAGE_MASK)) >> 10;
	lib = mi.exec_vm * kb > text ? mi.exec_vm * kb - text : 0;
	status_kb(m, "VmPeak", mi.total_vm * kb);
	status_kb(m, "VmSize", mi.total_vm * kb);
	status_kb(m, "VmLck", 0);
	status_kb(m, "VmPin", 0);
	status_kb(m, "VmHWM", mi.rss * kb);
	status_kb(m, "VmRSS", mi.rss * kb);
	/* Every present page is the process's own copy: file bytes are read into fresh pages. */
	status_kb(m, "RssAnon", mi.rss * kb);
	status_kb(m, "RssFile", 0);
	status_kb(m, "RssShmem", 0);
	status_kb(m, "VmData", mi.data_vm * kb);
	status_kb(m, "VmStk", mi.stack_vm * kb);
	status_kb(m, "VmExe", text);
	status_kb(m, "VmLib", lib);
	status_kb(m, "VmPTE", 0);
	status_kb(m, "VmSwap", 0);
	seq_puts(m, "HugetlbPages:\t       0 kB\n"
		    "CoreDumping:\t0\n"
		    "THP_enabled:\t0\n"
		    "untag_mask:\t0xffffffffffffffff\n");
}

static int pid_status_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_task_mm(proc_pid_of(m->private));
	struct task_snapshot s;
	int err = task_snapshot(m->private, &s);

	if (err)
		goto out;
	seq_puts(m, "Name:\t");
	for (const char *c = s.comm; *c; c++) {
		if (*c == '\n')
			seq_puts(m, "\\n");
		else if (*c == '\\')
			seq_puts(m, "\\\\");
		else
			seq_putc(m, *c);
	}
	seq_printf(m, "\nUmask:\t%04o\nState:\t%s\n", s.umask, task_state_name(s.state));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", s.tgid, s.pid,
		   s.ppid);
	seq_printf(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t \n", s.fd_size);
	seq_printf(m, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\nKthread:\t%d\n", s.tgid,
		   s.pid, s.pgrp, s.session, s.kthread);
	if (mm)
		show_status_mm(m, mm);
	seq_printf(m, "Threads:\t%d\n", s.nr_threads);
	/* RLIMIT_SIGPENDING is unlimited in Spoor (getrlimit says so too). */
	seq_printf(m, "SigQ:\t%d/18446744073709551615\n", __builtin_popcountll(s.pending));
	seq_printf(m, "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\nSigIgn:\t%016lx\n"
		   "SigCgt:\t%016lx\n", (unsigned long)s.pending, 0UL, (unsigned long)s.blocked,
		   (unsigned long)s.ignored, (unsigned long)s.caught);
	seq_puts(m, "CapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\n"
		    "CapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
		    "CapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n"
		    "Seccomp_filters:\t0\nSpeculation_Store_Bypass:\tnot vulnerable\n"
		    "SpeculationIndirectBranch:\talways enabled\n");
	seq_puts(m, "Cpus_allowed:\t");
	show_cpumask(m, s.cpus_allowed);
	seq_puts(m, "\nCpus_allowed_list:\t");
	show_cpulist(m, s.cpus_allowed);
	seq_puts(m, "\nMems_allowed:\t1\nMems_allowed_list:\t0\n");
	seq_printf(m, "voluntary_ctxt_switches:\t%lu\nnonvoluntary_ctxt_switches:\t%lu\n",
		   (unsigned long)s.nvcsw, (unsigned long)s.nivcsw);
	seq_puts(m, "x86_Thread_features:\t\nx86_Thread_features_locked:\t\n");
out:
	if (mm)
		mmput(mm);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(pid_status);

DEFINE_SHOW_ATTRIBUTE(pid_maps);
DEFINE_SHOW_ATTRIBUTE(pid_cmdline);
DEFINE_SHOW_ATTRIBUTE(pid_environ);

static const struct pseudo_entry pid_entries[] = {
	{ "cmdline", 0444, &pid_cmdline_fops },
	{ "comm", 0444, &pid_comm_fops },
	{ "environ", 0400, &pid_environ_fops },
	{ "maps", 0444, &pid_maps_fops },
	{ "stat", 0444, &pid_stat_fops },
	{ "status", 0444, &pid_status_fops },
};
/* After the table, in readdir order: exe, then task (not in a task/<tid> directory). */
#define PID_EXE_POS	((loff_t)ARRAY_SIZE(pid_entries))
#define PID_TASK_POS	(PID_EXE_POS + 1)

/* exe: the file the process's execve ran; none for a kernel thread (ENOENT). */
static struct dentry *pid_exe_link(struct dentry *dir, pid_t pid)
{
	struct mm_struct *mm = proc_task_mm(pid);
	struct dentry *d = NULL;

	if (mm) {
		char path[sizeof(mm->exe_path)];

		spin_lock(&mm->lock);
		memcpy(path, mm->exe_path, sizeof(path));
		spin_unlock(&mm->lock);
		path[sizeof(path) - 1] = '\0';
		if (path[0])
			d = pseudo_new_symlink(dir, "exe", path);
		mmput(mm);
	}
	return d;
}

static const struct inode_operations pid_task_iops;

static struct dentry *pid_lookup(struct dentry *dir, const char *name)
{
	void *data = dir->d_inode->i_private;

	if (!strcmp(name, "exe"))
		return pid_exe_link(dir, proc_pid_of(data));
	if (!strcmp(name, "task") && !proc_is_tid_view(data))
		return pseudo_new_dir(dir, name, &pid_task_iops, data);
	return pseudo_table_lookup(dir, name, pid_entries, ARRAY_SIZE(pid_entries));
}

static int pid_iterate(struct dentry *dir, struct dir_context *ctx)
{
	u64 ino = dir->d_inode->i_ino + 1;

	pseudo_table_iterate(dir, ctx, pid_entries, ARRAY_SIZE(pid_entries));
	if (ctx->pos == PID_EXE_POS) {
		if (!dir_emit(ctx, "exe", 3, ino + (u64)ctx->pos, DT_LNK))
			return 0;
		ctx->pos++;
	}
	if (ctx->pos == PID_TASK_POS && !proc_is_tid_view(dir->d_inode->i_private)) {
		if (!dir_emit(ctx, "task", 4, ino + (u64)ctx->pos, DT_DIR))
			return 0;
		ctx->pos++;
	}
	return 0;
}

static const struct inode_operations pid_iops = {
	.lookup = pid_lookup,
	.iterate = pid_iterate,
};

/*
 * The thread of group tgid with index i in its thread list (0 when there
 * is none). A process without a thread list (a kernel thread) is its
 * only thread.
 */
static pid_t nth_thread(pid_t tgid, loff_t i)
{
	struct task_struct *p, *t;
	unsigned long irqf;
	pid_t tid = 0;

	spin_lock_irqsave(&tasklist_lock, irqf);
	p = find_task_by_pid(tgid);
	if (p && p->signal) {
		list_for_each_entry(t, &p->signal->threads, thread_node)
			if (i-- == 0) {
				tid = t->pid;
				break;
			}
	} else if (p && i == 0) {
		tid = p->pid;
	}
	spin_unlock_irqrestore(&tasklist_lock, irqf);
	return tid;
}

static struct dentry *pid_task_lookup(struct dentry *dir, const char *name)
{
	pid_t tgid = proc_pid_of(dir->d_inode->i_private);
	unsigned long long tid;
	struct task_struct *t;
	unsigned long irqf;
	bool member;

	if (kstrtoull(name, 10, &tid) || tid >= PID_MAX)
		return NULL;
	spin_lock_irqsave(&tasklist_lock, irqf);
	t = find_task_by_pid((pid_t)tid);
	member = t && t->tgid == tgid;
	spin_unlock_irqrestore(&tasklist_lock, irqf);
	if (!member)
		return NULL;
	return pseudo_new_dir(dir, name, &pid_iops, (void *)((long)tid | PROC_TID_VIEW));
}

static int pid_task_iterate(struct dentry *dir, struct dir_context *ctx)
{
	pid_t tgid = proc_pid_of(dir->d_inode->i_private), tid;
	char name[16];

	while ((tid = nth_thread(tgid, ctx->pos)) != 0) {
		if (!dir_emit(ctx, name, snprintf(name, sizeof(name), "%d", tid),
			      dir->d_inode->i_ino + 1 + (u64)tid, DT_DIR))
			return 0;
		ctx->pos++;
	}
	return 0;
}

static const struct inode_operations pid_task_iops = {
	.lookup = pid_task_lookup,
	.iterate = pid_task_iterate,
};

struct dentry *proc_pid_dir(struct dentry *dir, const char *name)
{
	unsigned long long pid;
	struct task_struct *p;
	unsigned long irqf;

	if (kstrtoull(name, 10, &pid) || pid >= PID_MAX)
		return NULL;
	spin_lock_irqsave(&tasklist_lock, irqf);
	p = find_task_by_pid((pid_t)pid);
	spin_unlock_irqrestore(&tasklist_lock, irqf);
	if (!p)
		return NULL;
	return pseudo_new_dir(dir, name, &pid_iops, (void *)(long)pid);
}
