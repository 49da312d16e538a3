/*
 * /sys/kernel/debug/trace_selftest: tracing situations a shell cannot
 * produce by itself, made on demand so boot tests can check the records
 * in `trace`. Write a command; read back one line with the outcome.
 *
 *   nmi N        N rounds of one NMI to every online CPU (this one too),
 *                each waited for. trace_selftest_nmi() claims them, so
 *                do_nmi writes an nmi:nmi_handler record in NMI context
 *                ("handled: 1") for each, wherever the CPU was.
 *                -> "nmi: sent S handled H"
 *   recursion N  N kmalloc+kfree pairs from here while a probe on the
 *                kmalloc tracepoint itself allocates and frees: both of
 *                its nested hits land in the probe's own context, so the
 *                recursion guard drops and counts them (2N), and the
 *                kmem events show only this file's allocations.
 *                -> "recursion: allocations N refused R"
 *   wake N       how late a reader blocked as trace_pipe's wakes after its
 *                data appears (deferred to the tick, trace/trace_wait.c):
 *                -> "wake: rounds N mean U us max M us"
 *   bench N      N calls of each benchmark (trace/trace_benchmark.c):
 *                -> "bench: calls N tp_off X ns tp_on Y ns rb Z ns rb_events_per_sec R"
 *   ftrace N     the function tracer's (trace/ftrace_benchmark.c):
 *                -> "ftrace: calls N off X ns on Y ns sites S patch_on P us patch_off Q us"
 *   irqsoff N    interrupts off for N us here (local_irq_save, udelay),
 *                a section for the irqsoff tracers and preemptirq events
 *                -> "irqsoff: N us"
 *   preemptoff N the same with preemption off -> "preemptoff: N us"
 *   preemptirq N N local_irq_save/restore pairs, then N preempt_disable/
 *                enable pairs, each loop timed (under -icount: ns are
 *                instructions) -> "preemptirq: pairs N irq X ns preempt Y ns"
 *
 * Kernel only.
 */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <kernel/sched.h>
#include <kernel/delay.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>
#include <asm/irq.h>
#include <trace/trace.h>
#include <trace/trace_functions.h>
#include <trace/events/kmem.h>

#define SELFTEST_MAX_ROUNDS	100000
#define NMI_WAIT_NS		NSEC_PER_SEC	/* TCG on a loaded host can be slow */

/* The last command's outcome; commands run one at a time under trace_types_lock. */
static char selftest_result[160] = "none\n";

/* --- nmi ----------------------------------------------------------------------------- */

/* Set by the sender, cleared by the CPU's NMI handler: the NMI was ours. */
static DEFINE_PER_CPU(int, selftest_nmi_pending);
static DEFINE_PER_CPU(unsigned long, selftest_nmi_handled);
static bool selftest_nmi_registered;

static int trace_selftest_nmi(struct pt_regs *regs)
{
	if (!this_cpu_read(selftest_nmi_pending))
		return NMI_DONE;
	this_cpu_inc(selftest_nmi_handled);
	__atomic_store_n(this_cpu_ptr(&selftest_nmi_pending), 0, __ATOMIC_RELEASE);
	return NMI_HANDLED;
}

static unsigned long nmi_handled_total(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu(selftest_nmi_handled, cpu));
	return n;
}

/* One NMI to cpu; false if it was not handled in time. */
static bool selftest_nmi_one(int cpu)
{
	int *pending = per_cpu_ptr(&selftest_nmi_pending, cpu);
	u64 deadline = ktime_get_ns() + NMI_WAIT_NS;
	bool self;

	__atomic_store_n(pending, 1, __ATOMIC_RELEASE);
	preempt_disable();
	self = cpu == smp_processor_id();
	if (self)
		send_self_nmi();
	else
		send_nmi(cpu);
	preempt_enable();
	while (__atomic_load_n(pending, __ATOMIC_ACQUIRE) && ktime_get_ns() < deadline)
		cpu_relax();
	/* Unanswered: withdraw, so a late NMI is not counted as ours. */
	return !__atomic_exchange_n(pending, 0, __ATOMIC_ACQ_REL);
}

