/*
 * sh_os in ring 3: the shell's operating-system table on Linux system
 * calls (through musl), so /bin/sh is Spoor's shell and every command it
 * runs makes the system calls a Linux shell's would: a command is a
 * fork()ed child, a program an execve() in it, a pipe pipe2(). What the
 * kernel shell does from inside the kernel (workloads, the console's
 * foreground, the log) is reached through files here, or not at all.
 */
/* uses: kernel/cmds/ kernel/cmds/awk/ kernel/shell/regex.c kernel/shell/regex_longest.c kernel/shell/sh_arena.c kernel/shell/sh_arith.c kernel/shell/sh_buf.c kernel/shell/sh_builtin.c kernel/shell/sh_escape.c kernel/shell/sh_exec.c kernel/shell/sh_path.c kernel/shell/sh_expand.c kernel/shell/sh_interactive.c kernel/shell/sh_io.c kernel/shell/sh_lex.c kernel/shell/sh_line.c kernel/shell/sh_complete.c kernel/shell/sh_main.c kernel/shell/sh_match.c kernel/shell/sh_parse.c kernel/shell/sh_time.c kernel/shell/sh_trap.c kernel/shell/sh_util.c kernel/shell/sh_var.c kernel/shell/sh_table.c kernel/lib/kstring.c kernel/lib/errno.c tests/host/kshim.c */
#define _GNU_SOURCE
/* libc's headers first: kernel/types.h defines __unused, a field name in musl's struct stat */
#include <dirent.h>
#include <poll.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_util.h>

#include "sh_user.h"

/*
 * Signals the shell takes as the kernel shell does (see sh_os.h): the
 * handler only notes them; the shell acts at its next check. No
 * SA_RESTART, so a blocking read or wait returns EINTR and the shell sees
 * the signal at once.
 */
static volatile u64 pending;

/* The highest fd this process has made: a spawned child closes up to it. */
static int fd_high = 2;
/* The stack's top (an address near main's frame) and size, for stack_left. */
static char *stack_top;
static size_t stack_size;

/*
 * Every signal that would end the shell, realtime ones included (ftracetest
 * reports results with SIGRTMIN+N); not those that stop or are ignored by
 * default, nor faults and SIGPIPE, whose default a shell keeps.
 */
static bool signal_noted(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU: case SIGCONT:
	case SIGCHLD: case SIGURG: case SIGWINCH: case SIGPIPE: case SIGSEGV: case SIGBUS:
	case SIGILL: case SIGFPE: case SIGTRAP: case SIGABRT: case SIGSYS:
		return false;
	}
	return true;
}

static void note_signal(int sig)
{
	__atomic_or_fetch(&pending, 1ULL << (sig - 1), __ATOMIC_SEQ_CST);
}

/* A libc result as sh_os returns it: the value, or -errno. */
static long ret(long r)
{
	return r < 0 ? -errno : r;
}

static int note_fd(int fd)
{
	if (fd > fd_high)
		fd_high = fd;
	return fd;
}

/*
 * openat, not open: musl's open() is SYS_open on x86_64, glibc's (what Linux
 * users run) SYS_openat, and tracing recipes watch sys_enter_openat.
 */
static int u_open(const char *path, int flags, unsigned int mode)
{
	int fd = openat(AT_FDCWD, path, flags | O_CLOEXEC, mode);

	return fd < 0 ? -errno : note_fd(fd);
}

static ssize_t u_read(int fd, void *buf, size_t len) { return ret(read(fd, buf, len)); }
static ssize_t u_write(int fd, const void *buf, size_t len) { return ret(write(fd, buf, len)); }
static int u_close(int fd) { return (int)ret(close(fd)); }

static int u_dup(int fd, int min_fd)
{
	int r = fcntl(fd, F_DUPFD_CLOEXEC, min_fd);

	return r < 0 ? -errno : note_fd(r);
}

/*
 * The shell's own fds are close-on-exec (it opens them so): a program it
 * runs gets only what dup2 put in place, as 0..2 of a spawned command.
 */
static int u_dup2(int oldfd, int newfd)
{
	int r;

	if (oldfd == newfd)
		return fcntl(oldfd, F_GETFD) < 0 ? -errno : newfd;
	r = dup2(oldfd, newfd);
	return r < 0 ? -errno : note_fd(r);
}

static int u_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	note_fd(fds[0] > fds[1] ? fds[0] : fds[1]);
	return 0;
}

