/*
 * Hist triggers: the data model shared by the parser (hist_parse.c), the
 * field/expression compiler (hist_field.c), the engine that owns the
 * histograms (trace_events_hist.c) and the renderers (hist_output.c).
 * Pure: the tracing core hands in events, records and context through the
 * structures below; nothing here touches hardware.
 *
 * A trigger line is first split into attributes (struct hist_trigger_attrs,
 * syntax only), then compiled against its event into a hist_trigger_data:
 * hist_fields that read records, and a tracing_map that aggregates them.
 */
#ifndef TRACE_HIST_H
#define TRACE_HIST_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/string.h>
#include <trace/trace_event.h>
#include <trace/tracing_map.h>

#define HIST_FIELDS_MAX		(TRACING_MAP_FIELDS_MAX + TRACING_MAP_VARS_MAX)
#define HIST_ACTIONS_MAX	8
#define HIST_ASSIGNMENTS_MAX	TRACING_MAP_VARS_MAX
#define HIST_FIELD_OPERANDS_MAX	2
#define HIST_SUBEXPR_MAX	3
#define HIST_CONST_DIGITS_MAX	21
#define HIST_DIV_SHIFT		20
#define HIST_STACKTRACE_DEPTH	16
#define HIST_STACKTRACE_SIZE	(HIST_STACKTRACE_DEPTH * sizeof(unsigned long))
#define MAX_FILTER_STR_VAL	256
#define HIST_KEY_SIZE_MAX	(MAX_FILTER_STR_VAL + HIST_STACKTRACE_SIZE)
#define STR_VAR_LEN_MAX		MAX_FILTER_STR_VAL
#define SYNTH_FIELDS_MAX	64
#define TASK_COMM_LEN		16
#define HIST_CMD_MAX		4095	/* a trigger write must be < PAGE_SIZE */

/* What a hist_field is and how it is shown: Linux's flag names (hist_debug prints them). */
enum hist_field_flags {
	HIST_FIELD_FL_HITCOUNT		= 1 << 0,
	HIST_FIELD_FL_KEY		= 1 << 1,
	HIST_FIELD_FL_STRING		= 1 << 2,
	HIST_FIELD_FL_HEX		= 1 << 3,
	HIST_FIELD_FL_SYM		= 1 << 4,
	HIST_FIELD_FL_SYM_OFFSET	= 1 << 5,
	HIST_FIELD_FL_EXECNAME		= 1 << 6,
	HIST_FIELD_FL_SYSCALL		= 1 << 7,
	HIST_FIELD_FL_STACKTRACE	= 1 << 8,
	HIST_FIELD_FL_LOG2		= 1 << 9,
	HIST_FIELD_FL_TIMESTAMP		= 1 << 10,
	HIST_FIELD_FL_TIMESTAMP_USECS	= 1 << 11,
	HIST_FIELD_FL_VAR		= 1 << 12,
	HIST_FIELD_FL_EXPR		= 1 << 13,
	HIST_FIELD_FL_VAR_REF		= 1 << 14,
	HIST_FIELD_FL_CPU		= 1 << 15,
	HIST_FIELD_FL_ALIAS		= 1 << 16,
	HIST_FIELD_FL_BUCKET		= 1 << 17,
	HIST_FIELD_FL_CONST		= 1 << 18,
	HIST_FIELD_FL_PERCENT		= 1 << 19,
	HIST_FIELD_FL_GRAPH		= 1 << 20,
	HIST_FIELD_FL_COMM		= 1 << 21,
};

