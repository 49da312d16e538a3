/*
 * Record-to-text: trace_seq, the TP_printk helpers, and the pieces of a
 * `trace` line in Linux's layout. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <trace/trace.h>
#include <trace/trace_output.h>

void trace_seq_init(struct trace_seq *s)
{
	s->len = 0;
	s->full = false;
	s->buffer[0] = '\0';
}

int trace_seq_vprintf(struct trace_seq *s, const char *fmt, va_list ap)
{
	unsigned int room = TRACE_SEQ_BUFFER_SIZE - s->len;
	int n;

	if (s->full)
		return -EOVERFLOW;
	n = vsnprintf(s->buffer + s->len, room, fmt, ap);
	if (n < 0 || (unsigned int)n >= room) {
		s->buffer[s->len] = '\0';
		s->full = true;
		return -EOVERFLOW;
	}
	s->len += (unsigned int)n;
	return 0;
}

int trace_seq_printf(struct trace_seq *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = trace_seq_vprintf(s, fmt, ap);
	va_end(ap);
	return ret;
}

int trace_seq_puts(struct trace_seq *s, const char *str)
{
	size_t n = strlen(str);

	if (s->full || n >= TRACE_SEQ_BUFFER_SIZE - s->len) {
		s->full = true;
		return -EOVERFLOW;
	}
	memcpy(s->buffer + s->len, str, n + 1);
	s->len += (unsigned int)n;
	return 0;
}

int trace_seq_putmem(struct trace_seq *s, const void *mem, size_t len)
{
	if (s->full || len >= TRACE_SEQ_BUFFER_SIZE - s->len) {
		s->full = true;
		return -EOVERFLOW;
	}
	memcpy(s->buffer + s->len, mem, len);
	s->len += (unsigned int)len;
	s->buffer[s->len] = '\0';
	return 0;
}

int trace_seq_putc(struct trace_seq *s, char c)
{
	char str[2] = { c, '\0' };

	return trace_seq_puts(s, str);
}

/*
 * The helpers write their result into p as a string of its own, after
 * whatever earlier helpers of the same line left there, and step past
 * its NUL so the next helper does not overwrite it.
 */
static const char *seq_string_end(struct trace_seq *p, unsigned int start)
{
	if (p->full)
		return "";
	p->len++;	/* keep the NUL: the string stays valid */
	if (p->len >= TRACE_SEQ_BUFFER_SIZE) {
		p->len = TRACE_SEQ_BUFFER_SIZE - 1;
		p->full = true;
	} else {
		p->buffer[p->len] = '\0';
	}
	return p->buffer + start;
}

