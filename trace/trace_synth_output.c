/*
 * How a synthetic event looks: its format file's print fmt and its line in
 * `trace` (`lat=12 pid=1 comm=bash`, numbers per type, gfp_t with its
 * flags, dynamic strings, stacks as `field=STACK:` and `=> sym+off/size`
 * lines), both Linux's. Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/trace_output.h>
#include <trace/trace_synth.h>

/* The printf conversion of a numeric field, by its declared type. */
static const char *synth_field_fmt(const struct synth_field *f)
{
	static const struct { const char *type, *fmt; } fmts[] = {
		{ "s64", "%lld" }, { "u64", "%llu" }, { "s32", "%d" }, { "u32", "%u" },
		{ "s16", "%d" }, { "u16", "%u" }, { "s8", "%d" }, { "u8", "%u" },
		{ "char", "%d" }, { "unsigned char", "%u" }, { "int", "%d" },
		{ "unsigned int", "%u" }, { "long", "%ld" }, { "unsigned long", "%lu" },
		{ "bool", "%d" }, { "pid_t", "%d" }, { "gfp_t", "%x" },
	};

	if (f->is_string || f->is_stack)
		return "%s";
	for (unsigned int i = 0; i < ARRAY_SIZE(fmts); i++)
		if (!strcmp(f->type, fmts[i].type))
			return fmts[i].fmt;
	return "%llu";
}

int synth_event_set_print_fmt(struct synth_event *se)
{
	size_t size = 8;
	char *fmt;
	int n;

	for (unsigned int i = 0; i < se->n_fields; i++)
		size += 2 * strlen(se->fields[i].name) + 40;
	fmt = kmalloc(size, GFP_KERNEL);
	if (!fmt)
		return -ENOMEM;
	n = scnprintf(fmt, size, "\"");
	for (unsigned int i = 0; i < se->n_fields; i++)
		n += scnprintf(fmt + n, size - n, "%s=%s%s", se->fields[i].name,
			       synth_field_fmt(&se->fields[i]), i + 1 < se->n_fields ? ", " : "");
	n += scnprintf(fmt + n, size - n, "\"");
	for (unsigned int i = 0; i < se->n_fields; i++) {
		const struct synth_field *f = &se->fields[i];
		const char *how = f->is_stack ? "__get_stacktrace" : f->is_dynamic ? "__get_str" : NULL;

		if (how)
			n += scnprintf(fmt + n, size - n, ", %s(%s)", how, f->name);
		else
			n += scnprintf(fmt + n, size - n, ", REC->%s", f->name);
	}
	kfree(se->print_fmt);
	se->print_fmt = fmt;
	se->call.print_fmt = fmt;
	return 0;
}

/* gfp_t's flag names: the composite masks first, as the kmem events print them. */
static const struct trace_print_flags gfp_names[] = {
	{ 0xcc0, "GFP_KERNEL" }, { 0xc40, "GFP_NOFS" }, { 0x820, "GFP_ATOMIC" },
	{ 0xc00, "GFP_NOIO" }, { 0x2800, "GFP_NOWAIT" }, { 0x1, "GFP_DMA" },
	{ 0x4, "GFP_DMA32" }, { 0x2, "__GFP_HIGHMEM" }, { 0x8, "__GFP_MOVABLE" },
	{ 0x10, "__GFP_RECLAIMABLE" }, { 0x20, "__GFP_HIGH" }, { 0x40, "__GFP_IO" },
	{ 0x80, "__GFP_FS" }, { 0x100, "__GFP_ZERO" }, { 0x400, "__GFP_DIRECT_RECLAIM" },
	{ 0x800, "__GFP_KSWAPD_RECLAIM" }, { 0x1000, "__GFP_WRITE" }, { 0x2000, "__GFP_NOWARN" },
	{ 0x4000, "__GFP_RETRY_MAYFAIL" }, { 0x8000, "__GFP_NOFAIL" }, { 0x10000, "__GFP_NORETRY" },
	{ 0x40000, "__GFP_COMP" }, { 0, NULL },
};

/*
 * A number, read at the field's size. Signed values are widened first,
 * so one 64-bit conversion prints what the type's own conversion would.
 */
static void print_num(struct trace_seq *s, struct trace_seq *tmp, const struct synth_field *f,
		      const char *rec)
{
	u64 v = 0;

	memcpy(&v, rec + f->offset, min(f->size, 8u));
	if (f->is_signed)
		v = f->size == 1 ? (u64)(s64)(s8)v : f->size == 2 ? (u64)(s64)(s16)v :
		    f->size == 4 ? (u64)(s64)(s32)v : v;
	if (!strcmp(f->type, "gfp_t")) {
		trace_seq_printf(s, "%s=%x (%s)", f->name, (unsigned int)v,
				 trace_print_flags_seq(tmp, "|", (unsigned long)v, gfp_names));
	} else if (f->is_signed) {
		trace_seq_printf(s, "%s=%ld", f->name, (long)v);
	} else {
		trace_seq_printf(s, "%s=%lu", f->name, (unsigned long)v);
	}
}

int synth_event_output(struct trace_seq *s, struct trace_seq *tmp, const struct trace_entry *ent)
{
	const struct trace_event_call *call = trace_find_event_by_id(ent->type);
	const struct synth_event *se = container_of(call, struct synth_event, call);
	const char *rec = (const char *)ent;

	for (unsigned int i = 0; i < se->n_fields; i++) {
		const struct synth_field *f = &se->fields[i];
		const char *sep = i + 1 < se->n_fields ? " " : "";

		if (f->is_dynamic) {
			u32 loc;

			memcpy(&loc, rec + f->offset, 4);
			if (f->is_stack) {
				const char *p = rec + (loc & 0xffff), *end = p + (loc >> 16);
				unsigned long addr;

				trace_seq_printf(s, "%s=STACK:\n", f->name);
				for (; p + sizeof(addr) <= end; p += sizeof(addr)) {
					memcpy(&addr, p, sizeof(addr));
					if (!addr)
						break;
					trace_seq_printf(s, "=> %pS\n", (void *)addr);
				}
				continue;
			}
			trace_seq_printf(s, "%s=%.*s%s", f->name, (int)(loc >> 16),
					 rec + (loc & 0xffff), sep);
		} else if (f->is_string) {
			trace_seq_printf(s, "%s=%.*s%s", f->name, (int)f->size, rec + f->offset, sep);
		} else {
			print_num(s, tmp, f, rec);
			trace_seq_puts(s, sep);
		}
	}
	return 0;
}