/* How a hist_field gets its value (a switch, not function pointers: one place to read). */
enum hist_field_fn {
	HIST_FIELD_FN_NOP,
	HIST_FIELD_FN_COUNTER,		/* hitcount: 1 per event */
	HIST_FIELD_FN_CONST,
	HIST_FIELD_FN_NUM,		/* a numeric record field (size, is_signed) */
	HIST_FIELD_FN_STRING,		/* char[N] in the record */
	HIST_FIELD_FN_DYNSTRING,	/* __data_loc char[] */
	HIST_FIELD_FN_RELDYNSTRING,	/* __rel_loc char[] */
	HIST_FIELD_FN_PSTRING,		/* char * */
	HIST_FIELD_FN_TIMESTAMP,
	HIST_FIELD_FN_CPU,
	HIST_FIELD_FN_COMM,		/* current->comm */
	HIST_FIELD_FN_STACK,		/* common_stacktrace */
	HIST_FIELD_FN_LOG2,
	HIST_FIELD_FN_BUCKET,
	HIST_FIELD_FN_VAR_REF,
	HIST_FIELD_FN_UMINUS,
	HIST_FIELD_FN_PLUS,
	HIST_FIELD_FN_MINUS,
	HIST_FIELD_FN_MULT,
	HIST_FIELD_FN_DIV,		/* divisor 0 gives (u64)-1 */
	HIST_FIELD_FN_DIV_POWER2,	/* constant power-of-two divisor: shift */
	HIST_FIELD_FN_DIV_MULT_SHIFT,	/* other constant divisor <= 2^20: Linux's approximation */
	HIST_FIELD_FN_ALIAS,		/* y=$x: the value of the referenced variable */
};

enum hist_field_op {
	FIELD_OP_NONE,
	FIELD_OP_PLUS,
	FIELD_OP_MINUS,
	FIELD_OP_UNARY_MINUS,
	FIELD_OP_DIV,
	FIELD_OP_MULT,
};

struct hist_trigger_data;

/* A variable: its name, the histogram holding it and its slot in tracing_map_elt.vars[]. */
struct hist_var {
	char *name;
	struct hist_trigger_data *hist_data;
	unsigned int idx;
};

/*
 * One value source: a key, a value, a variable, an expression node, a
 * constant or a reference to a variable. Expressions are trees through
 * operands[]; a variable reference points at the variable's histogram.
 */
struct hist_field {
	const struct trace_event_field *field;	/* the record field, if any */
	unsigned long flags;			/* enum hist_field_flags */
	enum hist_field_fn fn;
	enum hist_field_op op;
	unsigned long buckets;			/* .buckets=N */
	char *type;				/* C type as printed by hist_debug */
	unsigned int size;			/* bytes: the key slot / value size */
	unsigned int offset;			/* key: offset in the compound key (the record offset is field->offset) */
	bool is_signed;
	struct hist_field *operands[HIST_FIELD_OPERANDS_MAX];
	struct hist_trigger_data *hist_data;	/* the histogram this field belongs to */
	struct hist_var var;			/* VAR: this variable; VAR_REF: the referenced one */
	char *name;				/* expression text / alias / ref name */
	char *system, *event_name;		/* VAR_REF written fully qualified */
	unsigned int var_ref_idx;		/* VAR_REF: index in hist_data->var_refs[] */
	bool read_once;				/* consume a referenced variable */
	unsigned int var_str_idx;		/* string VAR: which per-element buffer */
	u64 constant;			/* CONST; DIV_POWER2: the shift; DIV_MULT_SHIFT: 2^20 / divisor */
	unsigned int refcnt;		/* VAR_REF fields are shared by their users */
};

/* Handlers and actions (§ onmatch/onmax/onchange). */
enum handler_id { HANDLER_ONMATCH = 1, HANDLER_ONMAX, HANDLER_ONCHANGE };
enum action_id { ACTION_SAVE = 1, ACTION_TRACE, ACTION_SNAPSHOT };

struct synth_event;

/* One handler.action clause as written and as compiled. */
struct action_data {
	enum handler_id handler;
	enum action_id action;
	char *action_name;		/* "trace" or the synthetic event name */
	char *params[SYNTH_FIELDS_MAX];	/* as written (trace(): without the event name) */
	unsigned int n_params;
	bool use_trace_keyword;		/* written as trace(name, ...) */
	char *synth_event_name;
	struct synth_event *synth_event;
	unsigned int var_ref_idx[SYNTH_FIELDS_MAX];	/* trace params: hist_data->var_refs[] */
	union {
		struct {
			char *event;
			char *event_system;
		} match_data;
		struct {
			char *var_str;			/* "$x" as written */
			struct hist_field *var_ref;	/* the tracked variable */
			struct hist_field *track_var;	/* __max / __change */
			unsigned int save_first;	/* save(): index into save_vars */
		} track_data;
	};
};

