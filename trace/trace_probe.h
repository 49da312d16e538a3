/*
 * Fetch arguments of probe events (Linux's trace_probe): what a
 * `kprobe_events` line asks a probe to record at each hit, parsed from
 * `[NAME=]FETCHARG[:TYPE]`, laid out as the event's fields after the
 * probe's own (`__probe_ip`, or `__probe_func` and `__probe_ret_ip`), and
 * printed back in the event's format and `trace` lines. Pure: the fetch
 * itself (registers, memory) is the probe's (trace/trace_kprobe.c).
 */
#ifndef TRACE_TRACE_PROBE_H
#define TRACE_TRACE_PROBE_H

#include <kernel/types.h>
#include <trace/trace_event.h>

#define PROBE_ARGS_MAX		128
#define PROBE_DEREF_MAX		13	/* nested +off(...) (Linux's 16 fetch steps) */
#define PROBE_ARRAY_MAX		64	/* TYPE[N] */
#define PROBE_FIXED_MAX		2048	/* a record's fixed part (strings follow it) */
#define PROBE_STRING_MAX	256	/* bytes of one string argument kept in a record */
#define PROBE_STACK_MAX		2048	/* $stackN, $argN: within a 16 KiB stack */
#define PROBE_NAME_MAX		64	/* group and event names */
#define PROBE_ARG_NAME_MAX	32	/* argument names */
#define PROBE_EXPR_MAX		63	/* one argument's expression */

/* Where a fetch starts. */
enum probe_base {
	PROBE_BASE_REG,		/* a pt_regs word: base_val is its index */
	PROBE_BASE_STACK,	/* the base_val'th word above the stack pointer */
	PROBE_BASE_STACKP,	/* the stack pointer */
	PROBE_BASE_RETVAL,	/* rax at a return */
	PROBE_BASE_COMM,	/* current->comm */
	PROBE_BASE_IMM,		/* base_val itself (@SYM's address) */
};

enum probe_kind { PROBE_U, PROBE_S, PROBE_X, PROBE_CHAR, PROBE_STRING, PROBE_SYMBOL };

/* One argument. */
struct probe_arg {
	char *name;
	char *expr;			/* as written, `:TYPE` included (the listing shows it) */
	enum probe_base base;
	unsigned long base_val;
	unsigned int nderef;
	/* offsets of the +OFF(...) around the base, innermost first */
	long deref[PROBE_DEREF_MAX];
	enum probe_kind kind;
	u8 size;			/* bytes of the value in the record (string: its u32 __data_loc) */
	u8 bf_width, bf_shift;		/* b<width>@<offset>/<size>: bits kept (0: all) and where */
	u8 count;			/* TYPE[count]: an array of count values; 0: one */
	u16 offset;			/* in the record */
};

/* Where parsing stopped: Linux's message and the caret's column in the command. */
struct probe_error {
	const char *msg;
	int pos;
};

/* The arguments of one event and its fields (probe's own first, then the arguments). */
struct probe_args {
	struct probe_arg args[PROBE_ARGS_MAX];
	unsigned int n;
	unsigned int size;		/* the record's fixed part */
	struct trace_event_field fields[PROBE_ARGS_MAX + 3];	/* NULL-terminated */
	char *print_fmt;
};

/*
 * Parse argument text (one argument, `NAME=` and `:TYPE` included) at
 * column pos of the command; is_return allows $retval. Returns 0 or
 * -EINVAL / -ENOMEM / -ENOTSUPP with err set.
 */
int probe_arg_parse(struct probe_args *pa, const char *text, int pos, bool is_return,
		    struct probe_error *err);
/* After the arguments: the fields and print fmt of a kprobe (or a kretprobe); -E2BIG if too big. */
int probe_args_finish(struct probe_args *pa, bool is_return);
void probe_args_free(struct probe_args *pa);
/* ` name=expr` for each argument, snprintf-style. */
int probe_args_show(const struct probe_args *pa, char *buf, size_t size);

/* An argument's value as the record holds it, printed as `trace` shows it. */
struct trace_seq;
void probe_args_print(struct trace_seq *s, const struct probe_args *pa, const void *rec,
		      unsigned int len);

#endif
