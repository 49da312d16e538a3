/*
 * Kprobe events (Linux's trace_kprobe): `kprobe_events` and the `p:`/`r:`
 * lines of `dynamic_events` define events under events/GROUP/ (default
 * `kprobes`) whose records are fetched by a kprobe or kretprobe
 * (kernel/kprobes.h) at each hit:
 *
 *   p[:[GRP/]EVENT] SYM[+offs]|ADDR [FETCHARGS]
 *   r[MAXACTIVE][:[GRP/]EVENT] SYM[+0] [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 * The probe is checked when the line is written (Linux's errors and
 * carets in error_log) and armed only while an instance traces the event;
 * `kprobe_profile` counts hits and misses. An event with two probes
 * (Linux appends a line naming an existing event with the same
 * arguments) is not supported: such a line gets -EEXIST.
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
#include <kernel/fs/fcntl.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/tracefs.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <trace/trace.h>
#include <trace/tracepoint.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_output.h>
#include <trace/trace_probe.h>
#include <trace/trace_kprobe.h>

#define KPROBE_GROUP		"kprobes"
#define KPROBE_LOG_LOC		"trace_kprobe"
#define KRETPROBE_MAXACTIVE_MAX	4096
#define KPROBE_RECORD_MAX	4096	/* one record: fixed part and strings */

/* One event and its probe. */
struct trace_kprobe {
	struct list_head list;
	char *group, *event;
	char *symbol;			/* NULL: probed by address */
	unsigned long offset;		/* from symbol */
	bool is_return;
	union {			/* rp.kp is kp: kp is the probe either way */
		struct kprobe kp;
		struct kretprobe rp;	/* is_return */
	};
	unsigned int nr_files;		/* instances tracing it: the probe is armed while > 0 */
	unsigned long nhit;
	unsigned long nhit_missed;	/* misses of probes that were disarmed since */
	struct tracepoint tp;
	struct trace_event_call call;
	struct probe_args args;
};

typedef void (*kprobe_event_probe_fn)(void *data, const u8 *rec, unsigned int len);

static LIST_HEAD(trace_kprobes);
/* Per CPU, where a hit's record is built (handlers run with interrupts off, never nested). */
static u8 *kprobe_records;

static unsigned long tk_nmissed(struct trace_kprobe *tk)
{
	return tk->nhit_missed + tk->kp.nmissed + (tk->is_return ? tk->rp.nmissed : 0);
}

/* --- hits ------------------------------------------------------------------------------- */

static bool fetch_word(unsigned long addr, unsigned long *v)
{
	return !copy_from_kernel_nofault(v, (const void *)addr, sizeof(*v));
}

static unsigned long fetch_base(const struct probe_arg *a, struct pt_regs *regs)
{
	unsigned long v = 0;

	switch (a->base) {
	case PROBE_BASE_REG:
		return ((unsigned long *)regs)[a->base_val];
	case PROBE_BASE_STACK:
		fetch_word(regs->rsp + a->base_val * sizeof(long), &v);
		return v;
	case PROBE_BASE_STACKP:
		return regs->rsp;
	case PROBE_BASE_RETVAL:
		return regs->rax;
	default:
		return a->base_val;
	}
}

/*
 * One argument into the record; strings go at *dyn (their __data_loc in
 * the field). A fault leaves 0 (a string: empty, printed "(fault)").
 */
