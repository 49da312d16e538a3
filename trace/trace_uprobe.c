/*
 * Uprobe events (Linux's trace_uprobe): `uprobe_events` and the `p:`/`r:`
 * lines of `dynamic_events` whose place is a path define events under
 * events/GROUP/ (default `uprobes`) recorded by a uprobe (kernel/uprobes.h)
 * in every process running that file:
 *
 *   p[:[GRP/]EVENT] PATH:OFFSET[%return][(REF_CTR_OFFSET)] [FETCHARGS]
 *   r[:[GRP/]EVENT] PATH:OFFSET[(REF_CTR_OFFSET)] [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 * OFFSET is a file offset; the arguments read the process's registers and
 * user memory (`@+OFFSET`: the memory where the file's byte OFFSET is
 * mapped). The uprobe is in while an instance traces the event;
 * `uprobe_profile` counts hits. The rest (records, files, listing,
 * appending, removal) is trace/trace_probe_event.c's, the argument
 * parser trace/trace_probe.c's, as for kprobes.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/uprobes.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fcntl.h>
#include <asm/ptrace.h>
#include <trace/trace.h>
#include <trace/trace_output.h>
#include <trace/trace_probe.h>
#include <trace/trace_probe_event.h>

#define UPROBE_GROUP	"uprobes"

/* One event and its uprobe. */
struct trace_uprobe {
	struct probe_event pe;
	char *filename;			/* as written */
	struct file *file;		/* the probed file, open while the event exists */
	unsigned long offset, ref_ctr_offset;
	bool is_return;
	struct uprobe_consumer uc;
	struct uprobe *uprobe;		/* while armed */
};

static struct trace_uprobe *to_tu(const struct probe_event *pe)
{
	return container_of(pe, struct trace_uprobe, pe);
}

/* --- hits ------------------------------------------------------------------------------- */

static void uprobe_trace_handler(struct uprobe_consumer *uc, struct pt_regs *regs,
				 unsigned long vaddr)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);
	struct probe_hit hit = { .regs = regs, .ip = vaddr, .head = PROBE_HEAD_IP, .user = true,
				 .file_base = vaddr - tu->offset };

	if (!tu->is_return)
		probe_event_hit(&tu->pe, &hit);
}

static void uretprobe_trace_handler(struct uprobe_consumer *uc, unsigned long func,
				    struct pt_regs *regs)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, uc);
	struct probe_hit hit = { .regs = regs, .ip = func, .ret_ip = regs->rip,
				 .head = PROBE_HEAD_RET, .user = true,
				 .file_base = func - tu->offset };

	probe_event_hit(&tu->pe, &hit);
}

/* `(0x401540)`, or `(0x4015c0 <- 0x401540)`: where it returned to, from which function. */
static void uprobe_print_head(struct trace_seq *s, const struct probe_event *pe, const u8 *rec)
{
	unsigned long ip, ret_ip;

	memcpy(&ip, rec + 8, sizeof(ip));
	if (to_tu(pe)->is_return) {
		memcpy(&ret_ip, rec + 16, sizeof(ret_ip));
		trace_seq_printf(s, "(0x%lx <- 0x%lx)", ret_ip, ip);
	} else {
		trace_seq_printf(s, "(0x%lx)", ip);
	}
}

static int uprobe_arm(struct probe_event *pe, bool on)
{
	struct trace_uprobe *tu = to_tu(pe);
	struct uprobe *u;

	if (!on) {
		uprobe_unregister(tu->uprobe, &tu->uc);
		tu->uprobe = NULL;
		return 0;
	}
	u = uprobe_register(tu->file, (loff_t)tu->offset, (loff_t)tu->ref_ctr_offset, &tu->uc);
	if (IS_ERR(u))
		return (int)PTR_ERR(u);
	tu->uprobe = u;
	return 0;
}

/* --- defining ----------------------------------------------------------------------------- */

static void trace_uprobe_free(struct probe_event *pe)
{
	struct trace_uprobe *tu = to_tu(pe);

	probe_event_free_common(pe);
	if (tu->file)
		fput(tu->file);
	kfree(tu->filename);
	kfree(tu);
}

/*
 * `PATH:OFFSET[%return][(REF_CTR_OFFSET)]`: argv[1], whose last ':' is
 * followed by a digit (the dispatcher saw a '/'; Linux's errors and
 * carets, columns from the path's start).
 */
static int parse_place(struct trace_uprobe *tu, struct probe_cmd *c)
{
	char *w = c->argv[1], *colon = strrchr(w, ':'), *arg, *open, *close, *pct;
	unsigned long long v;
	int pos = c->pos[1];
	struct dentry *d;

	if (!colon || !(colon[1] >= '0' && colon[1] <= '9'))
		return -EINVAL;		/* not a uprobe's place: no log, as Linux */
	*colon = '\0';
	arg = colon + 1;
	d = path_lookup(NULL, w, LOOKUP_FOLLOW);
	if (IS_ERR(d))
		return probe_cmd_fail(c, "Failed to find the given file", pos, (int)PTR_ERR(d));
	if (!d->d_inode || !S_ISREG(d->d_inode->i_mode)) {
		dput(d);
		return probe_cmd_fail(c, "Not a regular file", pos, -EINVAL);
	}
	dput(d);
	open = strchr(arg, '(');
	if (open) {
		close = strchr(open, ')');
		if (!close)
			return probe_cmd_fail(c, "Reference counter brace is not closed",
					      pos + (int)(open + strlen(open) - w), -EINVAL);
		if (close[1])
			return probe_cmd_fail(c, "Reference counter has wrong suffix",
					      pos + (int)(close + 1 - w), -EINVAL);
		*open++ = '\0';
		*close = '\0';
		if (kstrtoull(open, 0, &v))
			return probe_cmd_fail(c, "Invalid reference counter offset",
					      pos + (int)(open - w), -EINVAL);
		tu->ref_ctr_offset = (unsigned long)v;
	}
	pct = strchr(arg, '%');
	if (pct) {
		if (strcmp(pct, "%return"))
			return probe_cmd_fail(c, "Invalid probed address suffix", pos + (int)(pct - w),
					      -EINVAL);
		*pct = '\0';
		tu->is_return = true;
	}
	if (kstrtoull(arg, 0, &v))
		return probe_cmd_fail(c, "Invalid uprobe offset", pos + (int)(arg - w), -EINVAL);
	tu->offset = (unsigned long)v;
	tu->filename = kstrdup(w, GFP_KERNEL);
	tu->file = tu->filename ? vfs_open(NULL, w, O_RDONLY, 0) : NULL;
	if (IS_ERR_OR_NULL(tu->file)) {
		int ret = tu->file ? (int)PTR_ERR(tu->file) : -ENOMEM;

		tu->file = NULL;
		return ret;
	}
	return 0;
}