static int selftest_nmi(unsigned long rounds)
{
	unsigned long sent = 0, before;

	if (!selftest_nmi_registered) {
		if (register_nmi_handler(trace_selftest_nmi))
			return -EBUSY;
		selftest_nmi_registered = true;
	}
	before = nmi_handled_total();
	for (unsigned long r = 0; r < rounds; r++) {
		for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
			if (!cpu_online(cpu))
				continue;
			sent++;
			selftest_nmi_one(cpu);
		}
	}
	snprintf(selftest_result, sizeof(selftest_result), "nmi: sent %lu handled %lu\n", sent,
		 nmi_handled_total() - before);
	return 0;
}

/* --- recursion ------------------------------------------------------------------------ */

static struct task_struct *recursion_task;

/* Allocates in the probe's context: the nested kmalloc and kfree hits are refused. */
static void probe_kmalloc_allocating(void *data, unsigned long call_site, const void *ptr,
				     size_t bytes_req, size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (READ_ONCE(recursion_task) == current)
		kfree(kmalloc(bytes_req, GFP_ATOMIC));
}

static noinline int selftest_recursion(unsigned long n)
{
	unsigned long refused;
	int ret;

	WRITE_ONCE(recursion_task, current);
	ret = register_trace_kmalloc(probe_kmalloc_allocating, NULL);
	if (ret)
		return ret;
	refused = tracepoint_recursion_refused();
	for (unsigned long i = 0; i < n; i++)
		kfree(kmalloc(24, GFP_KERNEL));
	refused = tracepoint_recursion_refused() - refused;
	unregister_trace_kmalloc(probe_kmalloc_allocating, NULL);
	WRITE_ONCE(recursion_task, NULL);
	snprintf(selftest_result, sizeof(selftest_result), "recursion: allocations %lu refused %lu\n",
		 n, refused);
	return 0;
}

/* --- wake -------------------------------------------------------------------------------- */

/*
 * How long a reader blocked like trace_pipe's (trace_wait_for) sleeps
 * after its data appears: a thread waits for a flag that this side raises
 * at a known time, N times, waking readers as a commit does (irq_work).
 */
static struct {
	u64 raised_ns;		/* when flag went up */
	int flag;		/* 1: "data" is there */
	unsigned long rounds, done;
	u64 sum_ns, max_ns;
	unsigned long fast;	/* rounds woken within WAKE_FAST_NS */
} wake_test;

/* A fifth of a tick: a wake-up paced by the tick makes about one round in five this fast. */
#define WAKE_FAST_NS	200000

static bool wake_flag_ready(void *arg)
{
	return __atomic_load_n(&wake_test.flag, __ATOMIC_ACQUIRE);
}

