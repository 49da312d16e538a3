/*
 * spoor report: the host decoder of trace.dat files. The pieces:
 *   host-tools/tracedat_read.c   the container (v6/v7, compression)
 *   host-tools/report_event.c    format files -> struct rep_event
 *   host-tools/report_printfmt*.c "print fmt" -> a compiled program, run per record
 *   host-tools/report_plugin.c   the renderings trace-cmd's plugins give some events
 *   host-tools/report_page.c     ring-buffer pages -> records
 *   host-tools/report_syms.c     kallsyms and saved cmdlines lookups
 *   host-tools/report_out.c      the buffered output a line is built in
 *   host-tools/report.c          the command: options, merge by time, lines
 *   host-tools/report_perf.c     perf.data files, printed as perf script does
 * docs/decoder.md says why it is written here rather than on libtraceevent.
 */
#ifndef HOST_TOOLS_REPORT_H
#define HOST_TOOLS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "host-tools/tracedat_read.h"

/* ---- output ------------------------------------------------------------------ */

/* A growing text buffer; report lines are built here and flushed in big writes. */
struct obuf {
	char *buf;
	size_t len, cap;
	FILE *f;		/* NULL: keep everything (tests) */
};

void ob_init(struct obuf *o, FILE *f);
void ob_free(struct obuf *o);
void ob_flush(struct obuf *o);
/* A line is complete: write the buffer out if it is big enough. */
void ob_end_line(struct obuf *o);
void ob_printf(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Room for n more bytes: the slow path of ob_reserve. */
void ob_grow(struct obuf *o, size_t n);
/* Decimal numbers without printf: the hot path of every line. */
void ob_u64(struct obuf *o, uint64_t v);
void ob_s64(struct obuf *o, int64_t v);
/* Lowercase hex without a prefix. */
void ob_hex(struct obuf *o, uint64_t v);
/* Decimal right-aligned in width, padded with pad (' ' or '0'). */
void ob_u64_width(struct obuf *o, uint64_t v, unsigned int width, char pad);
/*
 * A trace time as trace-cmd prints it: "%5llu.%06llu", rounded to
 * microseconds, or "%5llu.%09llu" with ns (-t).
 */
void ob_time(struct obuf *o, uint64_t ts, bool ns);

/* Inline: a line is a dozen small pieces, and a call per piece showed in profiles. */
static inline void ob_reserve(struct obuf *o, size_t n)
{
	if (__builtin_expect(o->len + n > o->cap, 0))
		ob_grow(o, n);
}

static inline void ob_write(struct obuf *o, const void *p, size_t n)
{
	ob_reserve(o, n);
	__builtin_memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static inline void ob_pad(struct obuf *o, char c, size_t n)
{
	ob_reserve(o, n);
	__builtin_memset(o->buf + o->len, c, n);
	o->len += n;
}

static inline void ob_putc(struct obuf *o, char c)
{
	ob_reserve(o, 1);
	o->buf[o->len++] = c;
}

static inline void ob_puts(struct obuf *o, const char *s)
{
	ob_write(o, s, __builtin_strlen(s));
}

/* ---- symbols and task names ---------------------------------------------------- */

/* A symbol syms_find found. */
struct rep_sym {
	uint64_t addr;
	const char *name;	/* in the kallsyms text: name_len bytes, no NUL */
	size_t name_len;
};

/* One kallsyms line: its address and where the line starts in the text. */
struct rep_ksym {
	uint64_t addr;
	uint32_t line;
};

struct rep_syms {
	/*
	 * The kallsyms text (the file's, which outlives this), indexed on the
	 * first syms_find: most reports print no symbol, and a distribution
	 * kernel's is 7 MB. With file set, the text is the file's, read then.
	 */
	struct tdat *file;
	const char *kallsyms;
	size_t kallsyms_len;
	struct rep_ksym *syms;	/* sorted by addr */
	size_t nr;
	/* pid -> comm, open addressing */
	struct rep_comm { int32_t pid; bool used; char comm[24]; } *comms;
	size_t comm_cap, nr_comms;
};

/* Keeps text (which must outlive s) to parse on the first syms_find. */
void syms_load_kallsyms(struct rep_syms *s, const char *text, size_t len);
/* The same with t's kallsyms, read from the file on the first syms_find. */
void syms_load_file_kallsyms(struct rep_syms *s, struct tdat *t);
void syms_load_cmdlines(struct rep_syms *s, const char *text, size_t len);
void syms_free(struct rep_syms *s);
/* The symbol addr is in (at or below it, before the next) into *sym; false if none. */
bool syms_find(struct rep_syms *s, uint64_t addr, struct rep_sym *sym);
/* Learn pid's comm from a record, unless saved cmdlines already named it. */
void syms_register_comm(struct rep_syms *s, int32_t pid, const char *comm, size_t n);
/* The saved comm of pid, NULL if unknown. */
const char *syms_comm(const struct rep_syms *s, int32_t pid);

/* ---- events ----------------------------------------------------------------------- */

enum rep_field_flags {
	FIELD_ARRAY = 1 << 0,	/* name[N] */
	FIELD_DYNAMIC = 1 << 1,	/* __data_loc: u32 len << 16 | offset from record start */
	FIELD_RELATIVE = 1 << 2,	/* __rel_loc: offset from the end of the u32 */
	FIELD_STRING = 1 << 3,	/* char array or char[] data: prints as text */
	FIELD_POINTER = 1 << 4,	/* T *: prints as hex */
	FIELD_LONG = 1 << 5,	/* long / unsigned long: raw view uses long size */
	FIELD_BAD = 1 << 6,	/* a size no number reading fits: shown as bytes */
};

/* An integer printf directive (%03d, %lx, ...): how a number is printed. */
struct rep_numfmt {
	char conv;		/* d i u x X o; 0: none */
	char flags[6];
	int width, prec;	/* -1: none */
	int length;		/* bytes the value is taken as: 1 2 4 8 */
};

/* Print v as printf prints it cast to f's length. */
void rep_put_int(struct obuf *o, const struct rep_numfmt *f, uint64_t v);

/* One field of an event, as its format file lists it. */
struct rep_field {
	char *name;
	char *type;		/* as written, e.g. "__data_loc char[]", "unsigned long" */
	unsigned int offset, size;
	unsigned int elem_size;	/* arrays: bytes per element */
	bool is_signed;
	unsigned int flags;	/* enum rep_field_flags */
};

struct pf_prog;

#define REP_PLUGIN_FIELDS	8

/*
 * An event known from a format file. A file has thousands of formats and
 * records of a few: only the name and ID are read when the file is
 * opened; the fields when something first needs them (rep_event_load),
 * the print fmt when a record is first printed with it (rep_event_print).
 */
struct rep_event {
	unsigned int id;
	char *system, *name;
	const char *format;	/* the format text not read yet (the file's); NULL once loaded */
	size_t format_len;
	bool bad;		/* its fields could not be read (said when loaded) */
	struct rep_field *fields;	/* common fields first */
	unsigned int nr_fields, nr_common;
	struct pf_prog *print;	/* NULL: not compiled (yet), or did not compile */
	const char *print_src;	/* in the format text; NULL: none, or compiled */
	size_t print_len;
	uint64_t print_offset;	/* of print_src in the file */
	int plugin;		/* enum rep_plugin: a trace-cmd plugin rendering */
	const struct rep_field *plugin_field[REP_PLUGIN_FIELDS];	/* what the plugin reads */
	uint64_t format_offset;	/* of its format text in the file */
	char *head;		/* "name:" and padding as a line shows it, made on first use */
	size_t head_len;
};

/* Everything needed to turn records into text. */
struct rep_ctx {
	struct rep_event **by_id;	/* indexed by id, up to 65535 */
	struct rep_event **events;
	unsigned int nr_events;
	struct rep_syms syms;
	int long_size;
	bool big_endian;
	bool no_plugins;	/* -N: print fmt only, as trace-cmd -N */
	bool ns;		/* -t: times a plugin prints have nanoseconds too */
	struct obuf scratch;	/* text __print_flags and friends build while a line is made */
	struct tdat *file;	/* for messages; may be NULL in tests */
	unsigned int errors;	/* problems reported through rep_diag */
	uint64_t (*fn_chain)[64];	/* the function plugin's call chains, per CPU (report_plugin.c) */
	/* While a funcgraph entry prints: the return that makes it a leaf, or NULL (report_graph.c). */
	const struct rep_record *graph_ret;
	const struct rep_event *graph_ret_ev;
};

/*
 * Add the event of one format file to ctx, reading only its name and ID;
 * NULL, with a message through rep_diag, when it has none or the ID is
 * taken. text must outlive ctx: the rest is read from it when needed.
 */
struct rep_event *rep_add_format(struct rep_ctx *ctx, const char *system, const char *text,
				 size_t len, uint64_t file_offset);
/* Read ev's fields (the first time); false, said once, when they cannot be read. */
bool rep_event_load(struct rep_ctx *ctx, struct rep_event *ev);
/* rep_add_format and rep_event_load: the event with its fields, or NULL. */
struct rep_event *rep_parse_format(struct rep_ctx *ctx, const char *system, const char *text,
				   size_t len, uint64_t file_offset);
/* The event a record's id names, its fields read; NULL if none or unreadable. */
static inline struct rep_event *rep_event_by_id(struct rep_ctx *ctx, unsigned int id)
{
	struct rep_event *ev = id < 65536 ? ctx->by_id[id] : NULL;

	return ev && (!ev->format || rep_event_load(ctx, ev)) && !ev->bad ? ev : NULL;
}
void rep_ctx_init(struct rep_ctx *ctx, struct tdat *file);
void rep_ctx_free(struct rep_ctx *ctx);
const struct rep_field *rep_find_field(const struct rep_event *ev, const char *name);
/* Report a problem (through the file when there is one); counts as an error. */
void rep_diag(struct rep_ctx *ctx, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A warning to stderr: the report goes on and does not fail for it. */
void rep_warn(struct rep_ctx *ctx, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * ev's compiled print fmt, compiling it on the first call; NULL when it
 * has none or it does not compile (said once, as a warning: trace-cmd
 * prints such records as [FAILED TO PARSE] and their fields and exits 0).
 */
struct pf_prog *rep_event_print(struct rep_ctx *ctx, struct rep_event *ev);

/* A record: the event payload (starting with common_type) and where it came from. */
struct rep_record {
	const unsigned char *data;
	unsigned int size;
	uint64_t ts;
	unsigned int cpu;
	uint64_t offset;	/* in the file (approximate for inflated data) */
	int64_t missed;		/* events lost just before this one: -1 none, 0 unknown */
};

/* Reading a field of a record: bounds-checked, in the file's byte order. */
uint64_t rep_read_num(const struct rep_ctx *ctx, const struct rep_record *r,
		      unsigned int offset, unsigned int size, bool is_signed);
/* The bytes of a __data_loc/__rel_loc field; len 0 when out of range. */
const unsigned char *rep_dyn_data(const struct rep_ctx *ctx, const struct rep_record *r,
				  const struct rep_field *f, unsigned int *len);
/*
 * " name=value" for every non-common field, as trace-cmd -R prints them
 * (and after "[FAILED TO PARSE]"). Not const: like trace-cmd, a string
 * field that once held non-text is shown as bytes from then on.
 */
void rep_print_fields(struct rep_ctx *ctx, struct obuf *o, struct rep_event *ev,
		      const struct rep_record *r);

/* ---- print fmt ------------------------------------------------------------------ */

/*
 * Compile ev's print fmt text; NULL with *err set to a static message.
 * An unsigned cast of a field marks the field unsigned, as trace-cmd does.
 */
struct pf_prog *pf_compile(struct rep_event *ev, const char *text, size_t len,
			   const char **err, size_t *err_pos);
void pf_free(struct pf_prog *p);
/*
 * False when trace-cmd cannot print records with p (with -N: without the
 * functions its plugins give); they print as it prints them then.
 */
bool pf_printable(const struct pf_prog *p, bool no_plugins);
/* Render a record with the program. */
void pf_print(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
	      const struct rep_record *r);
/*
 * The raw view's value of one field, the way trace-cmd finds it: the
 * next directive (from *cursor, wrapping around) whose argument is the
 * field, casts aside, prints it ("0x" first when the text before the
 * directive ends in "0x"), and *cursor moves past it; -1 is the end.
 * False when no directive prints the field (the caller prints it plain).
 */
bool pf_print_field(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
		    const struct rep_field *f, const struct rep_record *r, int *cursor);

/* ---- plugins ------------------------------------------------------------------------ */

enum rep_plugin {
	PLUGIN_NONE,
	PLUGIN_SCHED_SWITCH,
	PLUGIN_SCHED_WAKEUP,
	PLUGIN_KMEM_CALL_SITE,
	PLUGIN_HRTIMER_START,
	PLUGIN_HRTIMER_EXPIRE_ENTRY,
	PLUGIN_FUNCTION,
	PLUGIN_RAW_DATA,
	PLUGIN_KVM_MMU_ROLE,
	PLUGIN_KVM_MMU_GET_PAGE,
	PLUGIN_TLB_FLUSH,
	PLUGIN_FUNCGRAPH_ENTRY,
	PLUGIN_FUNCGRAPH_EXIT,
	PLUGIN_FUNC_REPEATS,
};

/* Pick the plugin trace-cmd would use for ev, and look up the fields it reads. */
void rep_plugin_setup(struct rep_event *ev);
/*
 * Render with ev's plugin. Returns false when the plugin does not print
 * the whole line (kmem adds a prefix, then the print fmt follows) or the
 * record lacks what it needs.
 */
bool rep_plugin_print(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		      const struct rep_record *r);
/* Is r (of ev) the return of the call entry (of entry_ev) opened: same task, same function? */
bool rep_graph_is_return_of(const struct rep_ctx *ctx, const struct rep_event *entry_ev,
			    const struct rep_record *entry, const struct rep_event *ev,
			    const struct rep_record *r);
/* A funcgraph entry or return as trace-cmd's graph view prints it (report_graph.c). */
bool rep_graph_print(struct rep_ctx *ctx, struct obuf *o, const struct rep_event *ev,
		     const struct rep_record *r);

/* ---- pages ------------------------------------------------------------------------ */

/*
 * Walking one CPU's pages. Each page_next() yields the next record, with
 * rec->missed saying whether events were lost before it (the page's
 * RB_MISSED_* flags, on its first record). Damage (a commit beyond the
 * page, an event running past the commit) is reported with its file
 * offset and the rest of that page skipped; the next page is read.
 */
struct page_iter {
	struct rep_ctx *ctx;
	struct tdat_reader reader;	/* the CPU's data, a piece at a time */
	const unsigned char *data;	/* the current piece */
	size_t size;		/* bytes of whole pages */
	uint64_t file_offset;	/* of data[0] */
	unsigned int cpu, page_size, long_size;
	size_t page;		/* offset of the current page in data */
	size_t pos, end;	/* current event / end of the current page's data */
	uint64_t ts;
	bool in_page;
	int64_t missed;		/* for the page's first record: -1 none, 0 unknown count */
};

void page_iter_init(struct page_iter *it, struct rep_ctx *ctx, struct tdat *t,
		    const struct tdat_cpu *cpu);
/* False at the end of the data. The record is valid until the next call. */
bool page_next(struct page_iter *it, struct rep_record *rec);
void page_iter_free(struct page_iter *it);

/* What `spoor report` shows. */
struct report_opts {
	bool raw;		/* -R: fields instead of the print fmt */
	bool ns;		/* -t: nanosecond timestamps */
	bool no_plugins;	/* -N */
	bool trace_layout;	/* --trace: the guest's `trace` file line layout */
	bool latency;		/* -l: trace-cmd's latency columns (CPU and flags) */
	bool ts_diff;		/* --ts-diff: "(+N)" since the previous line shown */
	bool wakeup;		/* -w: wakeup latencies (report_wakeup.c) */
	char **events;		/* -e patterns: "sys:name", "name", globs */
	unsigned int nr_events;
	uint64_t cpus[64];	/* --cpu: bitmap of CPUs to show (all when cpu_filter unset) */
	bool cpu_filter;
	int32_t *pids;		/* -P */
	unsigned int nr_pids;
	uint64_t from, to;	/* --from/--to in ns; to == 0: no end */
	const char *svg;	/* --svg FILE */
	char **filters;		/* -F specs (report_filter.c) */
	unsigned int nr_filters;
};

/* Parse every format and load the symbol tables. */
void report_load_events(struct rep_ctx *ctx, struct tdat *t);
/* -e and the --cpu, -P, --from/--to filters. */
bool report_event_selected(const struct report_opts *o, const struct rep_event *ev);
bool report_record_selected(const struct report_opts *o, const struct rep_record *r, int32_t pid);

/*
 * Decode buf (a whole trace.dat named path) to out. Returns 0 when the
 * file was intact, 1 when anything was reported on stderr (what could be
 * read was still printed), 2 when nothing could be read.
 */
int report_run(const char *path, const unsigned char *buf, size_t size,
	       const struct report_opts *opt, FILE *out);
/*
 * The same for a perf.data (report_run hands it over): its samples in
 * time order as Linux's perf script prints them by default, tracepoint
 * records rendered through the formats of its tracing data section.
 */
int report_perf_run(const char *path, const unsigned char *buf, size_t size,
		    const struct report_opts *opt, FILE *out);
/*
 * --stat (report_stat.c): the buffer counters the file kept and where each
 * CPU's data lies, as trace-cmd report --stat prints them; no events.
 * Returns as report_run does.
 */
int report_stat(const char *path, const unsigned char *buf, size_t size, FILE *out);
/* -F (report_filter.c): compile one spec against the file's events (0, or -1 said). */
struct report_filter;
int report_filter_add(struct report_filter **list, struct rep_ctx *ctx, const char *spec);
/* With no -F every record passes; else one naming ev must accept r. */
bool report_filter_match(const struct report_filter *list, const struct rep_ctx *ctx,
			 const struct rep_event *ev, const struct rep_record *r, int32_t pid);
void report_filter_free(struct report_filter *list);
/* -w (report_wakeup.c): feed every record shown; finish prints the summary and frees. */
struct wakeup_lat;
struct wakeup_lat *wakeup_lat_new(void);
void wakeup_lat_record(struct wakeup_lat *w, const struct rep_ctx *ctx, const struct rep_event *ev,
		       const struct rep_record *r, struct obuf *o);
void wakeup_lat_finish(struct wakeup_lat *w, struct obuf *o);
/* A record's text after "name: " (plugin, print fmt, or the fields if it failed). */
void report_event_text(struct rep_ctx *ctx, struct obuf *o, struct rep_event *ev,
		       const struct rep_record *r);
/* The --svg picture (report_svg.c) into f: one lane per CPU, tasks as spans, events as ticks. */
void report_svg(struct rep_ctx *ctx, struct tdat *t, const struct report_opts *opt, FILE *f);

#endif