/* A `name=expr` pair in the assignment tokens. */
struct var_def {
	char *name;
	char *expr;
};

/*
 * A trigger line split into its parts, before any field is looked up.
 * Strings point into cmd, a private copy laid out exactly like the
 * error_log command (`hist:` + the rest), so a token's offset in cmd is
 * its caret position.
 */
struct hist_trigger_attrs {
	char *cmd;
	size_t cmd_len;
	char *keys_str;
	char *vals_str;
	char *sort_key_str;
	char *name;
	char *clock;
	bool pause, cont, clear, ts_in_usecs, no_hitcount;
	bool remove;			/* a `!hist:` command: describes an existing trigger */
	/* A scratch copy of a token being parsed (its errors point at the original). */
	const char *shadow, *shadow_of;
	size_t shadow_len;
	unsigned int map_bits;
	char *assignment_str[HIST_ASSIGNMENTS_MAX];
	unsigned int n_assignments;
	char *action_str[HIST_ACTIONS_MAX];
	unsigned int n_actions;
	struct var_def var_defs[TRACING_MAP_VARS_MAX];
	unsigned int n_var_defs;
	char *filter_str;		/* text after " if ", or NULL */
};

/*
 * A parse or build failure as the error_log shows it: loc is
 * `hist:<sys>:<event>`, cmd the command, pos the caret offset in cmd.
 * err is the negative errno; msg is NULL for the failures Linux reports
 * without a log entry.
 */
struct hist_error {
	int err;
	const char *msg;
	unsigned int pos;
	char loc[128];
	char cmd[HIST_CMD_MAX + 8];
};

/*
 * An event as hist sees it. The tracing core keeps one next to each
 * trace_event_call; the hist triggers attached to it hang off triggers.
 */
struct hist_event {
	const char *system;
	const char *name;
	const struct trace_event_call *call;	/* its fields, for hist and for filters */
	struct list_head triggers;	/* struct hist_trigger_data, creation order */
	struct list_head list;		/* in hist_instance.events */
	bool is_synthetic;
};

/* Services the renderer needs from the kernel: symbols and syscall names. */
struct hist_print_ops {
	/* %ps (offset false) or %pS (offset true) of addr into buf. */
	void (*sym)(char *buf, size_t size, unsigned long addr, bool offset);
	/* Name of syscall nr, or NULL if unknown. */
	const char *(*syscall_name)(int nr);
};

/*
 * One trace instance's hist world: its events (for onmatch and
 * sys.event.$var lookups) and named histograms. The tracing core owns it;
 * tests build one with fake events.
 */
struct hist_instance {
	struct list_head events;		/* struct hist_event */
	struct list_head named;			/* name= owners: struct hist_trigger_data.named_list */
	/*
	 * Where synthetic events are defined when not here: they are global,
	 * so a trace instance's actions find them in the top level's; the
	 * instance sees each as an ordinary event of its own.
	 */
	struct hist_instance *synth_home;
	const struct hist_print_ops *print_ops;
	struct hist_error last_error;		/* of the last failed command */
	/* Take a snapshot of the trace buffer (snapshot() action); may be NULL. */
	void (*take_snapshot)(struct hist_instance *inst);
	/*
	 * Deliver a generated synthetic event record (common header: type
	 * and pid set; the rest is the core's): the tracing core records it
	 * and runs the event's triggers (its histograms too).
	 * NULL: the engine feeds the event's histograms itself.
	 */
	void (*synth_emit)(struct hist_instance *inst, struct hist_event *event,
			   void *rec, unsigned int size);
	/*
	 * A trigger is about to go live on hd->event (hook it to the event's
	 * probe), or about to go away (unhook it, and return only once no
	 * CPU can still be running it). Either may be NULL; a failing
	 * register refuses the command with its errno.
	 */
	int (*trigger_register)(struct hist_instance *inst, struct hist_trigger_data *hd);
	void (*trigger_unregister)(struct hist_instance *inst, struct hist_trigger_data *hd);
	/*
	 * A synthetic event was defined (make it a real event; an error
	 * refuses the definition) or is about to be deleted (a nonzero
	 * return, e.g. -EBUSY while it is enabled, keeps it). May be NULL.
	 */
	int (*event_added)(struct hist_instance *inst, struct hist_event *event);
	int (*event_removing)(struct hist_instance *inst, struct hist_event *event);
	/* Return once no CPU is inside a histogram update begun before the call; may be NULL. */
	void (*synchronize)(struct hist_instance *inst);
	/* Switch the instance's trace clock (clock=, default global); may be NULL. */
	int (*set_clock)(struct hist_instance *inst, const char *clock);
};

