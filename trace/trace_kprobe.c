/*
 * Kprobe events (Linux's trace_kprobe): `kprobe_events` and the `p:`/`r:`
 * lines of `dynamic_events` define events under events/GROUP/ (default
 * `kprobes`) whose records are fetched by a kprobe or kretprobe
 * (kernel/kprobes.h) at each hit:
 *
 *   p[:[GRP/]EVENT] SYM[+offs]|ADDR [FETCHARGS]
 *   p[:[GRP/]EVENT] SYM%return [FETCHARGS]     (a kretprobe)
 *   r[MAXACTIVE][:[GRP/]EVENT] SYM[+0] [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 * The probe is checked when the line is written (Linux's errors and
 * carets in error_log) and armed only while an instance traces the event;
 * `kprobe_profile` counts hits and misses. What all probe events share
 * (records, files, listing, removal, a second line appending a probe to
 * an event) is trace/trace_probe_event.c's.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/sched.h>
#include <kernel/kallsyms.h>
#include <kernel/kprobes.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <trace/trace.h>
#include <trace/tracepoint.h>
#include <trace/trace_output.h>
#include <trace/trace_probe.h>
#include <trace/trace_kprobe.h>
#include <trace/trace_probe_event.h>

#define KPROBE_GROUP		"kprobes"
#define KRETPROBE_MAXACTIVE_MAX	4096

/* One event and its probe. */
struct trace_kprobe {
	struct probe_event pe;
	char *symbol;			/* NULL: probed by address */
	unsigned long offset;		/* from symbol */
	bool is_return;
	union {			/* rp.kp is kp: kp is the probe either way */
		struct kprobe kp;
		struct kretprobe rp;	/* is_return */
	};
	unsigned long nhit_missed;	/* misses of probes that were disarmed since */
};

static struct trace_kprobe *to_tk(const struct probe_event *pe)
{
	return container_of(pe, struct trace_kprobe, pe);
}

static unsigned long tk_nmissed(struct trace_kprobe *tk)
{
	return tk->nhit_missed + tk->kp.nmissed + (tk->is_return ? tk->rp.nmissed : 0);
}

/* --- hits ------------------------------------------------------------------------------- */

static void kprobe_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct trace_kprobe *tk = container_of(p, struct trace_kprobe, kp);
	struct probe_hit hit = { .regs = regs, .ip = p->addr, .head = PROBE_HEAD_IP };

	/* the record counts a level of preemption as a tracepoint's probe would */
	preempt_disable();
	probe_event_hit(&tk->pe, &hit);
	preempt_enable();
}

_Static_assert(KRETPROBE_ARGS == PROBE_ENTRY_ARGS, "a kretprobe keeps what $argN may name");

static void kretprobe_handler(struct kretprobe *rp, struct pt_regs *regs, unsigned long ret_ip,
			      const unsigned long *args)
{
	struct trace_kprobe *tk = container_of(rp, struct trace_kprobe, rp);
	struct probe_hit hit = { .regs = regs, .entry_args = args, .ip = rp->kp.addr,
				 .ret_ip = ret_ip, .head = PROBE_HEAD_RET };

	preempt_disable();
	probe_event_hit(&tk->pe, &hit);
	preempt_enable();
}

/* `(vfs_read+0x0/0x1b0)`, or `(ksys_read+0x5a/0xb0 <- vfs_read)`: the record's head words. */
void probe_print_ip_head(struct trace_seq *s, const u8 *rec, bool is_return)
{
	unsigned long ip, ret_ip;
	char sym[128];

	memcpy(&ip, rec + 8, sizeof(ip));
	if (is_return) {
		memcpy(&ret_ip, rec + 16, sizeof(ret_ip));
		sprint_symbol(sym, sizeof(sym), ret_ip);
		trace_seq_printf(s, "(%s <- ", sym);
		sprint_symbol_no_offset(sym, sizeof(sym), ip);
		trace_seq_printf(s, "%s)", sym);
	} else {
		sprint_symbol(sym, sizeof(sym), ip);
		trace_seq_printf(s, "(%s)", sym);
	}
}

static void kprobe_print_head(struct trace_seq *s, const struct probe_event *pe, const u8 *rec)
{
	probe_print_ip_head(s, rec, to_tk(pe)->is_return);
}