static int wake_reader(void *arg)
{
	for (unsigned long i = 0; i < wake_test.rounds; i++) {
		u64 d;

		if (trace_wait_for(wake_flag_ready, NULL))
			break;
		d = ktime_get_ns() - wake_test.raised_ns;
		wake_test.sum_ns += d;
		wake_test.max_ns = max(wake_test.max_ns, d);
		wake_test.fast += d < WAKE_FAST_NS;
		__atomic_store_n(&wake_test.flag, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&wake_test.done, i + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static int selftest_wake(unsigned long rounds)
{
	struct task_struct *t;

	wake_test.rounds = rounds;
	wake_test.done = 0;
	wake_test.flag = 0;
	wake_test.sum_ns = wake_test.max_ns = 0;
	wake_test.fast = 0;
	t = kthread_run(wake_reader, NULL, "trace_wake");
	if (IS_ERR_OR_NULL(t))
		return -ENOMEM;
	for (unsigned long i = 0; i < rounds; i++) {
		msleep(1 + i % 3);	/* the reader is asleep again, at varying tick phases */
		wake_test.raised_ns = ktime_get_ns();
		__atomic_store_n(&wake_test.flag, 1, __ATOMIC_RELEASE);
		trace_wake_readers();
		while (__atomic_load_n(&wake_test.done, __ATOMIC_ACQUIRE) != i + 1)
			msleep(1);
	}
	snprintf(selftest_result, sizeof(selftest_result),
		 "wake: rounds %lu mean %lu us max %lu us within %lu us %lu\n", rounds,
		 (unsigned long)(wake_test.sum_ns / rounds / 1000), (unsigned long)(wake_test.max_ns / 1000),
		 (unsigned long)(WAKE_FAST_NS / 1000), wake_test.fast);
	return 0;
}

/* --- the file ---------------------------------------------------------------------------- */

/* "WORD N" with an optional newline: the command and its count. */
static int selftest_parse(const char *buf, size_t count, char *word, size_t size,
			  unsigned long long *n)
{
	char cmd[32], *num;

	if (count >= sizeof(cmd))
		return -EINVAL;
	memcpy(cmd, buf, count);
	cmd[count] = '\0';
	if (count && cmd[count - 1] == '\n')
		cmd[count - 1] = '\0';
	num = strchr(cmd, ' ');
	if (!num || (size_t)(num - cmd) >= size)
		return -EINVAL;
	*num++ = '\0';
	strscpy(word, cmd, size);
	if (kstrtoull(num, 10, n) || !*n || *n > SELFTEST_MAX_ROUNDS)
		return -EINVAL;
	return 0;
}

/* --- irqsoff, preemptoff, preemptirq --------------------------------------------- */

/* Not inlined: the sections start and end here, called from selftest_write. */
static noinline int selftest_irqsoff(unsigned long us)
{
	unsigned long flags;

	local_irq_save(flags);
	udelay(us);
	local_irq_restore(flags);
	snprintf(selftest_result, sizeof(selftest_result), "irqsoff: %lu us\n", us);
	return 0;
}

static noinline int selftest_preemptoff(unsigned long us)
{
	preempt_disable();
	udelay(us);
	preempt_enable();
	snprintf(selftest_result, sizeof(selftest_result), "preemptoff: %lu us\n", us);
	return 0;
}

static int selftest_preemptirq(unsigned long n)
{
	unsigned long flags;
	u64 t0, t1, t2;

	t0 = ktime_get_ns();
	for (unsigned long i = 0; i < n; i++) {
		local_irq_save(flags);
		barrier();
		local_irq_restore(flags);
	}
	t1 = ktime_get_ns();
	for (unsigned long i = 0; i < n; i++) {
		preempt_disable();
		barrier();
		preempt_enable();
	}
	t2 = ktime_get_ns();
	snprintf(selftest_result, sizeof(selftest_result),
		 "preemptirq: pairs %lu irq %llu ns preempt %llu ns\n", n,
		 (unsigned long long)((t1 - t0) / n), (unsigned long long)((t2 - t1) / n));
	return 0;
}

static ssize_t selftest_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	unsigned long long n;
	char word[16];
	int ret = selftest_parse(buf, count, word, sizeof(word), &n);

	if (ret)
		return ret;
	/* Not a spinlock: attaching a probe waits for a grace period. */
	trace_types_lock();
	if (!strcmp(word, "nmi"))
		ret = selftest_nmi((unsigned long)n);
	else if (!strcmp(word, "recursion"))
		ret = selftest_recursion((unsigned long)n);
	else if (!strcmp(word, "wake"))
		ret = selftest_wake((unsigned long)n);
	else if (!strcmp(word, "bench"))
		ret = trace_benchmark((unsigned long)n, selftest_result, sizeof(selftest_result));
	else if (!strcmp(word, "ftrace"))
		ret = ftrace_benchmark((unsigned long)n, selftest_result, sizeof(selftest_result));
	else if (!strcmp(word, "irqsoff"))
		ret = selftest_irqsoff((unsigned long)n);
	else if (!strcmp(word, "preemptoff"))
		ret = selftest_preemptoff((unsigned long)n);
	else if (!strcmp(word, "preemptirq"))
		ret = selftest_preemptirq((unsigned long)n);
	else
		ret = -EINVAL;
	trace_types_unlock();
	return ret ? ret : (ssize_t)count;
}

static int selftest_show(struct seq_file *m, void *v)
{
	seq_puts(m, selftest_result);
	return 0;
}

static int selftest_open(struct inode *inode, struct file *file)
{
	return single_open(file, selftest_show, NULL);
}

static const struct file_operations selftest_fops = {
	.open = selftest_open,
	.read = seq_read,
	.write = selftest_write,
	.release = single_release,
};

int trace_selftest_init(void)
{
	struct dentry *debug = pseudo_lookup("/sys/kernel/debug"), *f;

	if (IS_ERR(debug))
		return (int)PTR_ERR(debug);
	f = pseudo_create_file(debug, "trace_selftest", 0600, &selftest_fops, NULL);
	dput(debug);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
