/*
 * Tasks and the scheduler's interface. Everything that runs is a task:
 * per-CPU idle tasks (pid 0, swapper/N), init (pid 1), kernel threads.
 * States, priorities and the sched_switch prev_state encoding are
 * Linux's, so the sched events read exactly as on Linux.
 *
 * The policy (kernel/sched/fair.c) is a small CFS: each task has a
 * virtual runtime that advances by real runtime scaled by 1024/weight,
 * the weight following nice (each nice step is 1.25x, nice 0 = 1024); the
 * run queue runs the smallest vruntime first, and the tick preempts a
 * task that has used its share of a 6 ms latency period.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>
#include <kernel/wait.h>
#include <kernel/err.h>
#include <kernel/ftrace.h>

/* Task states (task_struct.__state, exit_state), Linux's values. */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define __TASK_STOPPED		0x0004
#define __TASK_TRACED		0x0008
#define EXIT_DEAD		0x0010
#define EXIT_ZOMBIE		0x0020
#define TASK_PARKED		0x0040
#define TASK_DEAD		0x0080
#define TASK_WAKEKILL		0x0100
#define TASK_WAKING		0x0200
#define TASK_NOLOAD		0x0400
#define TASK_NEW		0x0800
#define TASK_KILLABLE		(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_IDLE		(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
/* What sched_switch's prev_state can report, and its preemption marker. */
#define TASK_REPORT		0x007f
#define TASK_REPORT_IDLE	(TASK_REPORT + 1)
#define TASK_REPORT_MAX		(TASK_REPORT_IDLE << 1)

/* task_struct.flags */
#define PF_IDLE			0x00000002	/* a swapper/N */
#define PF_EXITING		0x00000004
#define PF_KTHREAD		0x00200000
#define PF_NO_SETAFFINITY	0x04000000	/* bound to one CPU (ksoftirqd/N) */
#define PF_AUTOREAP		0x80000000	/* released at exit, nobody waits (Spoor's) */

#define TASK_COMM_LEN		16
#define MAX_RT_PRIO		100
#define DEFAULT_PRIO		120		/* nice 0 */
#define NICE_TO_PRIO(n)		(DEFAULT_PRIO + (n))
#define PRIO_TO_NICE(p)		((p) - DEFAULT_PRIO)
#define MIN_NICE		(-20)
#define MAX_NICE		19
#define NICE_0_WEIGHT		1024

#define THREAD_SIZE		16384		/* kernel stack per task */
#define MAX_SCHEDULE_TIMEOUT	((long)(~0UL >> 1))

/*
 * Signals, Linux's numbers. Kernel threads have no handlers: a pending
 * fatal one ends them at their next check. Ring-3 processes have
 * Linux's actions, masks and handlers (kernel/signal.c).
 */
#define SIGHUP			1
#define SIGINT			2
#define SIGQUIT			3
#define SIGILL			4
#define SIGTRAP			5
#define SIGABRT			6
#define SIGBUS			7
#define SIGFPE			8
#define SIGKILL			9
#define SIGUSR1			10
#define SIGSEGV			11
#define SIGUSR2			12
#define SIGPIPE			13
#define SIGALRM			14
#define SIGTERM			15
#define SIGSTKFLT		16
#define SIGCHLD			17
#define SIGCONT			18
#define SIGSTOP			19
#define SIGTSTP			20
#define SIGTTIN			21
#define SIGTTOU			22
#define SIGURG			23
#define SIGXCPU			24
#define SIGXFSZ			25
#define SIGVTALRM		26
#define SIGPROF			27
#define SIGWINCH		28
#define SIGIO			29
#define SIGPWR			30
#define SIGSYS			31
#define _NSIG			64
#define sigmask(sig)		(1ULL << ((sig) - 1))

struct kretprobe_instance;
struct uprobe_task;
struct files_struct;
struct fs_struct;
struct mm_struct;
struct sighand_struct;
struct signal_struct;

/*
 * Registers a switched-out task keeps; the rest are on its stack
 * (arch/x86_64/switch.S). A ring-3 task also has its FS base and its
 * FPU/SSE state, which the switch saves and loads (arch/x86_64/fpu.c).
 */