static int to_sh_stat(int r, const struct stat *s, struct sh_stat *st)
{
	if (r < 0)
		return -errno;
	st->type = sh_ftype_of_mode(s->st_mode);
	st->mode = s->st_mode & 0777;
	st->size = (u64)s->st_size;
	st->ino = s->st_ino;
	st->nlink = (unsigned int)s->st_nlink;
	st->mtime_ns = (u64)s->st_mtim.tv_sec * 1000000000ULL + (u64)s->st_mtim.tv_nsec;
	return 0;
}

static int u_stat(const char *path, struct sh_stat *st)
{
	struct stat s;

	return to_sh_stat(stat(path, &s), &s, st);
}

static int u_lstat(const char *path, struct sh_stat *st)
{
	struct stat s;

	return to_sh_stat(lstat(path, &s), &s, st);
}

static int u_readdir(const char *path, sh_dirent_fn fn, void *ctx)
{
	int fd = u_open(path, O_RDONLY | O_DIRECTORY, 0);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int err = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : -errno;
	}
	for (;;) {
		errno = 0;
		e = readdir(d);
		if (!e) {
			err = -errno;
			break;
		}
		if (fn(ctx, e->d_name, (enum sh_ftype)e->d_type))
			break;
	}
	closedir(d);
	return err;
}

static int u_mkdir(const char *path, unsigned int mode) { return (int)ret(mkdir(path, mode)); }
static int u_unlink(const char *path) { return (int)ret(unlink(path)); }
static int u_rmdir(const char *path) { return (int)ret(rmdir(path)); }
static int u_rename(const char *a, const char *b) { return (int)ret(rename(a, b)); }
static int u_symlink(const char *t, const char *p) { return (int)ret(symlink(t, p)); }
static int u_chmod(const char *p, unsigned int mode) { return (int)ret(chmod(p, mode)); }
static ssize_t u_readlink(const char *p, char *buf, size_t size) { return ret(readlink(p, buf, size)); }
static int u_chdir(const char *path) { return (int)ret(chdir(path)); }

static int u_getcwd(char *buf, size_t size)
{
	return getcwd(buf, size) ? 0 : -errno;
}

/*
 * A command: a forked child with exactly fds 0..2 from req->fds, running
 * req->fn. The three are first moved above every fd in use, so that
 * placing one cannot overwrite another still to be placed.
 */
static pid_t u_spawn(const struct sh_spawn *req)
{
	sigset_t all, old;
	int high[3], status;
	pid_t pid;

	/* Blocked across fork: a signal sent to the child at once waits for its empty note. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return pid < 0 ? -errno : pid;
	}
	pending = 0;	/* a new task starts with none, as in the kernel */
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; i < 3; i++) {
		high[i] = fcntl(req->fds[i], F_DUPFD, fd_high + 1);
		if (high[i] < 0)
			_exit(126);
		fd_high = high[i];
	}
	for (int i = 0; i < 3; i++)
		dup2(high[i], i);
	for (int fd = 3; fd <= fd_high; fd++)
		close(fd);
	fd_high = 2;
	if (req->comm)
		prctl(PR_SET_NAME, req->comm);
	if (req->nice)
		setpriority(PRIO_PROCESS, 0, req->nice);
	status = req->fn(req->arg);
	if (pending)
		status = 128 + __builtin_ctzll(pending) + 1;
	fflush(NULL);
	_exit(status);
}

/* A ring-3 fork runs the child at once: a held spawn has started already (as in dash). */
static void u_start(pid_t pid)
{
	(void)pid;
}

static pid_t u_wait(pid_t pid, int *status)
{
	int st = 0;
	pid_t r = waitpid(pid, &st, 0);

	if (r < 0)
		return -errno;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : (128 + WTERMSIG(st)) | SH_WAIT_SIGNALED;
	return r;
}

/*
 * execve puts the noted signals back to their defaults, as for any caught
 * signal. One already noted would have stayed pending across the exec and
 * ended the program: it ends this process the same way instead.
 */
static int u_execve(const char *path, char **argv, char **envp)
{
	if (pending) {
		int sig = __builtin_ctzll(pending) + 1;

		signal(sig, SIG_DFL);
		raise(sig);
	}
	execve(path, argv, envp);
	return -errno;
}

static int u_kill(pid_t pid, int sig) { return (int)ret(kill(pid, sig)); }

static u64 u_take_signals(void)
{
	return __atomic_exchange_n(&pending, 0, __ATOMIC_SEQ_CST);
}

static pid_t u_getpid(void) { return getpid(); }
static pid_t u_getppid(void) { return getppid(); }

