/*
 * Probe events (see trace_probe_event.h): the record a hit builds from
 * its fetch arguments, the event and its files, the listing and the
 * removal that kprobe, fprobe, tprobe and eprobe events share.
 *
 * A hit builds its record in a per-CPU buffer of its context level
 * (task, softirq, irq, NMI), two deep: an eprobe fires inside the hit of
 * the event it watches, which may be a probe's.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/sched.h>
#include <kernel/kallsyms.h>
#include <kernel/err.h>
#include <kernel/fs/fcntl.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/tracefs.h>
#include <asm/ptrace.h>
#include <asm/uaccess.h>
#include <trace/trace.h>
#include <trace/trace_event_buffer.h>
#include <trace/trace_output.h>
#include <trace/trace_probe_event.h>

#define PROBE_RECORD_MAX	4096	/* one record: fixed part and strings */
#define PROBE_NEST		2	/* hits building at once in one context of a CPU */

/* Where hits build their records, per CPU. */
struct probe_records {
	u8 depth[4];				/* by context level: buffers in use */
	u8 rec[4][PROBE_NEST][PROBE_RECORD_MAX];
};

static LIST_HEAD(probe_events);
static struct probe_records *probe_records;	/* nr_cpu_ids of them */

/* --- hits --------------------------------------------------------------------------------- */

/* size bytes at addr, from user memory alone if user (+u<offset>): 0 or -EFAULT. */
static long fetch_mem(void *dst, unsigned long addr, size_t size, bool user)
{
	return user ? copy_from_user_nofault(dst, (const void *)addr, size)
		    : copy_from_kernel_nofault(dst, (const void *)addr, size);
}

static bool fetch_word(unsigned long addr, unsigned long *v, bool user)
{
	return !fetch_mem(v, addr, sizeof(*v), user);
}

/* An eprobe's $FIELD: a number by its size and sign, a string field by its address. */
static unsigned long fetch_field(const struct probe_arg *a, const u8 *rec)
{
	const u8 *p = rec + a->base_val;
	u32 loc;
	u64 v = 0;

	if (a->field_type == FILTER_STATIC_STRING || a->field_type == FILTER_COMM)
		return (unsigned long)p;
	if (a->field_type == FILTER_DYN_STRING) {
		memcpy(&loc, p, sizeof(loc));
		return (unsigned long)(rec + (loc & 0xffff));
	}
	memcpy(&v, p, a->field_size);
	if (a->field_signed && a->field_size < 8 && (v >> (a->field_size * 8 - 1)) & 1)
		v |= ~0ULL << (a->field_size * 8);
	return (unsigned long)v;
}

static unsigned long fetch_base(const struct probe_arg *a, const struct probe_hit *hit)
{
	unsigned long v = 0;

	switch (a->base) {
	case PROBE_BASE_REG:
		return ((unsigned long *)hit->regs)[a->base_val];
	case PROBE_BASE_STACK:
		fetch_word(hit->regs->rsp + a->base_val * sizeof(long), &v, hit->user);
		return v;
	case PROBE_BASE_FILE:
		return hit->file_base + a->base_val;
	case PROBE_BASE_STACKP:
		return hit->regs->rsp;
	case PROBE_BASE_RETVAL:
		return hit->regs->rax;
	case PROBE_BASE_ENTRY_ARG:
		return hit->entry_args ? hit->entry_args[a->base_val] : 0;
	case PROBE_BASE_FIELD:
		return fetch_field(a, hit->event_rec);
	default:
		return a->base_val;
	}
}

/* v's low size bytes at p: constant-size copies the compiler inlines (the hit's hot path). */
static inline void store_value(u8 *p, unsigned long v, unsigned int size)
{
	u32 v32 = (u32)v;
	u16 v16 = (u16)v;

	switch (size) {
	case 8: memcpy(p, &v, 8); break;
	case 4: memcpy(p, &v32, 4); break;
	case 2: memcpy(p, &v16, 2); break;
	default: *p = (u8)v; break;
	}
}

/*
 * One argument into the record; strings go at *dyn (their __data_loc in
 * the field). A fault leaves 0 (a string: empty, printed "(fault)").
 */
