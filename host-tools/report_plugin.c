/*
 * What trace-cmd's default plugins (libtraceevent's plugin_sched_switch,
 * plugin_kmem, plugin_hrtimer, plugin_function, plugin_kvm, plugin_tlb, and
 * its own function graph view, report_graph.c) print instead of, or in front of, the
 * print fmt for a few events. Matching them is part of printing what
 * trace-cmd report prints; -N turns them off in both tools.
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

/* The fields each plugin reads, looked up once per event (see PF()). */
static const char *const plugin_fields[][REP_PLUGIN_FIELDS] = {
	[PLUGIN_SCHED_SWITCH] = { "prev_pid", "next_pid", "prev_comm", "next_comm", "prev_prio",
				  "prev_state", "next_prio" },
	[PLUGIN_SCHED_WAKEUP] = { "pid", "comm", "prio", "success", "target_cpu" },
	[PLUGIN_KMEM_CALL_SITE] = { "call_site" },
	[PLUGIN_HRTIMER_START] = { "hrtimer", "now", "function", "expires", "softexpires" },
	[PLUGIN_HRTIMER_EXPIRE_ENTRY] = { "hrtimer", "now", "function", "expires", "softexpires" },
	[PLUGIN_FUNCTION] = { "ip", "parent_ip" },
	[PLUGIN_RAW_DATA] = { "id", "buf" },
	[PLUGIN_KVM_MMU_ROLE] = { "role", "root_count", "unsync" },
	[PLUGIN_KVM_MMU_GET_PAGE] = { "role", "root_count", "unsync", "created", "gfn" },
	[PLUGIN_TLB_FLUSH] = { "pages", "reason" },
	[PLUGIN_FUNCGRAPH_ENTRY] = { "func", "depth" },
	[PLUGIN_FUNCGRAPH_EXIT] = { "func", "depth", "calltime", "rettime" },
	[PLUGIN_FUNC_REPEATS] = { "ip", "parent_ip", "count", "top_delta_ts", "bottom_delta_ts" },
};

/* Field i of the plugin's list above. */
#define PF(ev, i)	((ev)->plugin_field[i])

void rep_plugin_setup(struct rep_event *ev)
{
	static const struct {
		const char *system, *name;
		int plugin;
	} table[] = {
		{ "sched", "sched_switch", PLUGIN_SCHED_SWITCH },
		{ "sched", "sched_wakeup", PLUGIN_SCHED_WAKEUP },
		{ "sched", "sched_wakeup_new", PLUGIN_SCHED_WAKEUP },
		{ "kmem", "kfree", PLUGIN_KMEM_CALL_SITE },
		{ "kmem", "kmalloc", PLUGIN_KMEM_CALL_SITE },
		{ "kmem", "kmalloc_node", PLUGIN_KMEM_CALL_SITE },
		{ "kmem", "kmem_cache_alloc", PLUGIN_KMEM_CALL_SITE },
		{ "kmem", "kmem_cache_alloc_node", PLUGIN_KMEM_CALL_SITE },
		{ "kmem", "kmem_cache_free", PLUGIN_KMEM_CALL_SITE },
		{ "timer", "hrtimer_start", PLUGIN_HRTIMER_START },
		{ "timer", "hrtimer_expire_entry", PLUGIN_HRTIMER_EXPIRE_ENTRY },
		{ "ftrace", "function", PLUGIN_FUNCTION },
		{ "ftrace", "raw_data", PLUGIN_RAW_DATA },
		{ "kvmmmu", "kvm_mmu_get_page", PLUGIN_KVM_MMU_GET_PAGE },
		{ "kvmmmu", "kvm_mmu_sync_page", PLUGIN_KVM_MMU_ROLE },
		{ "kvmmmu", "kvm_mmu_unsync_page", PLUGIN_KVM_MMU_ROLE },
		{ "kvmmmu", "kvm_mmu_zap_page", PLUGIN_KVM_MMU_ROLE },
		{ "kvmmmu", "kvm_mmu_prepare_zap_page", PLUGIN_KVM_MMU_ROLE },
		{ "tlb", "tlb_flush", PLUGIN_TLB_FLUSH },
		{ "ftrace", "funcgraph_entry", PLUGIN_FUNCGRAPH_ENTRY },
		{ "ftrace", "funcgraph_exit", PLUGIN_FUNCGRAPH_EXIT },
		{ "ftrace", "func_repeats", PLUGIN_FUNC_REPEATS },
	};

	ev->plugin = PLUGIN_NONE;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(ev->system, table[i].system) && !strcmp(ev->name, table[i].name))
			ev->plugin = table[i].plugin;
	for (int i = 0; i < REP_PLUGIN_FIELDS; i++) {
		const char *name = plugin_fields[ev->plugin][i];

		ev->plugin_field[i] = name ? rep_find_field(ev, name) : NULL;
	}
}

