/*
 * Fprobe and tprobe events (Linux's trace_fprobe): the `f` and `t` lines
 * of dynamic_events.
 *
 *   f[:[GRP/][EVENT]] FUNC[%return] [FETCHARGS]    events/fprobes/FUNC__entry, FUNC__exit
 *   t[:[GRP/][EVENT]] TRACEPOINT [FETCHARGS]       events/tracepoints/TRACEPOINT
 *
 * An fprobe is a function tracer callback (struct ftrace_ops) on the
 * function's entry site: $argN are the argument registers then the
 * stack, as at a kprobe on the entry. Its %return form hooks the call's
 * return through function_graph's shadow stack (trace/fgraph.c, a frame
 * marked FGRAPH_FRAME_FPROBE, shared with the graph tracer when both
 * want the call) and records `(caller <- FUNC)` and $retval there.
 *
 * A tprobe is a probe on a tracepoint: $argN are the tracepoint's own
 * arguments (Linux's, without BTF: Spoor has none, so no names).
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/kallsyms.h>
#include <kernel/rcu.h>
#include <asm/ptrace.h>
#include <asm/ftrace.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/ftrace_set.h>
#include <trace/fgraph.h>
#include <trace/trace_output.h>
#include <trace/trace_probe_event.h>

#define FPROBE_GROUP		"fprobes"
#define TPROBE_GROUP		"tracepoints"
#define FPROBE_EXITS_MAX	64	/* %return fprobes armed at once */

/* One event and its probe. */
struct trace_fprobe {
	struct probe_event pe;
	char *symbol;			/* the function, or the tracepoint */
	unsigned long addr;		/* the function's entry site */
	bool is_return;
	struct tracepoint *tpoint;	/* a tprobe's */
	struct ftrace_ops ops;		/* an fprobe's: filter holds the site alone */
};

/* The armed %return fprobes (NULL: free), read by the return hook under RCU-sched. */
static struct trace_fprobe *fprobe_exits[FPROBE_EXITS_MAX];
/* Slots below this may be in use: the hook scans no further. */
static unsigned int fprobe_exits_end;

static struct trace_fprobe *to_tf(const struct probe_event *pe)
{
	return container_of(pe, struct trace_fprobe, pe);
}

/* --- hits --------------------------------------------------------------------------------- */

/*
 * The entry's registers as a pt_regs: the argument registers, the stack at
 * the return slot. Only what fprobes' arguments can name ($argN, $stackN:
 * no %REG) is filled.
 */
static void fprobe_regs(struct pt_regs *regs, const struct ftrace_regs *fregs, unsigned long ip)
{
	regs->rdi = fregs->rdi;
	regs->rsi = fregs->rsi;
	regs->rdx = fregs->rdx;
	regs->rcx = fregs->rcx;
	regs->r8 = fregs->r8;
	regs->r9 = fregs->r9;
	regs->rax = fregs->rax;
	regs->r10 = fregs->r10;
	regs->r11 = fregs->r11;
	regs->rip = ip;
	regs->rsp = (unsigned long)&fregs->parent_ip;
}

_Static_assert(sizeof(((struct ftrace_ret_frame *)0)->args) ==
	       PROBE_ENTRY_ARGS * sizeof(unsigned long), "a frame keeps what $argN may name");

/* What a %return fprobe's $argN reads at the return. */
static void fprobe_save_args(struct ftrace_ret_frame *f, const struct ftrace_regs *fregs)
{
	f->args[0] = fregs->rdi;
	f->args[1] = fregs->rsi;
	f->args[2] = fregs->rdx;
	f->args[3] = fregs->rcx;
	f->args[4] = fregs->r8;
	f->args[5] = fregs->r9;
}

static void fprobe_entry(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			 struct ftrace_regs *fregs)
{
	struct trace_fprobe *tf = op->private;
	struct ftrace_ret_frame *f;
	struct pt_regs regs;
	int depth;

	if (tf->is_return) {
		/* hook the return once, whoever else (the graph tracer) wants it too */
		f = fgraph_hooked(fregs, ip, &depth);
		if (f) {
			f->flags |= FGRAPH_FRAME_FPROBE;
			fprobe_save_args(f, fregs);
			return;
		}
		f = fgraph_push(fregs, ip, FGRAPH_FRAME_FPROBE, &depth);
		if (f) {
			fprobe_save_args(f, fregs);
			fgraph_hook(fregs);
		}
		return;
	}
	fprobe_regs(&regs, fregs, ip);
	probe_event_hit(&tf->pe, &(struct probe_hit){ .regs = &regs, .ip = ip,
						       .head = PROBE_HEAD_IP });
}