static void fetch_arg(const struct probe_arg *a, const struct probe_hit *hit, u8 *rec,
		      unsigned int *dyn)
{
	unsigned long v = fetch_base(a, hit);
	unsigned int last = a->nderef, i;
	bool user_last;
	long len = 0;
	u32 loc;

	if (last)
		last--;			/* the outermost +off(...): the string's address, or the value */
	user_last = (a->uderef >> last & 1) || hit->user;
	for (i = 0; i < last; i++)
		if (!fetch_word(v + (unsigned long)a->deref[i], &v, (a->uderef >> i & 1) || hit->user))
			goto fault;
	if (probe_kind_is_str(a->kind)) {
		unsigned int room = PROBE_RECORD_MAX - *dyn;
		char sym[128];

		if (room > PROBE_STRING_MAX)
			room = PROBE_STRING_MAX;
		if (a->base == PROBE_BASE_COMM || a->base == PROBE_BASE_IMMSTR) {
			len = (long)strscpy((char *)rec + *dyn,
					    a->imm_str ? a->imm_str : current->comm, room);
		} else if (a->kind == PROBE_SYMSTR) {
			if (a->nderef && !fetch_word(v + (unsigned long)a->deref[last], &v, false))
				goto fault;
			sprint_symbol(sym, sizeof(sym), v);
			len = (long)strscpy((char *)rec + *dyn, sym, room);
		} else {
			v += (unsigned long)a->deref[last];
			len = a->ustring || hit->user ? strncpy_from_user_nofault((char *)rec + *dyn,
								     (const void *)v, (long)room)
					 : strncpy_from_nofault((char *)rec + *dyn, (const void *)v,
								(long)room);
			if (len == (long)room)
				len--;
		}
		if (len < 0 || !room)
			goto fault;
		rec[*dyn + (unsigned int)len] = '\0';
		loc = (u32)(len + 1) << 16 | *dyn;
		memcpy(rec + a->offset, &loc, sizeof(loc));
		*dyn += (unsigned int)len + 1;
		return;
	}
	if (a->nderef) {
		/* the outermost +off(...) reads the value itself, at its type's size */
		unsigned long addr = v + (unsigned long)a->deref[last];

		if (a->count) {
			if (fetch_mem(rec + a->offset, addr, (size_t)a->size * a->count, hit->user))
				goto fault;
			return;
		}
		v = 0;
		if (fetch_mem(&v, addr, a->size, user_last))
			goto fault;
	} else if (a->count) {
		/* an eprobe's field as an array: its bytes from the record */
		if (copy_from_kernel_nofault(rec + a->offset, (const void *)v,
					     (size_t)a->size * a->count))
			goto fault;
		return;
	}
	if (a->bf_width)
		v = (v >> a->bf_shift) & (~0UL >> (64 - a->bf_width));
	store_value(rec + a->offset, v, a->size);
	return;
fault:
	if (probe_kind_is_str(a->kind)) {
		/*
		 * Linux's fault: a string of length 0, printed "(fault)". It
		 * points at a NUL of its own, so a reader that takes the
		 * string without its length (a hist key) reads "".
		 */
		loc = 0;
		if (*dyn < PROBE_RECORD_MAX) {
			rec[*dyn] = '\0';
			loc = *dyn;
			*dyn += 1;
		}
		memcpy(rec + a->offset, &loc, sizeof(loc));
	} else
		memset(rec + a->offset, 0, (size_t)a->size * (a->count ? a->count : 1u));
}

typedef void (*probe_event_probe_fn)(void *data, const u8 *rec, unsigned int len);

void probe_event_hit(struct probe_event *pe, const struct probe_hit *hit)
{
	struct probe_records *pr;
	struct trace_recursion *guard = NULL;
	struct tracepoint_func *it;
	struct probe_event *ev = pe->owner ? pe->owner : pe;
	unsigned int dyn = pe->args.size, level, depth;
	u8 *rec;

	__atomic_add_fetch(&pe->nhit, 1, __ATOMIC_RELAXED);
	pr = &probe_records[smp_processor_id()];
	level = (unsigned int)interrupt_context_level();
	depth = pr->depth[level];
	if (depth == PROBE_NEST)
		return;
	pr->depth[level] = (u8)(depth + 1);
	barrier();
	rec = pr->rec[level][depth];
	memset(rec, 0, sizeof(struct trace_entry));
	if (hit->head != PROBE_HEAD_NONE)
		memcpy(rec + 8, &hit->ip, sizeof(hit->ip));
	if (hit->head == PROBE_HEAD_RET)
		memcpy(rec + 16, &hit->ret_ip, sizeof(hit->ret_ip));
	for (unsigned int i = 0; i < pe->args.n; i++)
		fetch_arg(&pe->args.args[i], hit, rec, &dyn);
	/* tprobes and eprobes run inside a tracepoint's hit, which holds the guard already */
	if (!hit->in_tracepoint) {
		guard = this_cpu_ptr(&tracepoint_recursion);
		if (!trace_recursion_lock_level(guard, (int)level))
			goto done;
	}
	for (it = rcu_dereference(ev->tp.funcs); it && it->func; it++)
		((probe_event_probe_fn)it->func)(it->data, rec, dyn);
	if (guard)
		trace_recursion_unlock(guard);
done:
	barrier();
	pr->depth[level] = (u8)depth;
}