struct thread_struct {
	unsigned long sp;
	unsigned long fsbase;
	unsigned long gsbase;
	void *fpu;			/* fxsave/xsave area; NULL for kernel threads */
	unsigned long entry_ip, entry_sp;	/* where a kernel thread's execve'd program starts */
};

/* sigaltstack(2)'s stack_t. */
struct sigaltstack_user {
	unsigned long ss_sp;
	int ss_flags;
	int pad;
	unsigned long ss_size;
};

/*
 * A schedulable thread. Locks: the run-queue fields (on_rq, cpu,
 * vruntime, run_node) under the lock of the rq it is on; __state changes
 * of another task under pi_lock; family links under tasklist_lock.
 */
struct task_struct {
	volatile unsigned int __state;	/* TASK_* */
	unsigned int exit_state;	/* 0, EXIT_ZOMBIE or EXIT_DEAD */
	unsigned int flags;		/* PF_* */
	pid_t pid;
	pid_t tgid;			/* = pid: every task is its own thread group */
	char comm[TASK_COMM_LEN];
	int prio;			/* 100..139, Linux's numbering (120 = nice 0) */
	int static_prio;
	spinlock_t pi_lock;		/* serializes wake-ups of this task */

	/* scheduling */
	int cpu;			/* the CPU whose rq holds (or last held) it */
	int on_rq;			/* queued or running on its rq */
	int on_cpu;			/* running, or still switching out */
	u64 cpus_allowed;		/* bitmask of CPUs it may run on */
	u32 weight;			/* from nice; see sched_prio_to_weight */
	u64 vruntime;			/* ns of runtime scaled by NICE_0_WEIGHT/weight */
	struct list_head run_node;	/* in rq->queue while waiting to run */
	u64 exec_start;			/* clock when it last started running or was accounted */
	u64 sum_exec_runtime;		/* total ns on a CPU */
	u64 slice_start_runtime;	/* sum_exec_runtime when last picked */
	u64 nvcsw, nivcsw;		/* voluntary / involuntary switches */
	int wake_cpu_hint;		/* CPU that last woke it (load balancing) */
	bool sched_migrated;		/* moved CPUs; perf's cpu-migrations counts it when it runs */

	/* arch context and stack */
	struct thread_struct thread;
	void *stack;			/* lowest address of the THREAD_SIZE stack */

	/* life */
	struct task_struct *parent;	/* gets the exit status; init after reparenting */
	struct list_head children;	/* its children, linked by their sibling */
	struct list_head sibling;
	struct list_head tasks;		/* in the global task list */
	struct wait_queue_head wait_chldexit;	/* its waits for children sleep here */
	int exit_code;			/* wait status: (code & 0xff) << 8, or the signal */
	int (*threadfn)(void *);	/* kthread body and argument */
	void *data;
	int refcount;			/* task_struct is freed when it drops to 0 */

	/* signals-lite: bit (sig - 1) set when sig is pending */
	u64 pending_signals;

	/* owned by kernel/fs: open files and working directory (NULL for pure kernel threads) */
	struct files_struct *files;
	struct fs_struct *fs;

	/* ring 3 (NULL/0 for kernel threads) */
	struct mm_struct *mm;		/* the address space; shared by threads */
	struct signal_struct *signal;	/* thread-group state, shared by threads */
	struct sighand_struct *sighand;	/* signal actions; shared with CLONE_SIGHAND */
	u64 blocked;			/* signal mask: bit (sig - 1) */
	u64 saved_sigmask;		/* rt_sigsuspend's caller's mask, back after the handler */
	long syscall_nr;		/* the call on its way back to ring 3, -1 otherwise (SA_RESTART) */
	bool restore_sigmask;
	struct sigaltstack_user sas;	/* sigaltstack */
	unsigned long set_child_tid;	/* CLONE_CHILD_SETTID */
	unsigned long clear_child_tid;	/* set_tid_address / CLONE_CHILD_CLEARTID: zeroed and futex-woken at exit */
	unsigned long robust_list;	/* set_robust_list, kept only to give back */
	struct list_head thread_node;	/* in signal->threads */
	int exit_signal;		/* sent to the parent at exit: SIGCHLD, or -1 for threads */
	u64 min_flt, maj_flt;		/* page faults served without / with file I/O */
	u64 start_time_ns;
	struct task_struct *vfork_parent;	/* CLONE_VFORK: sleeps until we exec or exit */
	/* kretprobes: this task's calls whose return address was swapped, newest first */
	struct kretprobe_instance *kretprobe_stack;
	/* uprobes: this task's uretprobe returns (kernel/uprobes.c), or NULL */
	struct uprobe_task *utask;
	/*
	 * The function_graph tracer's hooked calls. Last: a new task zeroes
	 * the struct only up to ret_stack.frames, which are written before
	 * they are read (task_init_common).
	 */
	struct ftrace_ret_stack ret_stack;
};

