/*
 * sh_os in the kernel: files through the VFS's ksys_* calls for the
 * current task, commands as kernel threads with fd tables of their own.
 * Kernel only (no unit test links it).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/console.h>
#include <kernel/workload.h>
#include <kernel/test_modules.h>
#include <kernel/fs/fdtable.h>
#include <kernel/fs/fcntl.h>
#include <kernel/fs/dev.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_util.h>
#include <kernel/exec/exec.h>
#include <asm/acpi.h>

static int k_open(const char *path, int flags, unsigned int mode)
{
	return ksys_open(path, flags, (umode_t)mode);
}

static int k_dup(int fd, int min_fd)
{
	return ksys_dupfd(fd, min_fd);
}

static int k_pipe(int fds[2])
{
	return ksys_pipe2(fds, 0);
}

static int to_sh_stat(int err, const struct kstat *ks, struct sh_stat *st)
{
	if (err)
		return err;
	st->type = sh_ftype_of_mode(ks->mode);
	st->mode = ks->mode & 0777;
	st->size = (u64)ks->size;
	st->ino = ks->ino;
	st->nlink = ks->nlink;
	st->mtime_ns = ks->mtime_ns;
	return 0;
}

static int k_stat(const char *path, struct sh_stat *st)
{
	struct kstat ks;

	return to_sh_stat(ksys_stat(path, &ks), &ks, st);
}

static int k_lstat(const char *path, struct sh_stat *st)
{
	struct kstat ks;

	return to_sh_stat(ksys_lstat(path, &ks), &ks, st);
}

static int k_readdir(const char *path, sh_dirent_fn fn, void *ctx)
{
	int fd = ksys_open(path, O_RDONLY | O_DIRECTORY, 0);
	char *buf;
	ssize_t n;
	bool stop = false;

	if (fd < 0)
		return fd;
	buf = kmalloc(1024, GFP_KERNEL);
	if (!buf) {
		ksys_close(fd);
		return -ENOMEM;
	}
	while (!stop && (n = ksys_getdents64(fd, buf, 1024)) > 0) {
		for (ssize_t off = 0; off < n && !stop;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);

			stop = fn(ctx, d->d_name, (enum sh_ftype)d->d_type) != 0;
			off += d->d_reclen;
		}
	}
	kfree(buf);
	ksys_close(fd);
	return n < 0 ? (int)n : 0;
}

static int k_chmod(const char *path, unsigned int mode)
{
	return ksys_chmod(path, (umode_t)mode);
}

static int k_mkdir(const char *path, unsigned int mode)
{
	return ksys_mkdir(path, (umode_t)mode);
}

/* What a spawned task starts with; freed by the task. */
struct spawn_ctx {
	sh_task_fn fn;
	void *arg;
};

/*
 * The body of every task the shell starts: run the function, then give
 * back the fd table so that pipe readers see the end of their input. A
 * signal still pending is what ended the task: 128 + its number, as for
 * a process a signal killed.
 */
static int spawn_main(void *p)
{
	struct spawn_ctx ctx = *(struct spawn_ctx *)p;
	u64 pending;
	int status;

	kfree(p);
	status = ctx.fn(ctx.arg);
	/* The command was a program that execve'd: the task goes on as that process. */
	if (current->mm)
		kernel_enter_user();
	pending = READ_ONCE(current->pending_signals);
	if (pending)
		status = 128 + __builtin_ctzll(pending) + 1;
	exit_files(current);
	exit_fs(current);
	return status;
}

static pid_t k_spawn(const struct sh_spawn *req)
{
	struct spawn_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	struct files_struct *files = alloc_files();
	struct fs_struct *fs = current->fs ? copy_fs_struct(current->fs) : alloc_fs_struct(NULL);
	struct task_struct *p;
	int err = 0;

	if (!ctx || !files || !fs)
		err = -ENOMEM;
	for (int i = 0; i < 3 && !err; i++) {
		struct file *f = files_fget(current->files, req->fds[i]);

		if (!f)
			err = -EBADF;
		else if (fd_install(files, f, i) != i)
			err = -EMFILE;
	}
	if (!err) {
		ctx->fn = req->fn;
		ctx->arg = req->arg;
		p = kthread_create(spawn_main, ctx, "%s", req->comm ? req->comm : current->comm);
		if (IS_ERR(p))
			err = (int)PTR_ERR(p);
	}
	if (err) {
		kfree(ctx);
		put_files_struct(files);
		free_fs_struct(fs);
		return err;
	}
	p->files = files;
	p->fs = fs;
	set_user_nice(p, req->nice);
	if (!req->held)
		wake_up_new_task(p);
	return p->pid;
}

static void k_start(pid_t pid)
{
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	p = find_task_by_pid(pid);
	/* Only a child of ours that never ran: a held one cannot exit or be reaped. */
	if (p && (p->parent != current || task_state(p) != TASK_NEW))
		p = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (p)
		wake_up_new_task(p);
}

static int k_execve(const char *path, char **argv, char **envp)
{
	return kernel_execve(path, argv, envp);
}

static pid_t k_wait(pid_t pid, int *status)
{
	int st = 0;
	pid_t r = kernel_wait(pid, &st);

	if (r > 0)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : (128 + WTERMSIG(st)) | SH_WAIT_SIGNALED;
	return r;
}

static int k_kill(pid_t pid, int sig)
{
	return task_kill(pid, sig);
}

static u64 k_take_signals(void)
{
	return __atomic_exchange_n(&current->pending_signals, 0, __ATOMIC_SEQ_CST);
}

static pid_t k_getpid(void)
{
	return current->pid;
}

static pid_t k_getppid(void)
{
	return current->parent ? current->parent->pid : 0;
}