/* An instance's probe: the record into its ring buffer, through filter and triggers. */
static void probe_event_probe(void *data, const u8 *rec, unsigned int len)
{
	trace_event_write_record(data, rec, len);
}

static int probe_event_output(struct trace_seq *s, struct trace_seq *tmp,
			      const struct trace_entry *ent)
{
	struct trace_event_call *call = trace_find_event_by_id(ent->type);
	struct probe_event *pe = container_of(call, struct probe_event, call);

	pe->type->print_head(s, pe, (const u8 *)ent);
	/* the length is what trace_print_event checked: at least the fixed part */
	probe_args_print(s, &pe->args, ent, PROBE_RECORD_MAX);
	return 0;
}

/* Arm or disarm every probe of the event (on: all or none). */
static int probe_event_arm(struct probe_event *pe, bool on)
{
	int ret = 0;

	for (struct probe_event *p = pe; p; p = p->next_probe) {
		ret = p->type->arm(p, on);
		if (ret && on) {
			for (struct probe_event *q = pe; q != p; q = q->next_probe)
				q->type->arm(q, false);
			return ret;
		}
	}
	return on ? 0 : ret;
}

/* trace_event_call.reg: the probe is armed while some instance traces the event. */
static int probe_event_reg(struct trace_event_file *file, bool enable)
{
	struct probe_event *pe = container_of(file->event_call, struct probe_event, call);
	int ret;

	if (enable) {
		ret = tracepoint_probe_register(&pe->tp, (void *)probe_event_probe, file);
		if (ret || pe->nr_files++)
			return ret;
		ret = probe_event_arm(pe, true);
		if (ret) {
			pe->nr_files--;
			tracepoint_probe_unregister(&pe->tp, (void *)probe_event_probe, file);
		}
		return ret;
	}
	ret = tracepoint_probe_unregister(&pe->tp, (void *)probe_event_probe, file);
	if (ret || --pe->nr_files)
		return ret;
	return probe_event_arm(pe, false);
}

/* --- defining ----------------------------------------------------------------------------- */

/* One probe's dynamic_events line, newline included, snprintf-style. */
static int probe_events_show_one(const struct probe_event *pe, char *buf, size_t size)
{
	size_t n = (size_t)pe->type->show(pe, buf, size);

	n += (size_t)probe_args_show(&pe->args, n < size ? buf + n : NULL, n < size ? size - n : 0);
	n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "\n");
	return (int)n;
}

bool probe_event_is(const struct trace_event_call *call)
{
	return call->output == probe_event_output;
}

void probe_event_free_common(struct probe_event *pe)
{
	probe_args_free(&pe->args);
	kfree(pe->group);
	kfree(pe->event);
}

struct probe_event *probe_event_next(struct probe_event *pe, const struct probe_event_type *type)
{
	struct list_head *pos = pe ? pe->list.next : probe_events.next;

	for (; pos != &probe_events; pos = pos->next) {
		pe = list_entry(pos, struct probe_event, list);
		if (!type || pe->type == type)
			return pe;
	}
	return NULL;
}

struct probe_event *probe_event_find(const char *group, const char *event)
{
	struct probe_event *pe;

	list_for_each_entry(pe, &probe_events, list)
		if (!strcmp(pe->event, event) && (!group || !strcmp(pe->group, group)))
			return pe;
	return NULL;
}

/*
 * A second line for ev's name: Linux adds it as another probe of the
 * event when it is of the same type and its arguments lay out alike.
 */