DECLARE_PER_CPU(struct task_struct *, current_task);
#define current		(this_cpu_read(current_task))

extern spinlock_t tasklist_lock;
extern struct list_head task_list;	/* every task except the idle tasks */

static inline unsigned int task_state(const struct task_struct *p) { return READ_ONCE(p->__state); }
static inline int task_cpu(const struct task_struct *p) { return READ_ONCE(p->cpu); }
static inline int task_nice(const struct task_struct *p) { return PRIO_TO_NICE(p->static_prio); }
static inline bool is_idle_task(const struct task_struct *p) { return p->flags & PF_IDLE; }

/*
 * The state sched_switch reports for prev, as Linux encodes it: 0 for
 * running, else 1 << (index of the highest TASK_REPORT bit), TASK_IDLE
 * sleepers as TASK_REPORT_IDLE ("I"), and TASK_REPORT_MAX ("R+") when
 * prev was preempted rather than going to sleep.
 */
long __trace_sched_switch_state(bool preempt, unsigned int prev_state, const struct task_struct *p);

/* --- pure task bookkeeping (kernel/sched/task.c) --- */
/* Initializes a task_struct's fields that do not depend on a CPU (name, prio, lists). */
void task_init_common(struct task_struct *p, const char *name, int nice);
/* Next pid (1, 2, 3, ... wrapping below PID_MAX, skipping live pids). Caller holds tasklist_lock. */
pid_t alloc_pid(void);
#define PID_MAX			32768
/* The task with this pid, or NULL. Caller holds tasklist_lock. */
struct task_struct *find_task_by_pid(pid_t pid);
void get_task_struct(struct task_struct *p);
/* Drops a reference; the last one frees the stack and the task_struct. */
void put_task_struct(struct task_struct *p);
void set_task_comm(struct task_struct *p, const char *name);

/* --- signals-lite (kernel/sched/signal.c) --- */
/* Sends sig to pid: -ESRCH if there is no such task, -EINVAL for a bad number, -EPERM for idle. */
int task_kill(pid_t pid, int sig);
int send_sig(int sig, struct task_struct *p);
static inline bool signal_pending(const struct task_struct *p)
{
	return (READ_ONCE(p->pending_signals) & ~(READ_ONCE(p->blocked) & ~(sigmask(SIGKILL) | sigmask(SIGSTOP)))) != 0;
}
/* SIGKILL, SIGINT or SIGTERM pending: a cooperative task should end now. */
bool fatal_signal_pending(const struct task_struct *p);
void flush_signals(struct task_struct *p);
/* Every task's state and, if asleep, its call chain (kernel/sched/show_state.c): SysRq t. */
void show_state(void);
/* This CPU's run queue in one line: who runs, how many wait, need_resched (for a hang report). */
void sched_show_cpu(void);
/* R S D T t Z X P I, as Linux's task_state_to_char. */
char task_state_char(const struct task_struct *p);