/* `p_sh_0x1000`: Linux's name, from the file's name up to its first '.', '-' or '_'. */
static char *default_event_name(const struct trace_uprobe *tu)
{
	const char *base = strrchr(tu->filename, '/');
	char buf[PROBE_NAME_MAX];

	base = base ? base + 1 : tu->filename;
	snprintf(buf, sizeof(buf), "p_%.*s_0x%lx", (int)strcspn(base, ".-_"), base, tu->offset);
	return kstrdup(buf, GFP_KERNEL);
}

/*
 * Another event's probe of the same place with another reference counter?
 * Linux refuses the line (EINVAL, nothing in error_log): one place, one
 * counter.
 */
static bool ref_ctr_conflict(const struct trace_uprobe *tu)
{
	struct probe_event *pe = NULL;

	while ((pe = probe_event_next(pe, &trace_uprobe_type)))
		for (struct probe_event *p = pe; p; p = p->next_probe) {
			const struct trace_uprobe *o = to_tu(p);

			if (o->file->f_inode == tu->file->f_inode && o->offset == tu->offset &&
			    o->ref_ctr_offset != tu->ref_ctr_offset)
				return true;
		}
	return false;
}

int trace_uprobe_create(struct probe_cmd *c)
{
	struct probe_ctx ctx = { .flags = PROBE_CTX_USER };
	const char *group = NULL, *event = NULL;
	struct trace_uprobe *tu;
	int ret;

	c->log_loc = "trace_uprobe";
	tu = kzalloc(sizeof(*tu), GFP_KERNEL);
	if (!tu)
		return -ENOMEM;
	tu->pe.type = &trace_uprobe_type;
	tu->is_return = c->argv[0][0] == 'r';
	ret = parse_place(tu, c);
	if (!ret && ref_ctr_conflict(tu))
		ret = -EINVAL;
	/* Linux takes a name only right after the letter: `r3:x/y` gets the default one */
	if (!ret && c->argv[0][1] == ':')
		ret = probe_cmd_name(c, 0, c->argv[0] + 2, 0, &group, &event);
	if (tu->is_return)
		ctx.flags |= PROBE_CTX_RETURN;
	for (int i = 2; !ret && i < c->argc; i++)
		ret = probe_arg_parse(&tu->pe.args, c->argv[i], c->pos[i], &ctx, &c->err);
	if (ret)
		goto fail;
	tu->pe.group = kstrdup(group ? group : UPROBE_GROUP, GFP_KERNEL);
	tu->pe.event = event ? kstrdup(event, GFP_KERNEL) : default_event_name(tu);
	tu->uc.handler = uprobe_trace_handler;
	if (tu->is_return)
		tu->uc.ret_handler = uretprobe_trace_handler;
	ret = probe_event_add(&tu->pe, tu->is_return ? PROBE_HEAD_RET : PROBE_HEAD_IP, c,
			      event ? (int)(event - c->argv[0]) : 0);
	if (!ret)
		return 0;
fail:
	trace_uprobe_free(&tu->pe);
	return ret;
}

static int uprobe_show(const struct probe_event *pe, char *buf, size_t size)
{
	const struct trace_uprobe *tu = to_tu(pe);
	int n = snprintf(buf, size, "%c:%s/%s %s:0x%016lx", tu->is_return ? 'r' : 'p', pe->group,
			 pe->event, tu->filename, tu->offset);

	if (tu->ref_ctr_offset)
		n += snprintf((size_t)n < size ? buf + n : NULL, (size_t)n < size ? size - (size_t)n : 0,
			      "(0x%lx)", tu->ref_ctr_offset);
	return n;
}

/* `  /bin/sh p_sh_0x1000   12`: the file, the event, its hits (Linux's line). */
static int uprobe_profile_line(const struct probe_event *pe, char *buf, size_t size)
{
	return snprintf(buf, size, "  %s %-44s %15lu\n", to_tu(pe)->filename, pe->event, pe->nhit);
}

const struct probe_event_type trace_uprobe_type = {
	.log_loc = "trace_uprobe",
	.arm = uprobe_arm,
	.show = uprobe_show,
	.profile_line = uprobe_profile_line,
	.print_head = uprobe_print_head,
	.appendable = true,
	.free = trace_uprobe_free,
	.size = sizeof(struct trace_uprobe),
};

int trace_uprobe_init(void)
{
	return probe_events_create_files(&trace_uprobe_type, "uprobe_events", "uprobe_profile");
}