static int probe_event_append(struct probe_event *ev, struct probe_event *pe,
			      struct probe_cmd *c)
{
	char mine[256], theirs[256];
	struct probe_event *last;
	int i, ret;

	/* kinds sharing a type differ in their lines' letter (f and t) */
	probe_events_show_one(pe, mine, sizeof(mine));
	probe_events_show_one(ev, theirs, sizeof(theirs));
	if (ev->type != pe->type || ev->head != pe->head || mine[0] != theirs[0])
		return probe_cmd_fail(c, "Probe type is different from existing probe", 0, -EEXIST);
	i = probe_args_diff(&ev->args, &pe->args);
	if (i >= 0)
		return probe_cmd_fail(c, "Argument type or name is different from existing probe",
				      2 + i < c->argc ? c->pos[2 + i] : (int)strlen(c->text) + 1,
				      -EEXIST);
	for (last = ev; ; last = last->next_probe) {
		probe_events_show_one(last, theirs, sizeof(theirs));
		if (!strcmp(mine, theirs))
			return probe_cmd_fail(c, "There is already the exact same probe event", 0,
					      -EEXIST);
		if (!last->next_probe)
			break;
	}
	if (ev->nr_files) {
		ret = pe->type->arm(pe, true);
		if (ret)
			return ret;
	}
	pe->owner = ev;
	WRITE_ONCE(last->next_probe, pe);
	return 0;
}

int probe_event_add(struct probe_event *pe, enum probe_head head, struct probe_cmd *c,
		    int name_pos)
{
	struct probe_event *ev;
	int ret;

	if (!probe_records) {
		probe_records = kzalloc((size_t)nr_cpu_ids * sizeof(*probe_records), GFP_KERNEL);
		if (!probe_records)
			return -ENOMEM;
	}
	ret = pe->group && pe->event ? probe_args_finish(&pe->args, head) : -ENOMEM;
	if (ret)
		return ret;
	pe->head = head;
	ev = probe_event_find(pe->group, pe->event);
	if (ev && ev->type->appendable && ev->type == pe->type)
		return probe_event_append(ev, pe, c);
	if (ev || trace_find_event_call(pe->group, pe->event))
		return probe_cmd_fail(c, "Given group/event name is already used by another event",
				      name_pos, -EEXIST);
	pe->tp.name = pe->event;
	pe->call.system = pe->group;
	pe->call.name = pe->event;
	pe->call.size = (u16)pe->args.size;
	pe->call.fields = pe->args.fields;
	pe->call.print_fmt = pe->args.print_fmt;
	pe->call.output = probe_event_output;
	pe->call.tp = &pe->tp;
	pe->call.probe = (void *)probe_event_probe;
	pe->call.reg = probe_event_reg;
	ret = trace_add_event_call(&pe->call);
	if (ret)
		return ret;
	ret = trace_add_event_files(&pe->call);
	if (ret) {
		trace_remove_event_files(&pe->call);
		trace_remove_event_call(&pe->call);
		return ret;
	}
	list_add_tail(&pe->list, &probe_events);
	return 0;
}

static int probe_event_destroy(struct probe_event *pe)
{
	int ret = trace_remove_event_files(&pe->call);

	if (ret)
		return ret;
	trace_remove_event_call(&pe->call);
	list_del(&pe->list);
	while (pe) {
		struct probe_event *next = pe->next_probe;

		pe->type->free(pe);
		pe = next;
	}
	return 0;
}

/*
 * The words after `-:EVENT` must match its definition, as Linux checks:
 * the place as listed (`.` or `/` between an eprobe's system and event),
 * then each argument as `NAME=EXPR` or `EXPR`, in order.
 */
static bool probe_event_matches(const struct probe_event *pe, const struct probe_cmd *c)
{
	char line[256], *place, *end;

	if (c->argc < 2)
		return true;
	pe->type->show(pe, line, sizeof(line));
	place = strchr(line, ' ');
	if (!place)
		return false;
	place++;
	end = place + strcspn(place, " ");
	*end = '\0';
	for (char *p = c->argv[1]; *p; p++)
		if (*p == '/')
			*p = '.';
	if (strcmp(place, c->argv[1]) || c->argc - 2 > (int)pe->args.n)
		return false;
	for (int i = 2; i < c->argc; i++) {
		const struct probe_arg *a = &pe->args.args[i - 2];
		size_t nlen = strlen(a->name);

		if (strcmp(c->argv[i], a->expr) &&
		    (strncmp(c->argv[i], a->name, nlen) || c->argv[i][nlen] != '=' ||
		     strcmp(c->argv[i] + nlen + 1, a->expr)))
			return false;
	}
	return true;
}