/*
 * A numeric field's value, zero-extended as libtraceevent's plugins read
 * them; false when the event has no such numeric field.
 */
static bool num_field(struct rep_ctx *ctx, const struct rep_field *f, const struct rep_record *r,
		      uint64_t *v)
{
	if (!f || f->flags & (FIELD_ARRAY | FIELD_DYNAMIC | FIELD_BAD))
		return false;
	*v = rep_read_num(ctx, r, f->offset, f->size, false);
	return true;
}

/* "comm:" from a comm field, and remember the comm for pid. */
static void comm_and_save(struct rep_ctx *ctx, struct obuf *o, const struct rep_field *f,
			  const struct rep_record *r, uint64_t pid)
{
	const unsigned char *p, *nul;
	size_t n;

	if (!f || f->offset + f->size > r->size)
		return;
	p = r->data + f->offset;
	nul = memchr(p, 0, f->size);
	n = nul ? (size_t)(nul - p) : f->size;
	ob_write(o, p, n);
	ob_putc(o, ':');
	syms_register_comm(&ctx->syms, (int32_t)pid, (const char *)p, n);
}

/* prev_state bits as letters, 'R' for none. */
static void task_state(struct obuf *o, int state)
{
	static const char letters[] = "SDTtZXxW";
	bool any = false;

	for (int i = 0; letters[i]; i++) {
		if (!(state & (1 << i)))
			continue;
		if (any)
			ob_putc(o, '|');
		ob_putc(o, letters[i]);
		any = true;
	}
	if (!any)
		ob_putc(o, 'R');
}

static bool sched_switch(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
			 const struct rep_record *r)
{
	uint64_t pid, v;

	if (!num_field(ctx, PF(ev, 0), r, &pid) || !num_field(ctx, PF(ev, 1), r, &v))
		return false;
	comm_and_save(ctx, o, PF(ev, 2), r, pid);
	ob_s64(o, (int64_t)pid);
	ob_putc(o, ' ');
	if (num_field(ctx, PF(ev, 4), r, &v)) {
		ob_putc(o, '[');
		ob_s64(o, (int)v);
		ob_puts(o, "] ");
	}
	if (num_field(ctx, PF(ev, 5), r, &v))
		task_state(o, (int)v);
	ob_puts(o, " ==> ");
	num_field(ctx, PF(ev, 1), r, &pid);
	comm_and_save(ctx, o, PF(ev, 3), r, pid);
	ob_s64(o, (int64_t)pid);
	if (num_field(ctx, PF(ev, 6), r, &v)) {
		ob_puts(o, " [");
		ob_s64(o, (int)v);
		ob_putc(o, ']');
	}
	return true;
}

static bool sched_wakeup(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
			 const struct rep_record *r)
{
	uint64_t pid, v;

	if (!num_field(ctx, PF(ev, 0), r, &pid))
		return false;
	comm_and_save(ctx, o, PF(ev, 1), r, pid);
	ob_s64(o, (int64_t)pid);
	if (num_field(ctx, PF(ev, 2), r, &v))
		ob_printf(o, " [%lld]", (long long)v);
	if (num_field(ctx, PF(ev, 3), r, &v))
		ob_printf(o, " success=%lld", (long long)v);
	if (num_field(ctx, PF(ev, 4), r, &v)) {
		ob_puts(o, " CPU:");
		ob_u64_width(o, v, 3, '0');
	}
	return true;
}

/* " function=" as plugin_hrtimer prints it: name/0x<symbol - address>, or the bare address. */
static void hrtimer_function(struct rep_ctx *ctx, struct obuf *o, uint64_t fn)
{
	struct rep_sym sym;

	if (syms_find(&ctx->syms, fn, &sym))
		ob_printf(o, " function=%.*s/0x%llx", (int)sym.name_len, sym.name,
			  (unsigned long long)(sym.addr - fn));
	else
		ob_printf(o, " function=0x%08llx", (unsigned long long)fn);
}