static int k_for_each_task(int (*fn)(void *ctx, const struct sh_procinfo *p), void *ctx)
{
	struct sh_procinfo *all;
	struct task_struct *p;
	int n = 0, max = 512;
	unsigned long flags;

	/* Copy under the lock, report after it: fn writes to files. */
	all = kcalloc((size_t)max, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks) {
		struct sh_procinfo *pi = &all[n];

		if (n == max)
			break;
		pi->pid = p->pid;
		pi->ppid = p->parent ? p->parent->pid : 0;
		memcpy(pi->comm, p->comm, sizeof(pi->comm) - 1);
		pi->state = p->exit_state ? 'Z' : task_state(p) == TASK_RUNNING ? 'R' :
			    task_state(p) == TASK_INTERRUPTIBLE ? 'S' : 'D';
		pi->nice = task_nice(p);
		pi->cpu = task_cpu(p);
		pi->runtime_ns = p->sum_exec_runtime;
		n++;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	for (int i = 0; i < n; i++)
		if (fn(ctx, &all[i]))
			break;
	kfree(all);
	return 0;
}

static bool k_isatty(int fd)
{
	struct file *f = files_fget(current->files, fd);
	bool tty = f && dev_is_console(f);

	if (f)
		fput(f);
	return tty;
}

static bool k_interrupted(void)
{
	return signal_pending(current);
}

static size_t k_stack_left(void)
{
	return (size_t)((char *)__builtin_frame_address(0) - (char *)current->stack);
}

static u64 k_now_ns(void)
{
	return ktime_get_ns();
}

static int k_sleep_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns, now;

	/* One reading per round: a second one, later, could be past end and wrap left. */
	while ((now = ktime_get_ns()) < end) {
		long ticks = (long)DIV_ROUND_UP(end - now, NSEC_PER_SEC / HZ);

		schedule_timeout_interruptible(ticks);
		if (signal_pending(current))
			return -EINTR;
	}
	return 0;
}

static int k_nproc(void)
{
	return (int)num_online_cpus();
}

static ssize_t k_log_read(u64 *pos, char *buf, size_t len)
{
	size_t n;

	if (*pos < printk_log_tail())
		*pos = printk_log_tail();
	n = printk_log_read(*pos, buf, len);
	*pos += n;
	return (ssize_t)n;
}

static int k_poweroff(bool reboot)
{
	if (reboot)
		return -EOPNOTSUPP;
	return acpi_poweroff();
}

static const char *const workloads[] = { "pingpong", "kmalloc-storm", "cpuhog", "modprobe", "rmmod",
					 NULL };

/* Operands as unsigned numbers, defaults where missing. */
static bool workload_args(int argc, char **argv, long long *v, int n)
{
	for (int i = 1; i < argc && i <= n; i++)
		if (sh_parse_int(argv[i], &v[i - 1]) || v[i - 1] < 0 || v[i - 1] > 1000000000)
			return false;
	return argc <= n + 1;
}

static int k_run_workload(int argc, char **argv)
{
	long long v[3] = { 2, 1000, 256 };
	int err;

	if (!strcmp(argv[0], "modprobe") || !strcmp(argv[0], "rmmod"))
		return test_module_command(argc, argv);
	if (!strcmp(argv[0], "pingpong")) {
		if (!workload_args(argc, argv, v, 2))
			goto usage;
		err = workload_pingpong((unsigned int)v[0], (unsigned int)v[1]);
	} else if (!strcmp(argv[0], "kmalloc-storm")) {
		if (!workload_args(argc, argv, v, 3))
			goto usage;
		err = workload_kmalloc((unsigned int)v[0], (unsigned int)v[1], (size_t)v[2]);
	} else {
		v[1] = 100;
		if (!workload_args(argc, argv, v, 2))
			goto usage;
		err = workload_cpu_hog((unsigned int)v[0], (unsigned int)v[1], NULL);
	}
	if (err == -EINTR)
		return 130;
	if (err) {
		char msg[80];

		snprintf(msg, sizeof(msg), "%s: %s\n", argv[0], errno_text(-err));
		ksys_write(2, msg, strlen(msg));
		return 1;
	}
	return 0;
usage:
	{
		static const char text[] = "usage: pingpong [PAIRS [ROUNDS]] | "
			"kmalloc-storm [THREADS [ITERATIONS [MAX_SIZE]]] | cpuhog [THREADS [MS]]\n";

		ksys_write(2, text, sizeof(text) - 1);
	}
	return 2;
}

static const struct sh_os kernel_os = {
	.open = k_open, .read = ksys_read, .write = ksys_write, .close = ksys_close,
	.dup = k_dup, .dup2 = ksys_dup2, .pipe = k_pipe, .stat = k_stat, .lstat = k_lstat,
	.readdir = k_readdir, .mkdir = k_mkdir, .unlink = ksys_unlink, .rmdir = ksys_rmdir,
	.rename = ksys_rename, .symlink = ksys_symlink, .chmod = k_chmod, .readlink = ksys_readlink, .chdir = ksys_chdir, .getcwd = ksys_getcwd, .spawn = k_spawn, .start = k_start, .wait = k_wait, .execve = k_execve,
	.kill = k_kill, .take_signals = k_take_signals, .getpid = k_getpid, .getppid = k_getppid,
	.for_each_task = k_for_each_task, .interrupted = k_interrupted,
	.stack_left = k_stack_left, .now_ns = k_now_ns, .sleep_ns = k_sleep_ns, .nproc = k_nproc,
	.log_read = k_log_read, .poweroff = k_poweroff, .console_read = console_read,
	.set_foreground = console_set_foreground, .isatty = k_isatty, .workloads = workloads,
	.run_workload = k_run_workload,
};

void sh_os_kernel_init(void)
{
	sh_os = &kernel_os;
}