/*
 * A hidden variable holding a plain field for an action (a "field
 * variable" or a save() param): one VAR field that both reads the record
 * field and names the tracing_map slot it is kept in.
 */
struct field_var {
	struct hist_field *var;
};

/*
 * A histogram this trigger created on its onmatch() event to hold a field
 * of that event (`keys=<same keys>:synthetic_<field>=<field>`); removed
 * with the trigger, by running its command as a removal.
 */
struct field_var_hist {
	struct hist_event *event;
	char *cmd;
};

/*
 * One hist trigger compiled against its event: fields[0..n_vals) are
 * hitcount, values and variables; fields[n_vals..n_fields) the keys.
 */
struct hist_trigger_data {
	struct hist_field *fields[HIST_FIELDS_MAX];
	unsigned int n_vals;
	unsigned int n_keys;
	unsigned int n_fields;
	unsigned int n_vars;		/* tracing_map vars: variables + field/save/track vars */
	unsigned int n_var_str;		/* per-element string buffers */
	unsigned int key_size;
	struct tracing_map_sort_key sort_keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int n_sort_keys;
	struct hist_trigger_attrs *attrs;
	struct tracing_map *map;
	bool enable_timestamps;
	bool save_comm;			/* a .execname field: keep each entry's comm */
	bool uses_stack;		/* reads common_stacktrace: the caller fills ctx->stack */
	struct hist_field *var_refs[TRACING_MAP_VARS_MAX];
	unsigned int n_var_refs;
	struct action_data *actions[HIST_ACTIONS_MAX];
	unsigned int n_actions;
	struct field_var *field_vars[SYNTH_FIELDS_MAX];
	unsigned int n_field_vars;
	struct field_var *save_vars[SYNTH_FIELDS_MAX];
	unsigned int n_save_vars;
	struct field_var_hist *field_var_hists[SYNTH_FIELDS_MAX];
	unsigned int n_field_var_hists;
	struct hist_event *event;
	struct hist_instance *inst;
	struct hist_error *err;		/* while building */
	struct list_head list;		/* in event->triggers */
	bool paused;
	struct event_filter *filter;	/* `if <filter>`, compiled against the event */
	char *filter_str;
	/*
	 * name=: the first trigger of a name owns the tracing_map; later ones
	 * (named_data set) share it. The owner lives until its last sharer is
	 * gone, even after its own removal (then it is only on inst->named).
	 */
	struct hist_trigger_data *named_data;
	struct list_head named_list;	/* owner: in inst->named */
	unsigned int named_ref;		/* owner: itself while registered + its sharers */
	/* snapshot(): what triggered the last one (shown in the hist file) */
	bool snapshot_taken;
	struct action_data *snapshot_action;
	u64 snapshot_val;
	char *snapshot_key;		/* [key_size], allocated with a snapshot() action */
};

/* What an event handler gives the histogram: the record and its context. */
struct hist_event_ctx {
	const void *rec;		/* the record, common fields first */
	unsigned int rec_size;
	u64 ts;				/* ring-buffer timestamp, ns */
	unsigned int cpu;
	int pid;			/* current's pid (records the hist generates) */
	const char *comm;		/* current->comm */
	const unsigned long *stack;	/* common_stacktrace frames, 0-terminated if short */
};

/* --- hist_field.c ------------------------------------------------------------------ */

/* Compile an expression (key, value or variable). NULL with hd->err set on failure. */
struct hist_field *hist_parse_expr(struct hist_trigger_data *hd, char *str,
				   unsigned long flags, const char *var_name, unsigned int level);