/*
 * Exchange what two probes of one event have of their own (the kind's
 * part, the arguments' expressions, the hit count); the event stays the
 * first's. Neither is armed.
 */
static void memswap(void *a, void *b, size_t n)
{
	u8 *x = a, *y = b;

	for (size_t i = 0; i < n; i++) {
		u8 t = x[i];

		x[i] = y[i];
		y[i] = t;
	}
}

static void probe_event_swap(struct probe_event *a, struct probe_event *b)
{
	unsigned long nhit = a->nhit;

	memswap(a + 1, b + 1, a->type->size - sizeof(*a));
	memswap(&a->args, &b->args, sizeof(a->args));
	a->nhit = b->nhit;
	b->nhit = nhit;
	/* the fields' table is where it was; the print fmt text moved */
	a->call.print_fmt = a->args.print_fmt;
}

/*
 * `-:EVENT DEFINITION` names one probe of the event: that one goes (the
 * event with it when it was the last). -ENOENT when none matches.
 */
static int probe_event_delete_probe(struct probe_event *ev, const struct probe_cmd *c)
{
	struct probe_event **pp = &ev, *p;

	while (*pp && !probe_event_matches(*pp, c))
		pp = &(*pp)->next_probe;
	if (!*pp)
		return -ENOENT;
	if (!ev->next_probe)
		return probe_event_destroy(ev);
	if (ev->nr_files)
		return -EBUSY;
	if (*pp == ev) {
		/* the first owns the event: it takes the second's probe, the second goes */
		probe_event_swap(ev, ev->next_probe);
		pp = &ev->next_probe;
	}
	p = *pp;
	*pp = p->next_probe;
	p->type->free(p);
	return 0;
}

/*
 * `-:[GRP/]EVENT [DEFINITION]`, or `-:GRP/` for every event of the group,
 * of type (NULL: any kind); -ECHILD when no event has the name, -ENOENT
 * when the definition does not match.
 */
static int probe_event_delete(const char *spec, const struct probe_event_type *type,
			      const struct probe_cmd *c)
{
	char buf[PROBE_NAME_MAX * 2 + 2], *slash;
	const char *group = NULL, *event = buf;
	struct probe_event *pe, *tmp;
	int ret = -ECHILD;

	if (strscpy(buf, spec, sizeof(buf)) >= sizeof(buf) - 1)
		return -ECHILD;
	slash = strchr(buf, '/');
	if (!slash)
		slash = strchr(buf, '.');
	if (slash) {
		*slash = '\0';
		group = buf;
		event = slash + 1;
	}
	list_for_each_entry_safe(pe, tmp, &probe_events, list) {
		if ((type && pe->type != type) || (group && strcmp(pe->group, group)) ||
		    (*event && strcmp(pe->event, event)) || (!*event && !group))
			continue;
		if (*event && c && c->argc > 1)
			return probe_event_delete_probe(pe, c);
		ret = probe_event_destroy(pe);
		if (ret || *event)
			return ret;
	}
	return ret;
}