/* The probe is armed while some instance traces the event. */
static int kprobe_arm(struct probe_event *pe, bool on)
{
	struct trace_kprobe *tk = to_tk(pe);

	if (on)
		return tk->is_return ? register_kretprobe(&tk->rp) : register_kprobe(&tk->kp);
	tk->nhit_missed = tk_nmissed(tk);
	if (tk->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->kp);
	tk->kp.nmissed = 0;
	if (tk->is_return)
		tk->rp.nmissed = 0;
	return 0;
}

/* --- defining ----------------------------------------------------------------------------- */

static void trace_kprobe_free(struct probe_event *pe)
{
	struct trace_kprobe *tk = to_tk(pe);

	probe_event_free_common(pe);
	kfree(tk->symbol);
	kfree(tk);
}

/* `p[:[GRP/]EVENT]` or `rN[:...]`: argv[0]. */
static int parse_head(struct trace_kprobe *tk, struct probe_cmd *c, const char **group,
		      const char **event)
{
	char *w = c->argv[0], *colon = strchr(w, ':');
	unsigned long long maxactive;
	int ret;

	tk->is_return = w[0] == 'r';
	if (colon)
		*colon = '\0';
	if (w[1]) {
		if (!tk->is_return)
			return probe_cmd_fail(c, "Maxactive is only for function exit", 1, -EINVAL);
		if (kstrtoull(w + 1, 0, &maxactive) || !maxactive)
			return probe_cmd_fail(c, "Invalid maxactive number", 1, -EINVAL);
		if (maxactive > KRETPROBE_MAXACTIVE_MAX)
			return probe_cmd_fail(c, "Maxactive is too big", 1, -EINVAL);
		tk->rp.maxactive = (unsigned int)maxactive;
	}
	*group = NULL;
	*event = NULL;
	ret = colon ? probe_cmd_name(c, 0, colon + 1, 0, group, event) : 0;
	if (!*group)
		*group = KPROBE_GROUP;
	return ret;
}

/* `SYM[+offs][%return]` or `ADDR`: argv[1]. */
static int parse_place(struct trace_kprobe *tk, struct probe_cmd *c)
{
	char *w = c->argv[1], *plus = strchr(w, '+'), *pct = strchr(w, '%');
	unsigned long long v;
	int pos = c->pos[1];

	if (pct) {
		/* `p:... SYM%return`: a kretprobe (Linux's other spelling; `r` takes it too) */
		if (strcmp(pct, "%return"))
			return probe_cmd_fail(c, "Invalid probed address suffix", pos + (int)(pct - w),
					      -EINVAL);
		*pct = '\0';
		tk->is_return = true;
	}
	if (w[0] >= '0' && w[0] <= '9') {
		if (kstrtoull(w, 0, &v))
			return probe_cmd_fail(c, "Invalid probed address or symbol", pos, -EINVAL);
		tk->kp.addr = (unsigned long)v;
	} else {
		if (plus) {
			*plus = '\0';
			if (kstrtoull(plus + 1, 0, &v))
				return probe_cmd_fail(c, "Invalid probed address or symbol", pos,
						      -EINVAL);
			tk->offset = (unsigned long)v;
		}
		tk->symbol = kstrdup(w, GFP_KERNEL);
		if (!tk->symbol)
			return -ENOMEM;
		v = kallsyms_lookup_name(w);
		/* an offset that wraps below the symbol (a negative one written in hex) */
		if (!v || v + tk->offset < v)
			return probe_cmd_fail(c, "Invalid probed address or symbol", pos, -EINVAL);
		tk->kp.addr = (unsigned long)v + tk->offset;
	}
	if (tk->is_return) {
		unsigned long off = 1, size;
		const char *name;

		if (!kallsyms_lookup(tk->kp.addr, &name, &off, &size) || off)
			return probe_cmd_fail(c, "Retprobe address must be an function entry", pos,
					      -EINVAL);
	}
	return 0;
}

/* `p_vfs_read_0`, `r_0x...`: Linux's name for an unnamed probe. */
static char *default_event_name(const struct trace_kprobe *tk)
{
	char buf[PROBE_NAME_MAX];

	if (tk->symbol)
		snprintf(buf, sizeof(buf), "%c_%s_%lu", tk->is_return ? 'r' : 'p', tk->symbol,
			 tk->offset);
	else
		snprintf(buf, sizeof(buf), "%c_0x%lx", tk->is_return ? 'r' : 'p', tk->kp.addr);
	for (char *p = buf; *p; p++)
		if (!probe_is_ident(p, 1) && !(*p >= '0' && *p <= '9'))
			*p = '_';
	return kstrdup(buf, GFP_KERNEL);
}