/* A hooked return: every armed %return fprobe of the function records it. */
static void fprobe_return(const struct ftrace_ret_frame *f, unsigned long retval)
{
	struct pt_regs regs = { .rax = retval, .rip = f->ret };

	unsigned int end = READ_ONCE(fprobe_exits_end);

	for (unsigned int i = 0; i < end; i++) {
		struct trace_fprobe *tf = READ_ONCE(fprobe_exits[i]);

		if (tf && tf->addr == f->func)
			probe_event_hit(&tf->pe, &(struct probe_hit){ .regs = &regs,
								      .entry_args = f->args,
								      .ip = f->func, .ret_ip = f->ret,
								      .head = PROBE_HEAD_RET });
	}
}

/*
 * A tracepoint's probe: called as probe(data, args...), so its arguments
 * are the registers after data, the sixth on the stack.
 */
static void tprobe_hit(void *data, unsigned long a1, unsigned long a2, unsigned long a3,
		       unsigned long a4, unsigned long a5, unsigned long a6)
{
	struct trace_fprobe *tf = data;
	struct pt_regs regs = { .rdi = a1, .rsi = a2, .rdx = a3, .rcx = a4, .r8 = a5, .r9 = a6,
				.rip = tf->addr };

	regs.rsp = (unsigned long)__builtin_frame_address(0) + sizeof(long);
	probe_event_hit(&tf->pe, &(struct probe_hit){ .regs = &regs, .ip = tf->addr,
						      .head = PROBE_HEAD_IP, .in_tracepoint = true });
}

static void fprobe_print_head(struct trace_seq *s, const struct probe_event *pe, const u8 *rec)
{
	probe_print_ip_head(s, rec, to_tf(pe)->is_return);
}

static int fprobe_arm_exit(struct trace_fprobe *tf, bool on)
{
	for (unsigned int i = 0; i < FPROBE_EXITS_MAX; i++) {
		if (READ_ONCE(fprobe_exits[i]) != (on ? NULL : tf))
			continue;
		WRITE_ONCE(fprobe_exits[i], on ? tf : NULL);
		if (on && i >= fprobe_exits_end)
			WRITE_ONCE(fprobe_exits_end, i + 1);
		if (!on)
			synchronize_rcu();	/* no return hook still records into it */
		return 0;
	}
	return -ENOSPC;
}

static int fprobe_arm(struct probe_event *pe, bool on)
{
	struct trace_fprobe *tf = to_tf(pe);
	int ret;

	if (tf->tpoint)
		return on ? tracepoint_probe_register(tf->tpoint, (void *)tprobe_hit, tf)
			  : tracepoint_probe_unregister(tf->tpoint, (void *)tprobe_hit, tf);
	if (!tf->ops.func)
		return 0;		/* a tprobe on a tracepoint that is not there */
	if (on && tf->is_return) {
		ret = fprobe_arm_exit(tf, true);
		if (ret)
			return ret;
	}
	tf->ops.private = tf;		/* (a probe swapped into another event's first moved) */
	ftrace_lock();
	ret = on ? register_ftrace_function(&tf->ops) : unregister_ftrace_function(&tf->ops);
	ftrace_unlock();
	if (tf->is_return && (!on || ret))
		fprobe_arm_exit(tf, false);
	return ret;
}

/* --- defining ----------------------------------------------------------------------------- */

static void trace_fprobe_free(struct probe_event *pe)
{
	struct trace_fprobe *tf = to_tf(pe);

	probe_event_free_common(pe);
	ftrace_ops_free(&tf->ops);
	kfree(tf->symbol);
	kfree(tf);
}

static struct tracepoint *tracepoint_find(const char *name)
{
	extern struct tracepoint __start___tracepoints[], __stop___tracepoints[];

	for (struct tracepoint *tp = __start___tracepoints; tp < __stop___tracepoints; tp++)
		if (!strcmp(tp->name, name))
			return tp;
	return NULL;
}