static bool hrtimer(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		    const struct rep_record *r)
{
	uint64_t v;

	if (!num_field(ctx, PF(ev, 0), r, &v))
		return false;
	ob_printf(o, "hrtimer=0x%llx", (unsigned long long)v);
	if (ev->plugin == PLUGIN_HRTIMER_EXPIRE_ENTRY) {
		if (num_field(ctx, PF(ev, 1), r, &v))
			ob_printf(o, " now=%llu", (unsigned long long)v);
		if (num_field(ctx, PF(ev, 2), r, &v))
			hrtimer_function(ctx, o, v);
		return true;
	}
	if (num_field(ctx, PF(ev, 2), r, &v))
		hrtimer_function(ctx, o, v);
	if (num_field(ctx, PF(ev, 3), r, &v))
		ob_printf(o, " expires=%llu", (unsigned long long)v);
	if (num_field(ctx, PF(ev, 4), r, &v))
		ob_printf(o, " softexpires=%llu", (unsigned long long)v);
	return true;
}

/*
 * The function plugin's indentation: per CPU, the chain of functions seen
 * calling each other (symbol addresses). A function whose parent is at
 * depth i of the chain is indented i steps of 3 and becomes depth i + 1;
 * otherwise parent and function become depths 0 and 1, not indented.
 * Nothing deeper is cleared (plugin_function keeps those entries, and
 * later parents are looked up among them too), and a function with no
 * symbol (func 0) is not recorded.
 */
#define FN_CPUS		256
#define FN_DEPTH	64

static int fn_indent(struct rep_ctx *ctx, unsigned int cpu, uint64_t parent, uint64_t func)
{
	uint64_t *chain;

	if (cpu >= FN_CPUS)
		return 0;
	if (!ctx->fn_chain && !(ctx->fn_chain = calloc(FN_CPUS, sizeof(*ctx->fn_chain))))
		return 0;
	chain = ctx->fn_chain[cpu];
	for (int i = 0; i < FN_DEPTH - 1 && chain[i]; i++) {
		if (chain[i] == parent) {
			if (func)
				chain[i + 1] = func;
			return i;
		}
	}
	chain[0] = parent;
	if (func)
		chain[1] = func;
	return 0;
}

/* "   func" as plugin_function prints it (its parent option off, as trace-cmd's default). */
static bool function(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		     const struct rep_record *r)
{
	struct rep_sym fsym, psym;
	uint64_t ip, parent;
	int indent = 0;
	bool have_fn;

	if (!num_field(ctx, PF(ev, 0), r, &ip) || !num_field(ctx, PF(ev, 1), r, &parent))
		return false;
	have_fn = syms_find(&ctx->syms, ip, &fsym);
	if (syms_find(&ctx->syms, parent, &psym))
		indent = fn_indent(ctx, r->cpu, psym.addr, have_fn ? fsym.addr : 0);
	for (int i = 0; i < indent * 3; i++)
		ob_putc(o, ' ');
	if (have_fn)
		ob_write(o, fsym.name, fsym.name_len);
	else
		ob_printf(o, "0x%llx", (unsigned long long)ip);
	return true;
}

/*
 * func-no-repeats' record as plugin_function prints it: the function as
 * above, then the count and the time of the last repeat (the record's
 * time less its 48-bit delta), in the time column's form.
 */
static bool func_repeats(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
			 const struct rep_record *r)
{
	uint64_t count, top, bottom;

	if (!num_field(ctx, PF(ev, 2), r, &count) || !num_field(ctx, PF(ev, 3), r, &top) ||
	    !num_field(ctx, PF(ev, 4), r, &bottom) || !function(ctx, o, ev, r))
		return false;
	ob_printf(o, " (count: %llu  last_ts: ", (unsigned long long)count);
	ob_time(o, r->ts - (top << 32 | bottom), ctx->ns);
	ob_putc(o, ')');
	return true;
}

/*
 * A shadow page's role word as plugin_kvm shows it: bits 0-3 level, 4
 * PAE, 5-6 quadrant, 7 direct, 8-10 access, 11 invalid, 12 NX, 13 WP,
 * 14 SMEP, 15 SMAP, 24-31 SMM (the layout it knows, whatever the
 * kernel's); then the root count and whether the page is unsync.
 */