/* The same on a private copy of text (which stays intact); errors point into text. */
struct hist_field *hist_parse_expr_copy(struct hist_trigger_data *hd, const char *text,
					unsigned long flags, const char *var_name);
void hist_field_destroy(struct hist_field *field);
/* The value of field for this event (strings: a pointer to the text). */
u64 hist_field_eval(struct hist_field *field, const struct hist_event_ctx *ctx,
		    const u64 *var_ref_vals);

/*
 * hist_field_eval() with its common cases inline: most keys, values and
 * operands are hitcount, a variable reference or a plain 4- or 8-byte
 * field, and the event path should not pay a call for those. Fixed-size
 * copies use __builtin_memcpy: the kernel builds freestanding, where a
 * plain memcpy is a call.
 */
static inline u64 hist_field_value(struct hist_field *f, const struct hist_event_ctx *ctx,
				   const u64 *var_ref_vals)
{
	const char *at;
	u32 v32;
	u64 v64;

	switch (f->fn) {
	case HIST_FIELD_FN_COUNTER:
		return 1;
	case HIST_FIELD_FN_VAR_REF:
		return var_ref_vals[f->var_ref_idx];
	case HIST_FIELD_FN_NUM:
		at = (const char *)ctx->rec + f->field->offset;
		if (f->field->size == 8) {
			__builtin_memcpy(&v64, at, 8);
			return v64;
		}
		if (f->field->size == 4) {
			__builtin_memcpy(&v32, at, 4);
			return f->is_signed ? (u64)(s64)(s32)v32 : v32;
		}
		break;
	default:
		break;
	}
	return hist_field_eval(f, ctx, var_ref_vals);
}
/* Canonical text of a field as the trigger prints it (name, modifiers, expression). */
int hist_field_print(char *buf, size_t size, const struct hist_field *field);
/* The name of a field (for hist output and sort matching). */
const char *hist_field_name(const struct hist_field *field);
/* A variable named name on hd (defined so far), or NULL. */
struct hist_field *hist_find_var_field(struct hist_trigger_data *hd, const char *name);
/* Reference var (a VAR field of some histogram) from hd; shared per variable. */
struct hist_field *hist_create_var_ref(struct hist_trigger_data *hd, struct hist_field *var,
				       const char *system, const char *event_name);
const struct trace_event_field *hist_event_find_field(const struct hist_event *event,
						      const char *name);

/* --- hist_parse.c ----------------------------------------------------------------- */

/*
 * Split `text` (the part after "hist:", filter included) into attrs.
 * On failure fills err (loc/cmd already set by the caller) and returns -errno.
 */
int hist_parse_attrs(const char *text, struct hist_trigger_attrs *attrs, struct hist_error *err);
void hist_attrs_free(struct hist_trigger_attrs *attrs);
/* Split every assignment token into var_defs. */
int hist_parse_var_defs(struct hist_trigger_attrs *attrs, struct hist_error *err);
/* Parse one onmatch/onmax/onchange clause (syntax only). */
struct action_data *hist_parse_action(char *str, struct hist_trigger_attrs *attrs,
				      struct hist_error *err);
void hist_action_free(struct action_data *data);

/* Record an error; the first one of a command wins. pos is the caret offset. */
void hist_err(struct hist_error *err, int errno_val, const char *msg, unsigned int pos);
/* Caret offset of token inside cmd (tokens point into the command copy), else 0. */
unsigned int hist_errpos(const struct hist_trigger_attrs *attrs, const char *token);
/* The error_log entry body: "<loc>: error: <msg>\n  Command: <cmd>\n<spaces>^\n". */
int hist_error_format(const struct hist_error *err, char *buf, size_t size);