/* One /proc/PID/stat line into p: Linux's layout (fields 1-4, 19, 14+15, 39). */
static bool read_proc_stat(const char *pid, struct sh_procinfo *p)
{
	char path[64], buf[512], *rp, *f[40];
	ssize_t n;
	int fd, nf = 0;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	if (!rp || !strchr(buf, '('))
		return false;
	*rp = '\0';
	memset(p, 0, sizeof(*p));
	p->pid = atoi(buf);
	snprintf(p->comm, sizeof(p->comm), "%s", strchr(buf, '(') + 1);
	for (char *s = strtok(rp + 1, " \n"); s && nf < 40; s = strtok(NULL, " \n"))
		f[nf++] = s;
	if (nf < 37)
		return false;
	/* f[0] is field 3 (state) */
	p->state = f[0][0];
	p->ppid = atoi(f[1]);
	p->runtime_ns = (strtoull(f[11], NULL, 10) + strtoull(f[12], NULL, 10)) * 10000000ULL;
	p->nice = atoi(f[16]);
	p->cpu = atoi(f[36]);
	return true;
}

static int u_for_each_task(int (*fn)(void *ctx, const struct sh_procinfo *p), void *ctx)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct sh_procinfo p;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && read_proc_stat(e->d_name, &p) &&
		    fn(ctx, &p))
			break;
	closedir(d);
	return 0;
}

static bool u_interrupted(void)
{
	return pending != 0;
}

static size_t u_stack_left(void)
{
	char *here = __builtin_frame_address(0);
	size_t used = (size_t)(stack_top - here);

	return used < stack_size ? stack_size - used : 0;
}

static u64 u_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * Signals stay blocked except inside ppoll, which lets them in as it
 * sleeps: one that comes just before the sleep ends it, not after it.
 */
static int u_sleep_ns(u64 ns)
{
	u64 now = u_now_ns(), end = now + ns;
	sigset_t all, old;
	int err = 0;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (; !pending && now < end; now = u_now_ns()) {
		struct timespec ts = { (time_t)((end - now) / 1000000000ULL),
				       (long)((end - now) % 1000000000ULL) };

		if (ppoll(NULL, 0, &ts, &old) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err ? err : pending ? -EINTR : 0;
}

static int u_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* The log through /proc/kmsg, which prints the whole buffer: skip what was read. */
static ssize_t u_log_read(u64 *pos, char *buf, size_t len)
{
	int fd = open("/proc/kmsg", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, (off_t)*pos);
	n = n < 0 ? -errno : n;
	close(fd);
	if (n > 0)
		*pos += (u64)n;
	return n;
}

static int u_poweroff(bool reboot)
{
	return -EPERM;
}

static bool u_isatty(int fd) { return isatty(fd); }
static ssize_t u_console_read(char *buf, size_t len) { return ret(read(0, buf, len)); }
static void u_set_foreground(pid_t pid) { }

/* The workload generators live in the kernel: ring 3 has none. */
static const char *const no_workloads[] = { NULL };

static int u_run_workload(int argc, char **argv)
{
	return 127;
}

static const struct sh_os user_os = {
	.open = u_open, .read = u_read, .write = u_write, .close = u_close, .dup = u_dup,
	.dup2 = u_dup2, .pipe = u_pipe, .stat = u_stat, .lstat = u_lstat, .readdir = u_readdir,
	.mkdir = u_mkdir, .unlink = u_unlink, .rmdir = u_rmdir, .rename = u_rename,
	.symlink = u_symlink, .chmod = u_chmod, .readlink = u_readlink, .chdir = u_chdir, .getcwd = u_getcwd,
	.spawn = u_spawn, .start = u_start, .wait = u_wait, .execve = u_execve, .kill = u_kill,
	.take_signals = u_take_signals, .getpid = u_getpid, .getppid = u_getppid,
	.for_each_task = u_for_each_task, .interrupted = u_interrupted,
	.stack_left = u_stack_left, .now_ns = u_now_ns, .sleep_ns = u_sleep_ns, .nproc = u_nproc,
	.log_read = u_log_read, .poweroff = u_poweroff, .isatty = u_isatty,
	.console_read = u_console_read, .set_foreground = u_set_foreground,
	.programs_first = true, .workloads = no_workloads, .run_workload = u_run_workload,
};

void sh_user_os_init(char *top)
{
	struct sigaction sa = { .sa_handler = note_signal };
	struct rlimit rl;

	stack_top = top;
	stack_size = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
		     (size_t)rl.rlim_cur : 8u << 20;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig <= 64; sig++)
		if (signal_noted(sig))
			sigaction(sig, &sa, NULL);	/* libc's own (32-34 in musl) refuse */
	sh_os = &user_os;
}
