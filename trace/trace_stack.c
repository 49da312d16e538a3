/*
 * The stack tracer: with /proc/sys/kernel/stack_tracer_enabled set, every
 * function stack_trace_filter lets through (all when it is empty) checks
 * at its entry how much of the task's kernel stack is in use; a new
 * maximum saves the call chain there, with where on the stack each return
 * address lies. stack_max_size is that maximum (writable: 0 starts over),
 * stack_trace the chain in Linux's layout: per frame its depth (bytes
 * from the stack's top to its return address's slot), its size (down to
 * the next frame's slot) and the function. Interrupt and NMI stacks and
 * NMIs are not measured, as Linux's. The boot option `stacktrace` starts
 * it with the tracefs files, as Linux's does. Kernel only: the callback
 * runs from the trampoline.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/spinlock.h>
#include <kernel/sched.h>
#include <kernel/preempt.h>
#include <kernel/stacktrace.h>
#include <kernel/cmdline.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <asm/ftrace.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/fgraph.h>
#include <trace/trace_files.h>
#include <trace/trace_functions.h>

#define STACK_TRACE_ENTRIES	64

/* The deepest stack seen: its chain, innermost (the checked function) first. */
static struct {
	unsigned long max_size;		/* stack_max_size, bytes */
	unsigned int nr;
	unsigned long ips[STACK_TRACE_ENTRIES];
	unsigned long depth[STACK_TRACE_ENTRIES];	/* bytes from the top to the slot */
} stack_max;
static DEFINE_SPINLOCK(stack_max_lock);
/* The tracer's own frames below the checked function's (measured at the first check). */
static unsigned long tracer_frame;
static int stack_tracer_value;		/* the sysctl as written; on when not 0 */
struct ftrace_ops stack_trace_ops;

/*
 * The chain from here, cut to start at the checked function (the
 * trampoline's return into it, site + 5), each return address found on
 * the stack from below: its slot gives the depth. One not found (the
 * walk named a hooked slot's real caller, not what the slot holds) is
 * left out, as Linux's tracer does. Returns the checked function's depth
 * (0: not found); a new maximum replaces stack_max.
 */
static unsigned long check_stack(unsigned long ip, unsigned long *start, unsigned long *top)
{
	unsigned long ips[STACK_TRACE_ENTRIES], found[STACK_TRACE_ENTRIES];
	unsigned long depth[STACK_TRACE_ENTRIES];
	unsigned int n = stack_trace_save(ips, STACK_TRACE_ENTRIES, 0), i = 0, x = 0;

	while (i < n && ips[i] != ip + MCOUNT_INSN_SIZE)
		i++;
	for (; i < n; i++) {
		for (unsigned long *p = start; p < top; p++) {
			if (ftrace_graph_ret_addr(*p, (unsigned long)p) != ips[i])
				continue;
			found[x] = ips[i];
			depth[x++] = (unsigned long)(top - p) * sizeof(unsigned long);
			start = p + 1;
			break;
		}
	}
	if (!x)
		return 0;
	if (depth[0] > stack_max.max_size) {
		memcpy(stack_max.ips, found, x * sizeof(found[0]));
		memcpy(stack_max.depth, depth, x * sizeof(depth[0]));
		stack_max.nr = x;
		WRITE_ONCE(stack_max.max_size, depth[0]);
	}
	return depth[0];
}

static void stack_trace_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			     struct ftrace_regs *fregs)
{
	unsigned long here = (unsigned long)__builtin_frame_address(0);
	unsigned long base = (unsigned long)current->stack, used, flags, depth;

	if (in_nmi() || !base || here < base || here >= base + THREAD_SIZE)
		return;
	used = base + THREAD_SIZE - here;
	if (used <= READ_ONCE(tracer_frame) + READ_ONCE(stack_max.max_size))
		return;
	spin_lock_irqsave(&stack_max_lock, flags);
	depth = check_stack(ip, (unsigned long *)here, (unsigned long *)(base + THREAD_SIZE));
	if (depth && !tracer_frame && used > depth)
		WRITE_ONCE(tracer_frame, used - depth);
	spin_unlock_irqrestore(&stack_max_lock, flags);
}

int stack_tracer_enabled(void)
{
	return READ_ONCE(stack_tracer_value);
}

int stack_tracer_set(int value)
{
	int ret = 0;

	ftrace_lock();
	if (!value != !stack_tracer_value)
		ret = value ? register_ftrace_function(&stack_trace_ops) :
			      unregister_ftrace_function(&stack_trace_ops);
	if (!ret)
		WRITE_ONCE(stack_tracer_value, value);
	ftrace_unlock();
	return ret;
}

/* --- stack_max_size, stack_trace ---------------------------------------------------------- */

static ssize_t stack_max_size_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	return trace_read_ulong(buf, count, pos, READ_ONCE(stack_max.max_size));
}

/* Any number: the maximum to beat (0: the next check records). The chain stays. */
static ssize_t stack_max_size_write(struct file *file, const char *buf, size_t count,
				    loff_t *pos)
{
	unsigned long val, flags;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	spin_lock_irqsave(&stack_max_lock, flags);
	WRITE_ONCE(stack_max.max_size, val);
	spin_unlock_irqrestore(&stack_max_lock, flags);
	return (ssize_t)count;
}

static const struct file_operations stack_max_size_fops = {
	.read = stack_max_size_read,
	.write = stack_max_size_write,
};

static int stack_trace_show(struct seq_file *m, void *v)
{
	unsigned long ips[STACK_TRACE_ENTRIES], depth[STACK_TRACE_ENTRIES], max, flags;
	unsigned int nr;

	spin_lock_irqsave(&stack_max_lock, flags);
	nr = stack_max.nr;
	max = stack_max.max_size;
	memcpy(ips, stack_max.ips, sizeof(ips));
	memcpy(depth, stack_max.depth, sizeof(depth));
	spin_unlock_irqrestore(&stack_max_lock, flags);
	seq_printf(m, "        Depth    Size   Location    (%u entries)\n"
		      "        -----    ----   --------\n", nr);
	if (!stack_tracer_enabled() && !max)
		seq_puts(m, "#\n#  Stack tracer disabled\n#\n"
			    "# To enable the stack tracer, either add 'stacktrace' to the\n"
			    "# kernel command line\n"
			    "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n#\n");
	for (unsigned int i = 0; i < nr; i++)
		seq_printf(m, "%3u) %8lu   %5lu   %pS\n", i, depth[i],
			   i + 1 < nr ? depth[i] - depth[i + 1] : depth[i], (void *)ips[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stack_trace);

int stack_trace_create_files(struct dentry *dir)
{
	struct dentry *f;

	if (ftrace_ops_init(&stack_trace_ops))
		return -ENOMEM;
	stack_trace_ops.func = stack_trace_call;
	f = tracefs_create_file("stack_max_size", TRACE_MODE_WRITE, dir, NULL,
				&stack_max_size_fops);
	if (!IS_ERR(f))
		f = tracefs_create_file("stack_trace", TRACE_MODE_READ, dir, NULL,
					&stack_trace_fops);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	return cmdline_has(&boot_cmdline, "stacktrace") ? stack_tracer_set(1) : 0;
}