/* The error texts, in Linux's order. */
#define HIST_ERRORS(C)							\
	C(NONE, "No error"),						\
	C(DUPLICATE_VAR, "Variable already defined"),			\
	C(VAR_NOT_UNIQUE, "Variable name not unique, need to use fully qualified name (subsys.event.var) for variable"), \
	C(TOO_MANY_VARS, "Too many variables defined"),			\
	C(MALFORMED_ASSIGNMENT, "Malformed assignment"),		\
	C(NAMED_MISMATCH, "Named hist trigger doesn't match existing named trigger (includes variables)"), \
	C(TRIGGER_EEXIST, "Hist trigger already exists"),		\
	C(TRIGGER_ENOENT_CLEAR, "Can't clear or continue a nonexistent hist trigger"), \
	C(SET_CLOCK_FAIL, "Couldn't set trace_clock"),			\
	C(BAD_FIELD_MODIFIER, "Invalid field modifier"),		\
	C(TOO_MANY_SUBEXPR, "Too many subexpressions (3 max)"),		\
	C(TIMESTAMP_MISMATCH, "Timestamp units in expression don't match"), \
	C(TOO_MANY_FIELD_VARS, "Too many field variables defined"),	\
	C(EVENT_FILE_NOT_FOUND, "Event file not found"),		\
	C(HIST_NOT_FOUND, "Matching event histogram not found"),	\
	C(HIST_CREATE_FAIL, "Couldn't create histogram for field"),	\
	C(SYNTH_VAR_NOT_FOUND, "Couldn't find synthetic variable"),	\
	C(SYNTH_EVENT_NOT_FOUND, "Couldn't find synthetic event"),	\
	C(SYNTH_TYPE_MISMATCH, "Param type doesn't match synthetic event field type"), \
	C(SYNTH_COUNT_MISMATCH, "Param count doesn't match synthetic event field count"), \
	C(FIELD_VAR_PARSE_FAIL, "Couldn't parse field variable"),	\
	C(VAR_CREATE_FIND_FAIL, "Couldn't create or find variable"),	\
	C(ONX_NOT_VAR, "For onmax(x) or onchange(x), x must be a variable"), \
	C(ONX_VAR_NOT_FOUND, "Couldn't find onmax or onchange variable"), \
	C(ONX_VAR_CREATE_FAIL, "Couldn't create onmax or onchange variable"), \
	C(FIELD_VAR_CREATE_FAIL, "Couldn't create field variable"),	\
	C(TOO_MANY_PARAMS, "Too many action params"),			\
	C(PARAM_NOT_FOUND, "Couldn't find param"),			\
	C(INVALID_PARAM, "Invalid action param"),			\
	C(ACTION_NOT_FOUND, "No action found"),				\
	C(NO_SAVE_PARAMS, "No params found for save()"),		\
	C(TOO_MANY_SAVE_ACTIONS, "Can't have more than one save() action per hist"), \
	C(ACTION_MISMATCH, "Handler doesn't support action"),		\
	C(NO_CLOSING_PAREN, "No closing paren found"),			\
	C(SUBSYS_NOT_FOUND, "Missing subsystem"),			\
	C(INVALID_SUBSYS_EVENT, "Invalid subsystem or event name"),	\
	C(INVALID_REF_KEY, "Using variable references in keys not supported"), \
	C(VAR_NOT_FOUND, "Couldn't find variable"),			\
	C(FIELD_NOT_FOUND, "Couldn't find field"),			\
	C(EMPTY_ASSIGNMENT, "Empty assignment"),			\
	C(INVALID_SORT_MODIFIER, "Invalid sort modifier"),		\
	C(EMPTY_SORT_FIELD, "Empty sort field"),			\
	C(TOO_MANY_SORT_FIELDS, "Too many sort fields (Max = 2)"),	\
	C(INVALID_SORT_FIELD, "Sort field must be a key or a val"),	\
	C(INVALID_STR_OPERAND, "String type can not be an operand in expression"), \
	C(EXPECT_NUMBER, "Expecting numeric literal"),			\
	C(UNARY_MINUS_SUBEXPR, "Unary minus not supported in sub-expressions"), \
	C(DIVISION_BY_ZERO, "Division by zero"),			\
	C(NEED_NOHC_VAL, "Non-hitcount value is required for 'nohitcount'")

#define C(a, b) HIST_ERR_##a
enum hist_err_id { HIST_ERRORS(C) };
#undef C
extern const char *const hist_err_text[];

/* A failure with an error_log entry: -EINVAL plus the text of id. */
#define hist_err_id(err, id, pos) hist_err((err), -EINVAL, hist_err_text[HIST_ERR_##id], (pos))

#endif