/* `FUNC[%return]` (or `TRACEPOINT`): argv[1]. */
static int parse_place(struct trace_fprobe *tf, struct probe_cmd *c, bool is_tracepoint)
{
	char *w = c->argv[1], *pct = strchr(w, '%');
	int pos = c->pos[1], idx;

	if (pct) {
		if (strcmp(pct, "%return") || is_tracepoint)
			return probe_cmd_fail(c, "Invalid probed address suffix", pos + (int)(pct - w),
					      -EINVAL);
		*pct = '\0';
		tf->is_return = true;
	}
	tf->symbol = kstrdup(w, GFP_KERNEL);
	if (!tf->symbol)
		return -ENOMEM;
	if (is_tracepoint) {
		size_t ok = strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (w[ok])
			return probe_cmd_fail(c, "Invalid character in tracepoint name", pos + (int)ok,
					      -EINVAL);
		/* Linux takes a tracepoint it does not know (a module's, later): it never fires */
		tf->tpoint = tracepoint_find(w);
		tf->addr = (unsigned long)tf->tpoint;
		return 0;
	}
	tf->addr = probe_is_ident(w, strlen(w)) ? ftrace_location(kallsyms_lookup_name(w)) : 0;
	idx = tf->addr ? ftrace_site_index(tf->addr) : -1;
	if (idx < 0)
		return probe_cmd_fail(c, "Failed to register probe event", pos, -EINVAL);
	if (ftrace_ops_init(&tf->ops))
		return -ENOMEM;
	ftrace_set_assign(&tf->ops.filter, (unsigned int)idx, true);
	tf->ops.func = fprobe_entry;
	tf->ops.private = tf;
	return 0;
}

/* `vfs_read__entry`, `vfs_read__exit`, `sched_switch`: Linux's names for unnamed probes. */
static char *default_event_name(const struct trace_fprobe *tf)
{
	char buf[PROBE_NAME_MAX];

	snprintf(buf, sizeof(buf), "%s%s", tf->symbol,
		 tf->tpoint ? "" : tf->is_return ? "__exit" : "__entry");
	for (char *p = buf; *p; p++)
		if (!probe_is_ident(p, 1) && !(*p >= '0' && *p <= '9'))
			*p = '_';
	return kstrdup(buf, GFP_KERNEL);
}

int trace_fprobe_create(struct probe_cmd *c)
{
	bool is_tracepoint = c->argv[0][0] == 't';
	struct probe_ctx ctx = { .flags = PROBE_CTX_NOREGS };
	const char *group = NULL, *event = NULL;
	struct trace_fprobe *tf;
	char *colon;
	int ret;

	c->log_loc = "trace_fprobe";
	tf = kzalloc(sizeof(*tf), GFP_KERNEL);
	if (!tf)
		return -ENOMEM;
	tf->pe.type = &trace_fprobe_type;
	colon = strchr(c->argv[0], ':');
	if (colon)
		*colon = '\0';
	if (c->argv[0][1]) {
		ret = c->argv[0][1] >= '0' && c->argv[0][1] <= '9' ?
			probe_cmd_fail(c, "Maxactive is only for function exit", 1, -EINVAL) : -ECHILD;
		goto fail;
	}
	if (c->argc < 2) {
		ret = -EINVAL;		/* Linux logs nothing for a line without a place */
		goto fail;
	}
	ret = colon ? probe_cmd_name(c, 0, colon + 1, 0, &group, &event) : 0;
	if (ret)
		goto fail;
	ret = parse_place(tf, c, is_tracepoint);
	if (tf->is_return)
		ctx.flags |= PROBE_CTX_RETURN;
	for (int i = 2; !ret && i < c->argc; i++)
		ret = probe_arg_parse(&tf->pe.args, c->argv[i], c->pos[i], &ctx, &c->err);
	if (ret)
		goto fail;
	tf->pe.group = kstrdup(group ? group : is_tracepoint ? TPROBE_GROUP : FPROBE_GROUP,
			       GFP_KERNEL);
	tf->pe.event = event ? kstrdup(event, GFP_KERNEL) : default_event_name(tf);
	ret = probe_event_add(&tf->pe, tf->is_return ? PROBE_HEAD_RET : PROBE_HEAD_IP, c,
			      event ? (int)(event - c->argv[0]) : 0);
	if (!ret)
		return 0;
fail:
	trace_fprobe_free(&tf->pe);
	return ret;
}

static int fprobe_show(const struct probe_event *pe, char *buf, size_t size)
{
	const struct trace_fprobe *tf = to_tf(pe);

	return snprintf(buf, size, "%c:%s/%s %s%s", tf->tpoint ? 't' : 'f', pe->group, pe->event,
			tf->symbol, tf->is_return ? "%return" : "");
}

const struct probe_event_type trace_fprobe_type = {
	.log_loc = "trace_fprobe",
	.arm = fprobe_arm,
	.show = fprobe_show,
	.print_head = fprobe_print_head,
	.appendable = true,
	.free = trace_fprobe_free,
	.size = sizeof(struct trace_fprobe),
};

/* The return hook's half (boot, once). */
int trace_fprobe_init(void)
{
	fgraph_set_fprobe_return(fprobe_return);
	return 0;
}