static void fetch_arg(const struct probe_arg *a, struct pt_regs *regs, u8 *rec,
		      unsigned int *dyn)
{
	unsigned long v = fetch_base(a, regs);
	unsigned int last = a->nderef, i;
	long len = 0;
	u32 loc;

	if (last)
		last--;			/* the outermost +off(...): the string's address, or the value */
	for (i = 0; i < last; i++)
		if (!fetch_word(v + (unsigned long)a->deref[i], &v))
			goto fault;
	if (a->kind == PROBE_STRING) {
		unsigned int room = KPROBE_RECORD_MAX - *dyn;

		if (room > PROBE_STRING_MAX)
			room = PROBE_STRING_MAX;
		if (a->base == PROBE_BASE_COMM) {
			len = (long)strscpy((char *)rec + *dyn, current->comm, room);
		} else {
			v += (unsigned long)a->deref[last];
			len = strncpy_from_nofault((char *)rec + *dyn, (const void *)v, (long)room);
			if (len == (long)room)
				len--;
		}
		if (len < 0 || !room)
			len = -1;
		else
			rec[*dyn + (unsigned int)len] = '\0';
		loc = len < 0 ? 0 : (u32)(len + 1) << 16 | *dyn;
		memcpy(rec + a->offset, &loc, sizeof(loc));
		*dyn += len < 0 ? 0 : (unsigned int)len + 1;
		return;
	}
	if (a->nderef) {
		/* the outermost +off(...) reads the value itself, at its type's size */
		unsigned long addr = v + (unsigned long)a->deref[last];

		if (a->count) {
			if (copy_from_kernel_nofault(rec + a->offset, (const void *)addr,
						     (size_t)a->size * a->count))
				goto fault;
			return;
		}
		v = 0;
		if (copy_from_kernel_nofault(&v, (const void *)addr, a->size))
			goto fault;
	}
	if (a->bf_width)
		v = (v >> a->bf_shift) & (~0UL >> (64 - a->bf_width));
	memcpy(rec + a->offset, &v, a->size);
	return;
fault:
	if (a->kind == PROBE_STRING)
		memset(rec + a->offset, 0, 4);
	else
		memset(rec + a->offset, 0, (size_t)a->size * (a->count ? a->count : 1u));
}

/* Build the record and hand it to every instance tracing the event. */
static void kprobe_event_hit(struct trace_kprobe *tk, struct pt_regs *regs, unsigned long ip,
			     unsigned long ret_ip)
{
	u8 *rec = kprobe_records + (size_t)smp_processor_id() * KPROBE_RECORD_MAX;
	unsigned int dyn = tk->args.size;
	struct trace_recursion *guard;
	struct tracepoint_func *it;

	__atomic_add_fetch(&tk->nhit, 1, __ATOMIC_RELAXED);
	memset(rec, 0, sizeof(struct trace_entry));
	memcpy(rec + 8, &ip, sizeof(ip));
	if (tk->is_return)
		memcpy(rec + 16, &ret_ip, sizeof(ret_ip));
	for (unsigned int i = 0; i < tk->args.n; i++)
		fetch_arg(&tk->args.args[i], regs, rec, &dyn);
	preempt_disable();
	guard = this_cpu_ptr(&tracepoint_recursion);
	if (trace_recursion_lock(guard)) {
		for (it = rcu_dereference(tk->tp.funcs); it && it->func; it++)
			((kprobe_event_probe_fn)it->func)(it->data, rec, dyn);
		trace_recursion_unlock(guard);
	}
	preempt_enable();
}

static void kprobe_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct trace_kprobe *tk = container_of(p, struct trace_kprobe, kp);

	kprobe_event_hit(tk, regs, p->addr, 0);
}

static void kretprobe_handler(struct kretprobe *rp, struct pt_regs *regs, unsigned long ret_ip)
{
	struct trace_kprobe *tk = container_of(rp, struct trace_kprobe, rp);

	kprobe_event_hit(tk, regs, rp->kp.addr, ret_ip);
}

/* An instance's probe: the record into its ring buffer, through filter and triggers. */
static void kprobe_event_probe(void *data, const u8 *rec, unsigned int len)
{
	trace_event_write_record(data, rec, len);
}

/* `(vfs_read+0x0/0x1b0)`, or `(ksys_read+0x5a/0xb0 <- vfs_read)` and the arguments. */
static int kprobe_event_output(struct trace_seq *s, struct trace_seq *tmp,
			       const struct trace_entry *ent)
{
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct trace_kprobe *tk = container_of(call, struct trace_kprobe, call);
	const u8 *rec = (const u8 *)ent;
	unsigned long ip, ret_ip;
	char sym[128];

	memcpy(&ip, rec + 8, sizeof(ip));
	if (tk->is_return) {
		memcpy(&ret_ip, rec + 16, sizeof(ret_ip));
		sprint_symbol(sym, sizeof(sym), ret_ip);
		trace_seq_printf(s, "(%s <- ", sym);
		sprint_symbol_no_offset(sym, sizeof(sym), ip);
		trace_seq_printf(s, "%s)", sym);
	} else {
		sprint_symbol(sym, sizeof(sym), ip);
		trace_seq_printf(s, "(%s)", sym);
	}
	/* the length is what trace_print_event checked: at least the fixed part */
	probe_args_print(s, &tk->args, rec, KPROBE_RECORD_MAX);
	return 0;
}

