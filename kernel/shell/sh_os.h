/*
 * The operating-system interface of the shell and its commands.
 *
 * Everything the interpreter and the commands do to the outside world goes
 * through the one table `sh_os` points at, so the same code runs in the
 * kernel (sh_os_kernel.c: the VFS and the scheduler) and in host unit tests
 * (tests/host/sh_os_host.c: an in-memory file tree whose tasks run
 * synchronously). Every call acts for the calling task: its fd table, its
 * cwd. Errors are negative errno values.
 */
#ifndef KERNEL_SHELL_SH_OS_H
#define KERNEL_SHELL_SH_OS_H

#include <kernel/types.h>

/* open() flags: Linux's values. */
#define SH_O_RDONLY	00
#define SH_O_WRONLY	01
#define SH_O_RDWR	02
#define SH_O_ACCMODE	03
#define SH_O_CREAT	0100
#define SH_O_EXCL	0200
#define SH_O_TRUNC	01000
#define SH_O_APPEND	02000
#define SH_O_NONBLOCK	04000
#define SH_O_DIRECTORY	0200000

/* File types, as in struct dirent's d_type. */
enum sh_ftype {
	SH_FT_UNKNOWN = 0,
	SH_FT_FIFO = 1,
	SH_FT_CHR = 2,
	SH_FT_DIR = 4,
	SH_FT_REG = 8,
	SH_FT_LNK = 10,
};

/* What stat() reports; mode holds only the permission bits. */
struct sh_stat {
	enum sh_ftype type;
	unsigned int mode;
	u64 size;
	u64 ino;
	unsigned int nlink;
	u64 mtime_ns;		/* ns since boot */
};

/* Called by readdir() once per entry, "." and ".." included; nonzero stops. */
typedef int (*sh_dirent_fn)(void *ctx, const char *name, enum sh_ftype type);

/* The body of a new task: its return value is the task's exit status. */
typedef int (*sh_task_fn)(void *arg);

/*
 * spawn(): start fn(arg) in a new task, a child of the caller.
 * The child's fd table holds exactly fds 0..2, duplicated from the caller's
 * fds[0..2]; its cwd is the caller's; `comm` names it (what ps shows and
 * what sched events record; NULL keeps the caller's name, as fork does); `nice` is its nice value. The child owns arg.
 * If spawn fails, arg is still the caller's.
 */
struct sh_spawn {
	sh_task_fn fn;
	void *arg;
	const char *comm;
	int fds[3];
	int nice;
	bool held;	/* made (sched_process_fork fires) but not run until start() */
};

/* One line of `ps`. */
struct sh_procinfo {
	pid_t pid, ppid;
	char comm[16];
	char state;		/* R, S, D, Z, ... */
	int nice;
	int cpu;
	u64 runtime_ns;
};

struct sh_os {
	int (*open)(const char *path, int flags, unsigned int mode);
	ssize_t (*read)(int fd, void *buf, size_t len);
	/* Fewer bytes than asked is a short write; callers loop. */
	ssize_t (*write)(int fd, const void *buf, size_t len);
	int (*close)(int fd);
	/* dup(): the lowest free fd >= min_fd (fcntl F_DUPFD). */
	int (*dup)(int fd, int min_fd);
	int (*dup2)(int oldfd, int newfd);
	int (*pipe)(int fds[2]);
	int (*stat)(const char *path, struct sh_stat *st);
	/* stat() of a symbolic link itself, not of what it points to. */
	int (*lstat)(const char *path, struct sh_stat *st);
	int (*readdir)(const char *path, sh_dirent_fn fn, void *ctx);
	int (*mkdir)(const char *path, unsigned int mode);
	int (*unlink)(const char *path);
	int (*rmdir)(const char *path);
	int (*rename)(const char *oldpath, const char *newpath);
	int (*symlink)(const char *target, const char *path);
	/* Set the permission bits (07777) of what path names, links followed. */
	int (*chmod)(const char *path, unsigned int mode);
	/* A link's target into buf, not NUL-terminated: its length; -EINVAL if path is no link. */
	ssize_t (*readlink)(const char *path, char *buf, size_t size);
	int (*chdir)(const char *path);
	int (*getcwd)(char *buf, size_t size);

	pid_t (*spawn)(const struct sh_spawn *req);
	/*
	 * Run a child spawned held. A pipeline starts its commands together,
	 * once all are made: the first may not run ahead of the next one's
	 * fork (ftracetest reads one histogram twice within `diff A B | wc`).
	 */
	void (*start)(pid_t pid);
	/*
	 * Reap child pid (-1: any child): returns its pid and stores its exit
	 * status (128 + N for a task ended by signal N, with SH_WAIT_SIGNALED
	 * added when a ring-3 process died of it: the shell reports those);
	 * -ECHILD if none; -EINTR if a signal for the caller came first
	 * (take_signals() it and wait again).
	 */
	pid_t (*wait)(pid_t pid, int *status);
	/* Run the program at path in the calling task (it never returns on success). */
	int (*execve)(const char *path, char **argv, char **envp);
	/* Send signal sig (Linux's numbers; 0 only checks that pid exists). */
	int (*kill)(pid_t pid, int sig);
	/* The calling task's pending signals (bit N-1: signal N), now cleared. */
	u64 (*take_signals)(void);
	pid_t (*getpid)(void);
	pid_t (*getppid)(void);
	/* Visit every task; nonzero from fn stops. */
	int (*for_each_task)(int (*fn)(void *ctx, const struct sh_procinfo *p), void *ctx);
	/*
	 * True once a signal (Ctrl-C, kill) is pending for the calling task: a
	 * command should stop; the signal stays pending and becomes its exit
	 * status (128 + N).
	 */
	bool (*interrupted)(void);

	/* Bytes left on the calling task's stack, so the shell stops nesting before it runs out. */
	size_t (*stack_left)(void);

	u64 (*now_ns)(void);
	/* Sleep; -EINTR if killed or interrupted first. */
	int (*sleep_ns)(u64 ns);
	int (*nproc)(void);
	/* Read up to len bytes of the kernel log from position *pos. */
	ssize_t (*log_read)(u64 *pos, char *buf, size_t len);
	/* Power off (reboot = false) or reset; returns only on failure. */
	int (*poweroff)(bool reboot);

	/* Is fd the console, a terminal (ls lays names out in columns there, test -t)? */
	bool (*isatty)(int fd);
	/* The interactive console: block for input bytes; returns the count. */
	ssize_t (*console_read)(char *buf, size_t len);
	/*
	 * Name the foreground task of the console (0: the shell itself), so
	 * that Ctrl-C typed while it runs kills it.
	 */
	void (*set_foreground)(pid_t pid);
	/*
	 * A program found in PATH runs before a command of the same name: in
	 * ring 3, where the commands stand in for the programs a system lacks
	 * (as busybox's applets do). The console shell's commands are the
	 * kernel's own and come first.
	 */
	bool programs_first;
	/* Workload generators (kernel/workload.c): their names, NULL-terminated. */
	const char *const *workloads;
	/* Run workload argv[0] in the calling task; returns its exit status. */
	int (*run_workload)(int argc, char **argv);
};

/* sh_os->wait's flag on a status (see there). */
#define SH_WAIT_SIGNALED	0x100

/* The implementation in use: set once, before any shell runs. */
extern const struct sh_os *sh_os;

#endif
