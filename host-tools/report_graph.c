/*
 * The function graph view trace-cmd report gives ftrace:funcgraph_entry
 * and funcgraph_exit records (trace-cmd's own handlers, on unless -N or
 * -R). An entry whose return is the very next record printed, of the same
 * task and function, is a leaf: one line "func();" with the call's
 * duration, and the return is not printed. Any other entry opens
 * "func() {" and a return closes "}". After the event name each line has
 * a 13-column duration field (blank on an opening line), "|  ", then two
 * spaces per level of depth.
 *
 * The leaf test looks at the next record of the whole merged stream, not
 * of the entry's CPU, as trace-cmd does: another CPU's record between a
 * call and its return makes a "{" ... "}" pair.
 */
#include <stdio.h>
#include <string.h>
#include "host-tools/report.h"

/* The fields of rep_plugin_setup's lists (report_plugin.c): func, depth, calltime, rettime. */
#define GRAPH_FUNC	0
#define GRAPH_DEPTH	1
#define GRAPH_CALLTIME	2
#define GRAPH_RETTIME	3

/*
 * Deeper than this a depth comes from a corrupt record: trace-cmd would
 * indent it by gigabytes. Real call chains are at most a few hundred deep.
 */
#define GRAPH_MAX_INDENT_DEPTH	(1 << 20)

static bool graph_num(const struct rep_ctx *ctx, const struct rep_event *ev, int i,
		      const struct rep_record *r, uint64_t *v)
{
	const struct rep_field *f = ev->plugin_field[i];

	if (!f || f->flags & (FIELD_ARRAY | FIELD_DYNAMIC | FIELD_BAD))
		return false;
	*v = rep_read_num(ctx, r, f->offset, f->size, f->is_signed);
	return true;
}

bool rep_graph_is_return_of(const struct rep_ctx *ctx, const struct rep_event *entry_ev,
			    const struct rep_record *entry, const struct rep_event *ev,
			    const struct rep_record *r)
{
	uint64_t f1, f2;

	if (!ev || ev->plugin != PLUGIN_FUNCGRAPH_EXIT || r->size < 8 || entry->size < 8)
		return false;
	if (rep_read_num(ctx, r, 4, 4, true) != rep_read_num(ctx, entry, 4, 4, true))
		return false;
	return graph_num(ctx, entry_ev, GRAPH_FUNC, entry, &f1) &&
	       graph_num(ctx, ev, GRAPH_FUNC, r, &f2) && f1 == f2;
}

/*
 * "X 12.345 us   |  ": X is the mark of a duration over 10 us (+), 100 us
 * (!), 1 ms (#) or 1 s ($); microseconds with three decimals while they
 * have fewer than seven digits; padded to 13 columns.
 */
static void graph_duration(struct obuf *o, uint64_t ns)
{
	uint64_t us = ns / 1000;
	char mark = ns > 1000000000ull ? '$' : ns > 1000000 ? '#' : ns > 100000 ? '!' :
		    ns > 10000 ? '+' : ' ';
	char num[32];
	int len = snprintf(num, sizeof(num), "%llu", (unsigned long long)us);

	if (len < 7)
		len = snprintf(num, sizeof(num), "%llu.%03u", (unsigned long long)us,
			       (unsigned int)(ns % 1000));
	ob_printf(o, "%c %s us%*s|  ", mark, num, len < 8 ? 8 - len : 1, "");
}

static void graph_indent(struct obuf *o, int64_t depth)
{
	if (depth > GRAPH_MAX_INDENT_DEPTH)
		depth = GRAPH_MAX_INDENT_DEPTH;
	for (int64_t i = 0; i < depth; i++)
		ob_puts(o, "  ");
}

static void graph_func(struct rep_ctx *ctx, struct obuf *o, uint64_t ip)
{
	struct rep_sym sym;

	if (syms_find(&ctx->syms, ip, &sym))
		ob_write(o, sym.name, sym.name_len);
	else
		ob_printf(o, "0x%llx", (unsigned long long)ip);
}

bool rep_graph_print(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		     const struct rep_record *r)
{
	const struct rep_record *ret = ctx->graph_ret;
	const struct rep_event *ret_ev = ctx->graph_ret_ev;
	uint64_t func, depth, call, done;

	if (!graph_num(ctx, ev, GRAPH_FUNC, r, &func) || !graph_num(ctx, ev, GRAPH_DEPTH, r, &depth))
		return false;
	if (ev->plugin == PLUGIN_FUNCGRAPH_ENTRY) {
		if (ret && graph_num(ctx, ret_ev, GRAPH_CALLTIME, ret, &call) &&
		    graph_num(ctx, ret_ev, GRAPH_RETTIME, ret, &done))
			graph_duration(o, done - call);
		else
			ob_puts(o, "             |  ");
		graph_indent(o, (int64_t)depth);
		graph_func(ctx, o, func);
		ob_puts(o, ret ? "();" : "() {");
		return true;
	}
	if (!graph_num(ctx, ev, GRAPH_CALLTIME, r, &call) || !graph_num(ctx, ev, GRAPH_RETTIME, r, &done))
		return false;
	graph_duration(o, done - call);
	graph_indent(o, (int64_t)depth);
	ob_putc(o, '}');
	return true;
}