/* trace_event_call.reg: the probe is armed while some instance traces the event. */
static int kprobe_event_reg(struct trace_event_file *file, bool enable)
{
	struct trace_kprobe *tk = container_of(file->event_call, struct trace_kprobe, call);
	int ret;

	if (enable) {
		ret = tracepoint_probe_register(&tk->tp, (void *)kprobe_event_probe, file);
		if (ret || tk->nr_files++)
			return ret;
		ret = tk->is_return ? register_kretprobe(&tk->rp) : register_kprobe(&tk->kp);
		if (ret) {
			tk->nr_files--;
			tracepoint_probe_unregister(&tk->tp, (void *)kprobe_event_probe, file);
		}
		return ret;
	}
	ret = tracepoint_probe_unregister(&tk->tp, (void *)kprobe_event_probe, file);
	if (ret || --tk->nr_files)
		return ret;
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

static void trace_kprobe_free(struct trace_kprobe *tk)
{
	probe_args_free(&tk->args);
	kfree(tk->group);
	kfree(tk->event);
	kfree(tk->symbol);
	kfree(tk);
}

static struct trace_kprobe *trace_kprobe_find(const char *group, const char *event)
{
	struct trace_kprobe *tk;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (!strcmp(tk->event, event) && (!group || !strcmp(tk->group, group)))
			return tk;
	return NULL;
}

static int trace_kprobe_destroy(struct trace_kprobe *tk)
{
	int ret = trace_remove_event_files(&tk->call);

	if (ret)
		return ret;
	trace_remove_event_call(&tk->call);
	list_del(&tk->list);
	trace_kprobe_free(tk);
	return 0;
}

/* A command's words, and each one's column in the command as error_log shows it. */
struct kprobe_cmd {
	char *argv[PROBE_ARGS_MAX + 2];
	int pos[PROBE_ARGS_MAX + 2];
	int argc;
	char *text;			/* the words joined by single spaces (Linux logs argv so) */
	struct probe_error err;
};

static int kprobe_cmd_split(struct kprobe_cmd *c, const char *cmd)
{
	size_t len = strlen(cmd);
	char *buf = kmalloc(len * 2 + 2, GFP_KERNEL), *p;
	int col = 0;

	if (!buf)
		return -ENOMEM;
	c->text = buf;
	p = buf + len + 1;
	memcpy(p, cmd, len + 1);
	c->argc = 0;
	buf[0] = '\0';
	c->err.msg = NULL;
	while (*(p += strspn(p, " \t"))) {
		size_t wlen = strcspn(p, " \t");

		if (c->argc == (int)ARRAY_SIZE(c->argv))
			return -E2BIG;
		if (col)
			buf[col++] = ' ';
		memcpy(buf + col, p, wlen);
		buf[col + (int)wlen] = '\0';
		c->argv[c->argc] = p;
		c->pos[c->argc++] = col;
		col += (int)wlen;
		p += wlen;
		if (*p)
			*p++ = '\0';
	}
	return 0;
}

static int cmd_fail(struct kprobe_cmd *c, const char *msg, int pos, int ret)
{
	c->err.msg = msg;
	c->err.pos = pos;
	return ret;
}

static bool is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* `p[:[GRP/]EVENT]` or `rN[:...]`: argv[0]. */
static int parse_head(struct trace_kprobe *tk, struct kprobe_cmd *c, const char **group,
		      const char **event)
{
	char *w = c->argv[0], *colon = strchr(w, ':'), *slash;
	unsigned long long maxactive;

	tk->is_return = w[0] == 'r';
	if (colon)
		*colon = '\0';
	if (w[1]) {
		if (!tk->is_return)
			return cmd_fail(c, "Maxactive is only for function exit", 1, -EINVAL);
		if (kstrtoull(w + 1, 0, &maxactive) || !maxactive)
			return cmd_fail(c, "Invalid maxactive number", 1, -EINVAL);
		if (maxactive > KRETPROBE_MAXACTIVE_MAX)
			return cmd_fail(c, "Maxactive is too big", 1, -EINVAL);
		tk->rp.maxactive = (unsigned int)maxactive;
	}
	*group = KPROBE_GROUP;
	*event = NULL;
	if (!colon)
		return 0;
	w = colon + 1;
	slash = strchr(w, '/');
	if (slash) {
		*slash = '\0';
		if (!*w)
			return cmd_fail(c, "Group name is not specified", (int)(w - c->argv[0]), -EINVAL);
		if (strlen(w) >= PROBE_NAME_MAX)
			return cmd_fail(c, "Group name is too long", (int)(w - c->argv[0]), -EINVAL);
		if (!is_ident(w))
			return cmd_fail(c, "Group name must follow the same rules as C identifiers",
					(int)(w - c->argv[0]), -EINVAL);
		*group = w;
		w = slash + 1;
	}
	if (!*w && slash)
		return 0;		/* `GROUP/`: the event gets the default name */
	if (!*w)
		return cmd_fail(c, "Event name is not specified", (int)(w - c->argv[0]), -EINVAL);
	if (strlen(w) >= PROBE_NAME_MAX)
		return cmd_fail(c, "Event name is too long", (int)(w - c->argv[0]), -EINVAL);
	if (!is_ident(w))
		return cmd_fail(c, "Event name must follow the same rules as C identifiers",
				(int)(w - c->argv[0]), -EINVAL);
	*event = w;
	return 0;
}

/* `SYM[+offs]` or `ADDR`: argv[1]. */
static int parse_place(struct trace_kprobe *tk, struct kprobe_cmd *c)
{
	char *w = c->argv[1], *plus = strchr(w, '+');
	unsigned long long v;
	int pos = c->pos[1];

	if (w[0] >= '0' && w[0] <= '9') {
		if (kstrtoull(w, 0, &v))
			return cmd_fail(c, "Invalid probed address or symbol", pos, -EINVAL);
		tk->kp.addr = (unsigned long)v;
	} else {
		if (plus) {
			*plus = '\0';
			if (kstrtoull(plus + 1, 0, &v))
				return cmd_fail(c, "Invalid probed address or symbol", pos, -EINVAL);
			tk->offset = (unsigned long)v;
		}
		tk->symbol = kstrdup(w, GFP_KERNEL);
		if (!tk->symbol)
			return -ENOMEM;
		v = kallsyms_lookup_name(w);
		/* an offset that wraps below the symbol (a negative one written in hex) */
		if (!v || v + tk->offset < v)
			return cmd_fail(c, "Invalid probed address or symbol", pos, -EINVAL);
		tk->kp.addr = (unsigned long)v + tk->offset;
	}
	if (tk->is_return) {
		unsigned long off = 1, size;
		const char *name;

		if (!kallsyms_lookup(tk->kp.addr, &name, &off, &size) || off)
			return cmd_fail(c, "Retprobe address must be an function entry", pos, -EINVAL);
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
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	return kstrdup(buf, GFP_KERNEL);
}

/* Probe checks that can fail before any event exists: Linux's errors, at the place. */
static int check_probe(struct trace_kprobe *tk, struct kprobe_cmd *c)
{
	int ret = kprobe_check(tk->kp.addr);

	if (ret == -EILSEQ)
		return cmd_fail(c, "Probe point is not an instruction boundary", c->pos[1], ret);
	if (ret == -ENOENT)
		return cmd_fail(c, "Invalid probed address or symbol", c->pos[1], -EINVAL);
	if (ret && ret != -ENOMEM)
		return cmd_fail(c, "Failed to register probe event", c->pos[1], -EINVAL);
	return ret;
}

static int trace_kprobe_create(struct kprobe_cmd *c)
{
	struct trace_kprobe *tk;
	const char *group, *event;
	int ret;

	tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	if (!tk)
		return -ENOMEM;
	ret = parse_head(tk, c, &group, &event);
	if (ret)
		goto fail;
	if (c->argc < 2) {
		ret = -EINVAL;		/* Linux logs nothing for a line without a place */
		goto fail;
	}
	ret = parse_place(tk, c);
	for (int i = 2; !ret && i < c->argc; i++)
		ret = probe_arg_parse(&tk->args, c->argv[i], c->pos[i], tk->is_return, &c->err);
	if (!ret)
		ret = check_probe(tk, c);
	if (ret)
		goto fail;
	tk->group = kstrdup(group, GFP_KERNEL);
	tk->event = event ? kstrdup(event, GFP_KERNEL) : default_event_name(tk);
	ret = tk->group && tk->event ? probe_args_finish(&tk->args, tk->is_return) : -ENOMEM;
	if (ret)
		goto fail;
	if (trace_kprobe_find(tk->group, tk->event) || trace_find_event_call(tk->group, tk->event)) {
		ret = cmd_fail(c, "Given group/event name is already used by another event",
			       event ? (int)(event - c->argv[0]) : 0, -EEXIST);
		goto fail;
	}
	if (tk->is_return) {
		tk->rp.handler = kretprobe_handler;
		if (!tk->rp.maxactive)
			tk->rp.maxactive = kretprobe_default_maxactive();
	} else {
		tk->kp.pre_handler = kprobe_pre_handler;
	}
	tk->tp.name = tk->event;
	tk->call.system = tk->group;
	tk->call.name = tk->event;
	tk->call.size = (u16)tk->args.size;
	tk->call.fields = tk->args.fields;
	tk->call.print_fmt = tk->args.print_fmt;
	tk->call.output = kprobe_event_output;
	tk->call.tp = &tk->tp;
	tk->call.probe = (void *)kprobe_event_probe;
	tk->call.reg = kprobe_event_reg;
	ret = trace_add_event_call(&tk->call);
	if (ret)
		goto fail;
	ret = trace_add_event_files(&tk->call);
	if (ret) {
		trace_remove_event_files(&tk->call);
		trace_remove_event_call(&tk->call);
		goto fail;
	}
	list_add_tail(&tk->list, &trace_kprobes);
	return 0;
fail:
	trace_kprobe_free(tk);
	return ret;
}

/*
 * `-:[GRP/]EVENT`, or `-:GRP/` for every event of the group; -ECHILD when
 * no kprobe event has the name.
 */
static int trace_kprobe_delete(const char *spec)
{
	char buf[PROBE_NAME_MAX * 2 + 2], *slash;
	const char *group = NULL, *event = buf;
	struct trace_kprobe *tk, *tmp;
	int ret = -ECHILD;

	if (strscpy(buf, spec, sizeof(buf)) >= sizeof(buf) - 1)
		return -ECHILD;
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		group = buf;
		event = slash + 1;
	}
	if (*event) {
		tk = trace_kprobe_find(group, event);
		return tk ? trace_kprobe_destroy(tk) : -ECHILD;
	}
	list_for_each_entry_safe(tk, tmp, &trace_kprobes, list) {
		if (!group || strcmp(tk->group, group))
			continue;
		ret = trace_kprobe_destroy(tk);
		if (ret)
			return ret;
	}
	return ret;
}

/* One line (trace_types_lock held); errors into error_log. */
static int trace_kprobe_run(const char *cmd, bool dynevents)
{
	struct kprobe_cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return -ENOMEM;
	ret = kprobe_cmd_split(c, cmd);
	if (ret || !c->argc)
		goto out;
	if (!strncmp(c->argv[0], "-:", 2)) {
		ret = c->argc == 1 ? trace_kprobe_delete(c->argv[0] + 2) : -EINVAL;
		if (ret == -ECHILD && !dynevents)
			ret = -ENOENT;
	} else if (dynevents && (!strncmp(c->argv[0], "!p", 2) || !strncmp(c->argv[0], "!r", 2))) {
		/* dynamic_events' `!p:[GRP/]EVENT PLACE ...`: the event goes, by its name */
		const char *colon = strchr(c->argv[0], ':');

		ret = colon ? trace_kprobe_delete(colon + 1) : -EINVAL;
		if (ret == -ECHILD)
			ret = -ENOENT;
	} else if (c->argv[0][0] == 'p' || c->argv[0][0] == 'r') {
		ret = trace_kprobe_create(c);
	} else {
		ret = dynevents ? -ECHILD : -EINVAL;
	}
	if (ret && c->err.msg)
		tracing_log_err_cmd(&global_trace, KPROBE_LOG_LOC, c->text, c->err.msg, c->err.pos);
out:
	kfree(c->text);
	kfree(c);
	return ret;
}

int trace_kprobe_dynevent_write(const char *cmd)
{
	return trace_kprobe_run(cmd, true);
}

int trace_kprobe_release_all(void)
{
	struct trace_kprobe *tk, *tmp;

	list_for_each_entry(tk, &trace_kprobes, list)
		if (tk->nr_files)
			return -EBUSY;
	list_for_each_entry_safe(tk, tmp, &trace_kprobes, list) {
		int ret = trace_kprobe_destroy(tk);

		if (ret)
			return ret;
	}
	return 0;
}

int trace_kprobe_dynevent_show(char *buf, size_t size)
{
	struct trace_kprobe *tk;
	size_t n = 0;

#define OUT(...) (n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, \
				       __VA_ARGS__))
	list_for_each_entry(tk, &trace_kprobes, list) {
		if (tk->is_return)
			OUT("r%u:%s/%s", tk->rp.maxactive, tk->group, tk->event);
		else
			OUT("p:%s/%s", tk->group, tk->event);
		if (!tk->symbol)
			OUT(" 0x%016lx", tk->kp.addr);
		else if (tk->offset)
			OUT(" %s+%lu", tk->symbol, tk->offset);
		else
			OUT(" %s", tk->symbol);
		n += (size_t)probe_args_show(&tk->args, n < size ? buf + n : NULL,
					     n < size ? size - n : 0);
		OUT("\n");
	}