const char *trace_print_flags_seq(struct trace_seq *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *flag_array)
{
	unsigned int start = p->len;
	bool first = true;

	for (int i = 0; flag_array[i].name && flags; i++) {
		unsigned long mask = flag_array[i].mask;

		if (!mask || (flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first && delim)
			trace_seq_puts(p, delim);
		first = false;
		trace_seq_puts(p, flag_array[i].name);
	}
	if (flags) {
		if (!first && delim)
			trace_seq_puts(p, delim);
		trace_seq_printf(p, "0x%lx", flags);
	}
	return seq_string_end(p, start);
}

const char *trace_print_symbols_seq(struct trace_seq *p, unsigned long val,
				    const struct trace_print_flags *symbol_array)
{
	unsigned int start = p->len;

	for (int i = 0; symbol_array[i].name; i++) {
		if (symbol_array[i].mask == val) {
			trace_seq_puts(p, symbol_array[i].name);
			return seq_string_end(p, start);
		}
	}
	trace_seq_printf(p, "0x%lx", val);
	return seq_string_end(p, start);
}

int trace_print_lat_fmt(struct trace_seq *s, const struct trace_entry *ent)
{
	unsigned int f = ent->flags;
	bool nmi = f & TRACE_FLAG_NMI, hardirq = f & TRACE_FLAG_HARDIRQ;
	bool softirq = f & TRACE_FLAG_SOFTIRQ, bh_off = f & TRACE_FLAG_BH_OFF;
	bool irqs_off = f & TRACE_FLAG_IRQS_OFF;
	char irqs, resched, hardsoft, depth, migrate;

	irqs = irqs_off && bh_off ? 'D' : irqs_off ? 'd' : bh_off ? 'b' :
	       (f & TRACE_FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	switch (f & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED)) {
	case TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED:
		resched = 'N';
		break;
	case TRACE_FLAG_NEED_RESCHED:
		resched = 'n';
		break;
	case TRACE_FLAG_PREEMPT_RESCHED:
		resched = 'p';
		break;
	default:
		resched = '.';
	}
	hardsoft = nmi && hardirq ? 'Z' : nmi ? 'z' : hardirq && softirq ? 'H' :
		   hardirq ? 'h' : softirq ? 's' : '.';
	depth = (ent->preempt_count & 0xf) ? "0123456789abcdef"[ent->preempt_count & 0xf] : '.';
	migrate = (ent->preempt_count >> 4) ? "0123456789abcdef"[ent->preempt_count >> 4] : '.';
	return trace_seq_printf(s, "%c%c%c%c%c", irqs, resched, hardsoft, depth, migrate);
}

int trace_print_context(struct trace_seq *s, const struct trace_entry *ent, const char *comm,
			int cpu, u64 ts)
{
	u64 usecs = (ts + 500) / 1000;	/* rounded, as Linux's ns2usecs */

	trace_seq_printf(s, "%16s-%-7d [%03d] ", comm, ent->pid, cpu);
	trace_print_lat_fmt(s, ent);
	return trace_seq_printf(s, " %5lu.%06lu: ", (unsigned long)(usecs / 1000000),
				(unsigned long)(usecs % 1000000));
}

/* A __data_loc word's target lies inside the record. */
static bool data_loc_valid(const struct trace_event_field *field, const char *rec, size_t len)
{
	u32 loc, off, n;

	if (field->offset + 4u > len)
		return false;
	memcpy(&loc, rec + field->offset, 4);
	off = loc & 0xffff;
	n = loc >> 16;
	if (off + n > len)
		return false;
	/* a string ends inside; an empty one (a probe's fault) points at a NUL */
	if (field->filter_type == FILTER_DYN_STRING)
		return n ? rec[off + n - 1] == '\0' : off < len && rec[off] == '\0';
	return true;
}

bool trace_event_record_valid(const struct trace_event_call *call,
			      const struct trace_entry *ent, size_t len)
{
	const char *rec = (const char *)ent;

	if (len < call->size)
		return false;
	for (const struct trace_event_field *f = call->fields; f && f->name; f++) {
		if (!strncmp(f->type, "__data_loc", 10)) {
			if (!data_loc_valid(f, rec, len))
				return false;
		} else if (f->filter_type == FILTER_STATIC_STRING) {
			/* char name[N] or a trailing char name[]: a string ends inside. */
			size_t room = f->size ? f->size : len - f->offset;

			if (f->offset + room > len || !memchr(rec + f->offset, '\0', room))
				return false;
		}
	}
	return true;
}

void trace_print_ip_sym(struct trace_seq *s, unsigned long ip, unsigned long flags)
{
	if (!ip) {
		trace_seq_putc(s, '0');
		return;
	}
	trace_seq_printf(s, flags & TRACE_ITER(SYM_OFFSET) ? "%pS" : "%ps", (void *)ip);
	if (flags & TRACE_ITER(SYM_ADDR))
		trace_seq_printf(s, " <%016lx>", ip);
}

void trace_print_function(struct trace_seq *s, unsigned long ip, unsigned long parent_ip,
			  unsigned long flags)
{
	trace_print_ip_sym(s, ip, flags);
	if ((flags & TRACE_ITER(PRINT_PARENT)) && parent_ip) {
		trace_seq_puts(s, " <-");
		trace_print_ip_sym(s, parent_ip, flags);
	}
	trace_seq_putc(s, '\n');
}

int trace_print_event(struct trace_seq *s, struct trace_seq *tmp,
		      const struct trace_entry *ent, size_t len)
{
	struct trace_event_call *call;

	if (len < sizeof(*ent))
		return trace_seq_puts(s, "[bad record]");
	call = trace_find_event_by_id(ent->type);
	if (!call)
		return trace_seq_printf(s, "Unknown type %u", ent->type);
	trace_seq_printf(s, "%s: ", call->name);
	if (!call->output)
		return trace_seq_puts(s, "[no output]");
	if (!trace_event_record_valid(call, ent, len))
		return trace_seq_puts(s, "[bad record]");
	return call->output(s, tmp, ent);
}

int trace_print_header(struct trace_seq *s, const char *tracer, unsigned long entries,
		       unsigned long written, unsigned int nr_cpus)
{
	trace_seq_printf(s, "# tracer: %s\n#\n", tracer);
	trace_seq_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%u\n#\n",
			 entries, written, nr_cpus);
	return trace_seq_puts(s,
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n");
}

/*
 * What an empty snapshot file shows below "# tracer:": whether the spare
 * buffer exists and how to drive it, for the array's file or a CPU's.
 * Linux's text, word for word: scripts grep it ("Snapshot is allocated").
 */
int trace_print_snapshot_help(struct trace_seq *s, bool allocated, bool per_cpu)
{
	trace_seq_printf(s, "#\n# * Snapshot is %s *\n#\n# Snapshot commands:\n",
			 allocated ? "allocated" : "freed");
	if (per_cpu)
		trace_seq_puts(s,
			"# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
			"# echo 1 > snapshot : Not supported with this kernel.\n"
			"#                     Must use main snapshot file to allocate.\n"
			"# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not allocate)\n");
	else
		trace_seq_puts(s,
			"# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			"#                      Takes a snapshot of the main buffer.\n"
			"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n");
	return trace_seq_puts(s,
		"#                      (Doesn't have to be '2' works with any number that\n"
		"#                       is not a '0' or '1')\n");
}

void trace_print_raw_data(struct trace_seq *s, const struct trace_entry *ent, size_t len)
{
	const struct raw_data_entry *r = (const void *)ent;

	if (len < sizeof(*r)) {
		trace_seq_puts(s, "[bad record]\n");
		return;
	}
	trace_seq_printf(s, "# %x buf:", r->id);
	for (size_t i = 0; i < len - sizeof(*r); i++)
		trace_seq_printf(s, " %02x", (unsigned char)r->buf[i]);
	trace_seq_putc(s, '\n');
}