static bool kvm_mmu_role(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
			 const struct rep_record *r)
{
	static const char *const access[] = { "---", "--x", "w--", "w-x", "-u-", "-ux", "wu-", "wux" };
	uint64_t role, root, unsync;

	if (!num_field(ctx, PF(ev, 0), r, &role) || !num_field(ctx, PF(ev, 1), r, &root) ||
	    !num_field(ctx, PF(ev, 2), r, &unsync))
		return false;
	if (ctx->big_endian)	/* it reads the bits only in the host's byte order */
		ob_printf(o, "WORD: %08x", (unsigned int)role);
	else
		ob_printf(o, "%u q%u%s %s%s %spae %snxe %swp%s%s%s", (unsigned int)(role & 15),
			  (unsigned int)(role >> 5 & 3), role & 1 << 7 ? " direct" : "",
			  access[role >> 8 & 7], role & 1 << 11 ? " invalid" : "",
			  role & 1 << 4 ? "" : "!", role & 1 << 12 ? "" : "!", role & 1 << 13 ? "" : "!",
			  role & 1 << 14 ? " smep" : "", role & 1 << 15 ? " smap" : "",
			  role >> 24 & 0xff ? " smm" : "");
	ob_printf(o, " root %u %s", (unsigned int)root, unsync ? "unsync" : "sync");
	return true;
}

static bool kvm_mmu_get_page(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
			     const struct rep_record *r)
{
	uint64_t created, gfn;

	if (!num_field(ctx, PF(ev, 3), r, &created) || !num_field(ctx, PF(ev, 4), r, &gfn))
		return false;
	ob_puts(o, created ? "new sp gfn " : "existing sp gfn ");
	ob_hex(o, gfn);
	ob_putc(o, ' ');
	return kvm_mmu_role(ctx, o, ev, r);
}

/* "pages=N reason=TEXT (N)": plugin_tlb names the first four reasons only. */
static bool tlb_flush(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		      const struct rep_record *r)
{
	static const char *const reasons[] = { "flush on task switch", "remote shootdown",
					       "local shootdown", "local mm shootdown" };
	uint64_t pages, reason;

	if (!num_field(ctx, PF(ev, 0), r, &pages) || !num_field(ctx, PF(ev, 1), r, &reason))
		return false;
	ob_puts(o, "pages=");
	ob_s64(o, (int64_t)pages);	/* %ld of the field read zero-extended */
	ob_puts(o, " reason=");
	if (reason < 4)
		ob_puts(o, reasons[reason]);
	ob_puts(o, " (");
	ob_s64(o, (int64_t)reason);
	ob_putc(o, ')');
	return true;
}

/* trace_marker_raw's record as trace-cmd prints it: "# ID" in hex, then every byte after it. */
static bool raw_data(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		     const struct rep_record *r)
{
	const struct rep_field *buf = PF(ev, 1);
	uint64_t id;

	if (!num_field(ctx, PF(ev, 0), r, &id) || !buf)
		return false;
	ob_printf(o, "# %llx", (unsigned long long)id);
	for (unsigned int i = buf->offset; i < r->size; i++)
		ob_printf(o, " %02x", r->data[i]);
	return true;
}

bool rep_plugin_print(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		      const struct rep_record *r)
{
	uint64_t v;
	struct rep_sym sym;

	switch (ev->plugin) {
	case PLUGIN_SCHED_SWITCH:
		return sched_switch(ctx, o, ev, r);
	case PLUGIN_SCHED_WAKEUP:
		return sched_wakeup(ctx, o, ev, r);
	case PLUGIN_HRTIMER_START:
	case PLUGIN_HRTIMER_EXPIRE_ENTRY:
		return hrtimer(ctx, o, ev, r);
	case PLUGIN_FUNCTION:
		return function(ctx, o, ev, r);
	case PLUGIN_FUNC_REPEATS:
		return func_repeats(ctx, o, ev, r);
	case PLUGIN_RAW_DATA:
		return raw_data(ctx, o, ev, r);
	case PLUGIN_KVM_MMU_ROLE:
		return kvm_mmu_role(ctx, o, ev, r);
	case PLUGIN_KVM_MMU_GET_PAGE:
		return kvm_mmu_get_page(ctx, o, ev, r);
	case PLUGIN_TLB_FLUSH:
		return tlb_flush(ctx, o, ev, r);
	case PLUGIN_FUNCGRAPH_ENTRY:
	case PLUGIN_FUNCGRAPH_EXIT:
		return rep_graph_print(ctx, o, ev, r);
	case PLUGIN_KMEM_CALL_SITE:
		/* A prefix naming the caller; the print fmt follows. */
		if (num_field(ctx, PF(ev, 0), r, &v) && syms_find(&ctx->syms, v, &sym)) {
			ob_putc(o, '(');
			ob_write(o, sym.name, sym.name_len);
			ob_puts(o, "+0x");
			ob_hex(o, (unsigned int)(v - sym.addr));
			ob_puts(o, ") ");
		}
		return false;
	default:
		return false;
	}
}