/* Probe checks that can fail before any event exists: Linux's errors, at the place. */
static int check_probe(struct trace_kprobe *tk, struct probe_cmd *c)
{
	int ret = kprobe_check(tk->kp.addr);

	if (ret == -EILSEQ)
		return probe_cmd_fail(c, "Probe point is not an instruction boundary", c->pos[1],
				      ret);
	if (ret == -ENOENT)
		return probe_cmd_fail(c, "Invalid probed address or symbol", c->pos[1], -EINVAL);
	if (ret && ret != -ENOMEM)
		return probe_cmd_fail(c, "Failed to register probe event", c->pos[1], -EINVAL);
	return ret;
}

int trace_kprobe_create(struct probe_cmd *c)
{
	struct probe_ctx ctx = { 0 };
	struct trace_kprobe *tk;
	const char *group, *event;
	int ret;

	c->log_loc = "trace_kprobe";
	tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	if (!tk)
		return -ENOMEM;
	tk->pe.type = &trace_kprobe_type;
	ret = parse_head(tk, c, &group, &event);
	if (ret)
		goto fail;
	if (c->argc < 2) {
		ret = -EINVAL;		/* Linux logs nothing for a line without a place */
		goto fail;
	}
	ret = parse_place(tk, c);
	ctx.flags = tk->is_return ? PROBE_CTX_RETURN : 0;
	for (int i = 2; !ret && i < c->argc; i++)
		ret = probe_arg_parse(&tk->pe.args, c->argv[i], c->pos[i], &ctx, &c->err);
	if (!ret)
		ret = check_probe(tk, c);
	if (ret)
		goto fail;
	tk->pe.group = kstrdup(group, GFP_KERNEL);
	tk->pe.event = event ? kstrdup(event, GFP_KERNEL) : default_event_name(tk);
	if (tk->is_return) {
		tk->rp.handler = kretprobe_handler;
		if (!tk->rp.maxactive)
			tk->rp.maxactive = kretprobe_default_maxactive();
	} else {
		tk->kp.pre_handler = kprobe_pre_handler;
	}
	ret = probe_event_add(&tk->pe, tk->is_return ? PROBE_HEAD_RET : PROBE_HEAD_IP, c,
			      event ? (int)(event - c->argv[0]) : 0);
	if (!ret)
		return 0;
fail:
	trace_kprobe_free(&tk->pe);
	return ret;
}

static int kprobe_show(const struct probe_event *pe, char *buf, size_t size)
{
	const struct trace_kprobe *tk = to_tk(pe);
	size_t n = 0;

#define OUT(...) (n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, \
				       __VA_ARGS__))
	if (tk->is_return)
		OUT("r%u:%s/%s", tk->rp.maxactive, pe->group, pe->event);
	else
		OUT("p:%s/%s", pe->group, pe->event);
	if (!tk->symbol)
		OUT(" 0x%016lx", tk->kp.addr);
	else if (tk->offset)
		OUT(" %s+%lu", tk->symbol, tk->offset);
	else
		OUT(" %s", tk->symbol);
#undef OUT
	return (int)n;
}

/* `  vfs_read   123   0`: the event, its hits and misses. */
static int kprobe_profile_line(const struct probe_event *pe, char *buf, size_t size)
{
	return snprintf(buf, size, "  %-44s %15lu %15lu\n", pe->event, pe->nhit,
			tk_nmissed(to_tk(pe)));
}

const struct probe_event_type trace_kprobe_type = {
	.log_loc = "trace_kprobe",
	.arm = kprobe_arm,
	.show = kprobe_show,
	.profile_line = kprobe_profile_line,
	.print_head = kprobe_print_head,
	.appendable = true,
	.free = trace_kprobe_free,
	.size = sizeof(struct trace_kprobe),
};

int trace_kprobe_dynevent_write(const char *cmd)
{
	return probe_event_command(cmd, NULL);
}

int trace_kprobe_release_all(void)
{
	return probe_events_release(NULL);
}

int trace_kprobe_dynevent_show(char *buf, size_t size)
{
	return probe_events_show(NULL, buf, size);
}

int trace_kprobe_init(void)
{
	if (trace_fprobe_init() || trace_uprobe_init())
		return -ENOMEM;
	return probe_events_create_files(&trace_kprobe_type, "kprobe_events", "kprobe_profile");
}