/* --- the scheduler (kernel/sched/core.c) --- */
void schedule(void);
void preempt_schedule(void);
/* Called with irqs off at the end of an interrupt that interrupted preemptible code. */
void preempt_schedule_irq(void);
void yield(void);
/* Wakes p if it is sleeping in TASK_NORMAL: returns true if it was woken. Any context but NMI. */
bool wake_up_process(struct task_struct *p);
bool wake_up_state(struct task_struct *p, unsigned int state);
/* Sleeps until woken or timeout jiffies; returns the jiffies left (0: timed out). */
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
void set_user_nice(struct task_struct *p, int nice);
/* Restricts p to one CPU; p must not have run yet (kthread_bind). */
void kthread_bind(struct task_struct *p, int cpu);
/* The tick's scheduler work: runtime accounting, preemption, periodic balancing. */
void scheduler_tick(void);
/* CPU's scheduler statistics for /proc-style displays and the self-test. */
struct sched_cpu_stats {
	u64 nr_switches;
	u64 nr_migrations;	/* tasks pulled to or woken onto this CPU from another */
	unsigned int nr_running;
	u64 idle_ns;
};
void sched_cpu_stats(int cpu, struct sched_cpu_stats *st);

#define set_current_state(s) do { WRITE_ONCE(current->__state, (s)); __atomic_thread_fence(__ATOMIC_SEQ_CST); } while (0)
#define __set_current_state(s) WRITE_ONCE(current->__state, (s))

/* Boot: the boot CPU's context becomes swapper/0. */
void sched_init(void);
/* An AP's idle task, made by the boot CPU before it starts the AP. */
struct task_struct *idle_task_create(int cpu);
/* The AP side: enter the scheduler as that CPU's idle task. */
__noreturn void cpu_startup_entry(void);
/* Starts init (pid 1) running fn, then the boot CPU becomes idle. */
__noreturn void sched_start_init(int (*fn)(void *), void *arg);

/* --- threads, exit, reaping (kernel/fork.c, kernel/kthread.c, kernel/exit.c) --- */
/*
 * What kernel_clone makes (Linux's struct of that name, the fields Spoor
 * uses): a kernel thread when fn is set, else a copy of the calling
 * process as clone(2) asks.
 */
struct kernel_clone_args {
	u64 flags;			/* CLONE_*, without the exit signal */
	int exit_signal;		/* sent to the parent at exit (SIGCHLD, 0) */
	unsigned long stack;		/* the child's user stack pointer, 0: the parent's */
	unsigned long tls;		/* CLONE_SETTLS: the child's FS base */
	unsigned long parent_tid;	/* CLONE_PARENT_SETTID: user int for the pid */
	unsigned long child_tid;	/* CLONE_CHILD_SETTID/CLEARTID, in the child's memory */
	struct pt_regs *regs;		/* user task: what its first return to ring 3 resumes */
	int (*fn)(void *);		/* kernel thread: runs fn(fn_arg), as Linux's kernel_thread */
	void *fn_arg;
	const char *name;		/* kernel thread: its comm */
	/* Set: the child is left unstarted here, for its maker to set up and wake_up_new_task. */
	struct task_struct **created;
};
/* Every new task but the idle ones: returns the child's pid or -errno. */
pid_t kernel_clone(struct kernel_clone_args *args);
/* A new kernel thread, not yet running (wake_up_new_task starts it). Child of current. */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *namefmt, ...) __printf(3, 4);
#define kthread_run(fn, arg, ...) ({					\
	struct task_struct *__k = kthread_create(fn, arg, __VA_ARGS__);	\
	if (!IS_ERR(__k))						\
		wake_up_new_task(__k);					\
	__k; })
void wake_up_new_task(struct task_struct *p);
/* Ends current with a wait status (see exit_code). */
__noreturn void do_exit(int code);
/*
 * Waits for a child (pid > 0: that one, -1: any) to exit and reaps it:
 * returns its pid and stores its wait status; -ECHILD if there is no
 * such child, -EINTR if a signal came first.
 */
pid_t kernel_wait(pid_t pid, int *status);
/* wait4's core: options WNOHANG (0 when nothing is ready yet) and WNOWAIT (leave it a zombie). */
#ifndef WNOHANG	/* the host's libc has the same ones */
#define WNOHANG			0x00000001
#define WNOWAIT			0x01000000
#endif
pid_t do_wait(pid_t pid, int *status, int options);
#ifndef WEXITSTATUS	/* the host's libc has the same ones */
#define WEXITSTATUS(s)		(((s) >> 8) & 0xff)
#define WTERMSIG(s)		((s) & 0x7f)
#define WIFEXITED(s)		(WTERMSIG(s) == 0)
#endif

#endif
