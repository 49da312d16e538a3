/*
 * Fetch arguments of probe events (Linux's trace_probe): what a probe
 * event's line (kprobe, fprobe, tprobe, eprobe) asks its probe to record
 * at each hit, parsed from `[NAME=]FETCHARG[:TYPE]`, laid out as the
 * event's fields after the probe's own (`__probe_ip`, or `__probe_func`
 * and `__probe_ret_ip`, or none for an eprobe), and printed back in the
 * event's format and `trace` lines; and the commands' words, names and
 * errors. Pure: the fetch itself (registers, memory, an event's record)
 * is trace/trace_probe_event.c's.
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
	PROBE_BASE_IMM,		/* base_val itself (@SYM's address, \\IMM) */
	PROBE_BASE_FIELD,	/* an eprobe's $FIELD of the event's record, at base_val */
	PROBE_BASE_IMMSTR,	/* \\"STRING": the text in imm_str */
	PROBE_BASE_ENTRY_ARG,	/* a return probe's $argN: the base_val'th argument at the call */
	PROBE_BASE_FILE,	/* a uprobe's @+OFFSET: where the probed file's byte base_val is */
};

enum probe_kind { PROBE_U, PROBE_S, PROBE_X, PROBE_CHAR, PROBE_STRING, PROBE_SYMBOL,
		  PROBE_SYMSTR };

/* Kept in the record as a __data_loc string (a string, or a symbol's name)? */
static inline bool probe_kind_is_str(enum probe_kind k)
{
	return k == PROBE_STRING || k == PROBE_SYMSTR;
}

/* One argument. */
struct probe_arg {
	char *name;
	char *expr;			/* as written, `:TYPE` included (the listing shows it) */
	char *imm_str;			/* PROBE_BASE_IMMSTR's text */
	enum probe_base base;
	unsigned long base_val;
	unsigned int nderef;
	/* offsets of the +OFF(...) around the base, innermost first */
	long deref[PROBE_DEREF_MAX];
	u16 uderef;			/* bit i: deref[i] reads user memory (+u<offset>) */
	bool ustring;			/* a string read from user memory (:ustring, +u...:string) */
	enum probe_kind kind;
	u8 size;			/* bytes of the value in the record (string: its u32 __data_loc) */
	u8 bf_width, bf_shift;		/* b<width>@<offset>/<size>: bits kept (0: all) and where */
	u8 count;			/* TYPE[count]: an array of count values; 0: one */
	u16 offset;			/* in the record */
	/* PROBE_BASE_FIELD: the field's bytes, sign and filter type (its value, or a string's address) */
	u8 field_size, field_signed, field_type;
};

/* The arguments a return probe keeps from the call: the System V registers. */
#define PROBE_ENTRY_ARGS	6

/* Where the arguments are fetched: what they may name. */
#define PROBE_CTX_RETURN	0x1	/* at a function's return: $retval */
#define PROBE_CTX_NOREGS	0x2	/* no %REG (fprobes, tprobes, eprobes) */
#define PROBE_CTX_EVENT		0x4	/* an eprobe: $FIELD of event, no $argN/$stack/$retval */
#define PROBE_CTX_USER		0x8	/* a uprobe: user memory, @+OFFSET, no symbols or $argN */

struct probe_ctx {
	unsigned int flags;			/* PROBE_CTX_* */
	const struct trace_event_call *event;	/* PROBE_CTX_EVENT: whose fields */
};

/* The probe's own fields before the arguments. */
enum probe_head {
	PROBE_HEAD_IP,		/* __probe_ip: a probe on a function or instruction */
	PROBE_HEAD_RET,		/* __probe_func, __probe_ret_ip: at a return */
	PROBE_HEAD_NONE,	/* an eprobe: the arguments alone */
};

/* Where parsing stopped: Linux's message and the caret's column in the command. */
struct probe_error {
	const char *msg;
	int pos;
	/* Linux logs some failures twice: this one first, at first_pos (NULL: none) */
	const char *first;
	int first_pos;
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
 * column pos of the command, for a probe of ctx. Returns 0 or
 * -EINVAL / -ENOMEM / -ENOTSUPP with err set.
 */
int probe_arg_parse(struct probe_args *pa, const char *text, int pos, const struct probe_ctx *ctx,
		    struct probe_error *err);
/* After the arguments: the fields and print fmt behind head; -E2BIG if too big. */
int probe_args_finish(struct probe_args *pa, enum probe_head head);
/*
 * The first argument where a and b lay their records out differently
 * (names, types; Linux's test for a second probe of an event), or -1.
 */
int probe_args_diff(const struct probe_args *a, const struct probe_args *b);
void probe_args_free(struct probe_args *pa);
/* ` name=expr` for each argument, snprintf-style. */
int probe_args_show(const struct probe_args *pa, char *buf, size_t size);

/*
 * A probe command's words and each one's column in the command as
 * error_log shows it (the words joined by single spaces: Linux logs argv
 * so), and where it failed.
 */
struct probe_cmd {
	char *argv[PROBE_ARGS_MAX + 2];
	int pos[PROBE_ARGS_MAX + 2];
	int argc;
	char *text;
	struct probe_error err;
	const char *log_loc;		/* error_log's location for the error (the kind's) */
};

/* Split cmd into c (c->text then belongs to c: probe_cmd_free). */
int probe_cmd_split(struct probe_cmd *c, const char *cmd);
void probe_cmd_free(struct probe_cmd *c);
/* Record msg at column pos as the failure; returns ret. */
int probe_cmd_fail2(struct probe_cmd *c, const char *first, int first_pos, const char *msg, int pos,
		    int ret);
int probe_cmd_fail(struct probe_cmd *c, const char *msg, int pos, int ret);
/*
 * `[GRP/][EVENT]` (or `GRP.EVENT` where sep2 is '.'), at w inside
 * argv[word]: *group and *event point into w, NULL when not given.
 * Linux's errors.
 */
int probe_cmd_name(struct probe_cmd *c, int word, char *w, char sep2, const char **group,
		   const char **event);
/* A C identifier? */
bool probe_is_ident(const char *s, size_t len);

/* An argument's value as the record holds it, printed as `trace` shows it. */
struct trace_seq;
void probe_args_print(struct trace_seq *s, const struct probe_args *pa, const void *rec,
		      unsigned int len);

#endif