#undef OUT
	return (int)n;
}

/* --- kprobe_events and kprobe_profile ------------------------------------------------------ */

static int kprobe_events_fill(char *buf, size_t size, void *arg)
{
	return trace_kprobe_dynevent_show(buf, size);
}

static int kprobe_profile_fill(char *buf, size_t size, void *arg)
{
	struct trace_kprobe *tk;
	int n = 0;

	list_for_each_entry(tk, &trace_kprobes, list)
		n += scnprintf(buf + n, size - (size_t)n, "  %-44s %15lu %15lu\n", tk->event,
			       tk->nhit, tk_nmissed(tk));
	return n;
}

static int kprobe_events_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, kprobe_events_fill, NULL);
}

static int kprobe_profile_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, kprobe_profile_fill, NULL);
}

static int kprobe_events_open(struct inode *inode, struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		int ret;

		trace_types_lock();
		ret = trace_kprobe_release_all();
		trace_types_unlock();
		if (ret)
			return ret;
	}
	return single_open(file, kprobe_events_show, NULL);
}

static int kprobe_events_run(void *arg, const char *cmd)
{
	return trace_kprobe_run(cmd, false);
}

static ssize_t kprobe_events_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return trace_run_commands(buf, count, kprobe_events_run, NULL);
}

static int kprobe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, kprobe_profile_show, NULL);
}

static const struct file_operations kprobe_events_fops = {
	.open = kprobe_events_open,
	.read = seq_read,
	.write = kprobe_events_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations kprobe_profile_fops = {
	.open = kprobe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

int trace_kprobe_init(void)
{
	struct dentry *d;

	kprobe_records = kmalloc((size_t)nr_cpu_ids * KPROBE_RECORD_MAX, GFP_KERNEL);
	if (!kprobe_records)
		return -ENOMEM;
	d = tracefs_create_file("kprobe_events", TRACE_MODE_WRITE, NULL, NULL, &kprobe_events_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("kprobe_profile", TRACE_MODE_READ, NULL, NULL,
					&kprobe_profile_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}