int probe_event_command(const char *cmd, const struct probe_event_type *only)
{
	struct probe_cmd *c = kzalloc(sizeof(*c), GFP_KERNEL);
	bool dynevents = !only;
	const char *kinds = dynevents ? "prfte" : "pr";
	int ret;

	if (!c)
		return -ENOMEM;
	ret = probe_cmd_split(c, cmd);
	if (ret || !c->argc)
		goto out;
	if (!strncmp(c->argv[0], "-:", 2)) {
		ret = probe_event_delete(c->argv[0] + 2, only, c);
		if (ret == -ECHILD && !dynevents)
			ret = -ENOENT;
	} else if (dynevents && c->argv[0][0] == '!' && c->argv[0][1] &&
		   strchr(kinds, c->argv[0][1])) {
		/* dynamic_events' `!p:[GRP/]EVENT PLACE ...`: the event goes, by its name */
		const char *colon = strchr(c->argv[0], ':');

		ret = colon ? probe_event_delete(colon + 1, NULL, NULL) : -EINVAL;
		if (ret == -ECHILD)
			ret = -ENOENT;
	} else if ((c->argv[0][0] == 'p' || c->argv[0][0] == 'r') && c->argc > 1 &&
		   strchr(c->argv[1], '/')) {
		/* a path: a uprobe's place, which kprobe_events refuses unlogged, as Linux */
		ret = only == &trace_kprobe_type ? -EINVAL : trace_uprobe_create(c);
	} else if (only == &trace_uprobe_type) {
		ret = -EINVAL;		/* no path: not a uprobe line (Linux's -ECANCELED) */
	} else if (c->argv[0][0] == 'p' || c->argv[0][0] == 'r') {
		ret = trace_kprobe_create(c);
	} else if (dynevents && (c->argv[0][0] == 'f' || c->argv[0][0] == 't')) {
		ret = trace_fprobe_create(c);
	} else if (dynevents && c->argv[0][0] == 'e') {
		ret = trace_eprobe_create(c);
	} else {
		ret = dynevents ? -ECHILD : -EINVAL;
	}
	if (ret && c->err.first)
		tracing_log_err_cmd(&global_trace, c->log_loc, c->text, c->err.first,
				    c->err.first_pos);
	if (ret && c->err.msg)
		tracing_log_err_cmd(&global_trace, c->log_loc, c->text, c->err.msg, c->err.pos);
out:
	probe_cmd_free(c);
	kfree(c);
	return ret;
}

int probe_events_release(const struct probe_event_type *type)
{
	struct probe_event *pe, *tmp;

	list_for_each_entry(pe, &probe_events, list)
		if ((!type || pe->type == type) && pe->nr_files)
			return -EBUSY;
	list_for_each_entry_safe(pe, tmp, &probe_events, list) {
		int ret;

		if (type && pe->type != type)
			continue;
		ret = probe_event_destroy(pe);
		if (ret)
			return ret;
	}
	return 0;
}

int probe_events_show(const struct probe_event_type *type, char *buf, size_t size)
{
	struct probe_event *pe;
	size_t n = 0;

	list_for_each_entry(pe, &probe_events, list) {
		if (type && pe->type != type)
			continue;
		for (struct probe_event *p = pe; p; p = p->next_probe)
			n += (size_t)probe_events_show_one(p, n < size ? buf + n : NULL,
							   n < size ? size - n : 0);
	}
	return (int)n;
}

/* --- a kind's events and profile files ------------------------------------------------------ */

static int probe_events_fill(char *buf, size_t size, void *type)
{
	return probe_events_show(type, buf, size);
}

static int probe_profile_fill(char *buf, size_t size, void *type)
{
	struct probe_event *pe = NULL;
	size_t n = 0;

	/* a line per probe, an event's appended ones too */
	while ((pe = probe_event_next(pe, type)))
		for (struct probe_event *p = pe; p; p = p->next_probe)
			n += (size_t)p->type->profile_line(p, n < size ? buf + n : NULL,
							   n < size ? size - n : 0);
	return (int)(n < size ? n : size);
}

static int probe_events_seq_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, probe_events_fill, m->private);
}

static int probe_profile_seq_show(struct seq_file *m, void *v)
{
	return trace_show_listing(m, probe_profile_fill, m->private);
}

static int probe_events_open(struct inode *inode, struct file *file)
{
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		int ret;

		trace_types_lock();
		ret = probe_events_release(inode->i_private);
		trace_types_unlock();
		if (ret)
			return ret;
	}
	return single_open(file, probe_events_seq_show, inode->i_private);
}

static int probe_events_run(void *type, const char *cmd)
{
	return probe_event_command(cmd, type);
}

static ssize_t probe_events_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	return trace_run_commands(buf, count, probe_events_run, file->f_inode->i_private);
}

static int probe_profile_open(struct inode *inode, struct file *file)
{
	return single_open(file, probe_profile_seq_show, inode->i_private);
}

static const struct file_operations probe_events_fops = {
	.open = probe_events_open,
	.read = seq_read,
	.write = probe_events_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations probe_profile_fops = {
	.open = probe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

int probe_events_create_files(const struct probe_event_type *type, const char *events,
			      const char *profile)
{
	/* the files' owner data is the kind (never written through) */
	void *data = (void *)type;
	struct dentry *d;

	d = tracefs_create_file(events, TRACE_MODE_WRITE, NULL, data, &probe_events_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file(profile, TRACE_MODE_READ, NULL, data, &probe_profile_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}
