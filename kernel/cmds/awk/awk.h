/*
 * awk: the POSIX awk language as a shell command (awk_main.c), split into
 *	awk_lex.c	tokens of the program text
 *	awk_parse.c	statements, rules and functions into a syntax tree
 *	awk_expr.c	expressions (precedence climbing)
 *	awk_num.c	numbers: parsing, arithmetic, printf's numeric conversions
 *	awk_math.c	exp, log, sin, cos and atan2 in fixed point
 *	awk_value.c	strings, values, conversions, comparisons, arrays
 *	awk_eval.c	expressions evaluated
 *	awk_exec.c	statements run, the BEGIN/main/END loop
 *	awk_builtin.c	the built-in functions and printf's format walk
 *	awk_field.c	$0 and its fields, field splitting, the regex cache
 *	awk_io.c	records from files, getline, output files and pipes
 *
 * Numbers. The kernel is built without floating point (-mgeneral-regs-only),
 * so an awk number is fixed point: a 128-bit integer counting units of
 * 10^-9. Integers are exact up to about 1.7e29 (every 64-bit value), and a
 * fraction keeps nine decimal places: 7/2 is 3.5, a trace timestamp such as
 * 1234.567890 is exact, 1/3 is 0.333333333. Beyond those limits results
 * saturate or lose the smaller digits; printf's %e/%f/%g round the exact
 * decimal value half to even (C rounds the nearest binary double), and
 * the transcendental functions (exp, log, sin, cos, atan2) and sqrt are
 * right to nine places.
 */
#ifndef KERNEL_CMDS_AWK_AWK_H
#define KERNEL_CMDS_AWK_AWK_H

#include <kernel/types.h>
#include <kernel/shell/sh_buf.h>
#include <kernel/shell/sh_io.h>

struct regex;
struct sh_arena;

/*
 * A number in units of 10^-9. Aligned to 8 only: nodes come from the
 * shell's arena and values from kmalloc, neither promising 16.
 */
typedef __int128 awk_num __attribute__((aligned(8)));
#define AWK_ONE		((awk_num)1000000000)
#define AWK_FRAC_DIGITS	9
#define AWK_NUM_MAX	((awk_num)(((unsigned __int128)1 << 127) - 1))

/* A refcounted string, NUL-terminated (awk data may hold NULs: len counts). */
struct awk_str {
	unsigned int ref;
	size_t len;
	char s[];
};

enum awk_type {
	T_UNINIT,	/* never assigned: "" and 0, compares as a strnum */
	T_NUM,		/* num */
	T_STR,		/* str */
	T_STRNUM,	/* input that looks numeric: str, with num its value */
};

/* A value; owns a reference to str when it has one. */
struct awk_val {
	enum awk_type type;
	awk_num num;
	struct awk_str *str;
};

/* An associative array element; elements also form a list in insertion order. */
struct awk_elem {
	struct awk_elem *hnext;		/* hash chain */
	struct awk_elem *prev, *next;	/* insertion order (for-in) */
	struct awk_str *key;
	u32 hash;
	struct awk_val val;
};

/* An array; shared by reference with the functions it is passed to. */
struct awk_array {
	unsigned int ref;
	size_t count, nbuckets;
	struct awk_elem **buckets;
	struct awk_elem *first, *last;
};

/* A variable: a scalar, or an array once arr is set. */
struct awk_cell {
	struct awk_val val;
	struct awk_array *arr;
};

/* Special variables: the first global slots. */
enum {
	V_NF, V_NR, V_FNR, V_FS, V_OFS, V_ORS, V_RS, V_FILENAME, V_SUBSEP,
	V_RSTART, V_RLENGTH, V_CONVFMT, V_OFMT, V_ENVIRON, V_ARGC, V_ARGV,
	V_NSPECIAL
};

/* Built-in functions. */
enum awk_builtin {
	B_LENGTH, B_SUBSTR, B_INDEX, B_SPLIT, B_SUB, B_GSUB, B_MATCH, B_SPRINTF,
	B_TOLOWER, B_TOUPPER, B_INT, B_SQRT, B_EXP, B_LOG, B_SIN, B_COS, B_ATAN2,
	B_RAND, B_SRAND, B_SYSTEM, B_CLOSE,
	B_FFLUSH,
};

enum awk_kind {
	/* expressions */
	N_NUM, N_STR, N_REGEX, N_VAR, N_LOCAL, N_FIELD, N_INDEX, N_GROUP,
	N_ASSIGN, N_COND, N_OR, N_AND, N_NOT, N_IN, N_MATCH, N_ARITH, N_BINARY, N_CMP,
	N_CONCAT, N_NEG, N_PLUS, N_INCDEC, N_CALL, N_BUILTIN, N_GETLINE,
	/* statements */
	S_EXPR, S_PRINT, S_PRINTF, S_IF, S_WHILE, S_DO, S_FOR, S_FORIN, S_BLOCK,
	S_NEXT, S_NEXTFILE, S_EXIT, S_RETURN, S_BREAK, S_CONTINUE, S_DELETE,
};

/* Comparison operators (N_CMP op). */
enum { CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE };

/* Redirections of print and getline (node op). */
enum { R_NONE, R_FILE, R_APPEND, R_PIPE };

/*
 * A node of the syntax tree, in the program's arena. Lists (arguments,
 * statements, subscripts) chain through next.
 *	N_NUM num; N_STR str; N_REGEX re, str (its text)
 *	N_VAR/N_LOCAL slot; N_FIELD a; N_INDEX a (the array: N_VAR/N_LOCAL), b (subscripts)
 *	N_GROUP a (a parenthesised list, for `(i, j) in a`)
 *	N_ASSIGN op ('=' or the operator of +=...), a (lvalue), b
 *	N_COND a ? b : c; N_OR/N_AND/N_CMP op, a, b; N_NOT/N_NEG/N_PLUS a
 *	N_ARITH a, then b: steps (op + - * / %, a the operand) of one precedence, left
 *		to right; c the last step, flag set for + and -
 *	N_BINARY a ^ b (op '^')
 *	N_IN a (subscripts), b (array); N_MATCH op ('~' or '!'), a, b
 *	N_CONCAT a (the list); N_INCDEC op ('+'/'-'), flag (prefix), a
 *	N_CALL fn, a (arguments); N_BUILTIN op (enum awk_builtin), a
 *	N_GETLINE op (R_NONE, R_FILE: `< b`, R_PIPE: `b |`), a (lvalue or NULL), b
 *	S_EXPR a; S_PRINT/S_PRINTF a (arguments), op (R_*), b (destination)
 *	S_IF a, b, c; S_WHILE/S_DO a (condition), b; S_FOR a; b; c) d
 *	S_FORIN a (variable), b (array), c (body); S_BLOCK a
 *	S_EXIT/S_RETURN a (or NULL); S_DELETE a (array), b (subscripts or NULL)
 */
struct awk_node {
	enum awk_kind kind;
	int op;
	bool flag;
	int line;
	int slot;
	struct awk_node *a, *b, *c, *d, *next;
	struct awk_func *fn;
	struct awk_str *str;
	struct regex *re;
	awk_num num;
};

/* A user function; array_params bit i: parameter i is used as an array. */
struct awk_func {
	char *name;
	int nparams;
	u64 array_params;
	bool defined;
	int line, col;		/* of its first use, for "undefined" */
	struct awk_node *body;
};

enum { RULE_BEGIN, RULE_MAIN, RULE_END };

/* pattern[, pattern2] { action }: no action prints $0. */
struct awk_rule {
	struct awk_rule *next;
	int kind;
	struct awk_node *pattern, *pattern2;
	struct awk_node *action;
	bool in_range;
};

/* A compiled program; everything lives until awk_prog_free. */
struct awk_prog {
	struct sh_arena *arena;
	struct awk_rule *rules, **tail;
	char **globals;		/* names of the global slots */
	int nglobals, globals_cap;
	struct awk_func **funcs;
	int nfuncs, funcs_cap;
	/* Owned by the program: freed with it. */
	struct awk_str **strs;
	int nstrs, strs_cap;
	struct regex **res;
	int nres, res_cap;
	bool has_main;		/* main or END rules: input is read */
};

/* Compile text; on failure print "awk: line L, column C: ..." and return NULL. */
struct awk_prog *awk_compile(const char *text);
void awk_prog_free(struct awk_prog *p);

/* A buffered record reader over one fd. */
struct awk_reader {
	int fd;
	bool eof;
	char *buf;
	size_t start, end, cap;
};

/* An open output or getline source, by the name the program used. */
struct awk_stream {
	struct awk_stream *next;
	struct awk_str *name;
	int kind;		/* R_FILE/R_APPEND/R_PIPE out, or S_IN_FILE/S_IN_PIPE */
	pid_t pid;		/* pipes: the sh running the command */
	struct sh_out out;
	struct awk_reader in;
};
enum { S_IN_FILE = 10, S_IN_PIPE };

/* How a statement ended, and why evaluation unwinds. */
enum { X_NORMAL, X_BREAK, X_CONTINUE, X_NEXT, X_NEXTFILE, X_RETURN, X_EXIT, X_ERROR };

#define AWK_REGEX_CACHE	16

/*
 * Stack the kernel needs below the deepest evaluation or parse (regex, I/O
 * into tracefs, interrupts): deeper nesting is an error, not an overflow.
 */
#define AWK_STACK_RESERVE	5120

/* The interpreter. */
struct awk {
	struct awk_prog *prog;
	struct awk_cell *globals;
	struct awk_cell *frame;		/* the running function's parameters and locals */
	int depth;			/* function calls */
	int line;			/* of the statement running, for errors */
	int unwind;			/* X_*: set, evaluation stops and statements return it */
	int status;			/* exit status */
	struct awk_val retval;		/* of the function returning */
	char **envp;
	/* $0 and its fields: fields[1..nf] once split, with the FS of the record. */
	struct awk_str *record;
	struct awk_val *fields;
	long nf, fields_cap;
	bool split;
	struct awk_str *split_fs;
	/* Main input: ARGV[argi] next. */
	struct awk_reader main_in;
	bool main_open, main_used;
	long argi;
	struct awk_stream *streams;
	struct sh_out out;		/* stdout */
	/* Dynamic regexes, by text. */
	struct {
		struct awk_str *text;
		struct regex *re;
	} recache[AWK_REGEX_CACHE];
	int recache_next;
	u64 rand_state;
	awk_num rand_seed;
};

/* awk_lex.c: a string literal's escapes (\n, \t, \", \\, \/, octal) expanded into b. */
void awk_unescape(struct sh_buf *b, const char *s, size_t len);

/* awk_num.c */
/* The longest number at the start of s (after blanks); returns the bytes used, 0 if none. */
size_t awk_num_scan(const char *s, size_t len, awk_num *v);
/* Is all of s (blanks around allowed) a number? */
bool awk_num_looks(const char *s, size_t len, awk_num *v);
awk_num awk_num_add(awk_num a, awk_num b);
awk_num awk_num_mul(awk_num a, awk_num b);
/* b != 0 */
awk_num awk_num_div(awk_num a, awk_num b);
awk_num awk_num_pow(awk_num a, awk_num b);
awk_num awk_num_sqrt(awk_num a);
awk_num awk_num_from_int(long long i);
/* awk_math.c: the transcendental functions, to nine places; log of x <= 0 is 0. */
awk_num awk_num_exp(awk_num x);
awk_num awk_num_log(awk_num x);
awk_num awk_num_sin(awk_num x);
awk_num awk_num_cos(awk_num x);
awk_num awk_num_atan2(awk_num y, awk_num x);
/* The integer part, clamped to 64 bits. */
long long awk_num_to_int(awk_num v);

/* A printf conversion: flags, width, precision (-1: none), conversion letter. */
struct awk_spec {
	bool minus, plus, space, alt, zero;
	long width, prec;
	char conv;
};
/* Conversions d i o x X u e E f F g G c of a number into b. */
void awk_fmt_num(struct sh_buf *b, const struct awk_spec *sp, awk_num v);
/* %s (and %c of a string) of s into b. */
void awk_fmt_str(struct sh_buf *b, const struct awk_spec *sp, const char *s, size_t len);
/*
 * Parse "[flags][width][.prec]C" at f (just past the %); a `*` width or
 * precision comes from star(ctx) (none without star). Returns the bytes
 * used, 0 if this is no conversion.
 */
size_t awk_spec_parse(const char *f, struct awk_spec *sp, long (*star)(void *ctx), void *ctx);

/* awk_value.c */
extern struct awk_str awk_empty;
struct awk_str *str_new(struct awk *a, size_t len);
struct awk_str *str_make(struct awk *a, const char *s, size_t len);
static inline struct awk_str *str_get(struct awk_str *s) { s->ref++; return s; }
void str_put(struct awk_str *s);
void val_free(struct awk_val *v);
void val_copy(struct awk_val *dst, const struct awk_val *src);
static inline void val_num(struct awk_val *v, awk_num n) { *v = (struct awk_val){ .type = T_NUM, .num = n }; }
/* Takes the reference to s. */
static inline void val_str(struct awk_val *v, struct awk_str *s) { *v = (struct awk_val){ .type = T_STR, .str = s }; }
/* s from input: a strnum if it looks numeric. Takes the reference. */
void val_input(struct awk_val *v, struct awk_str *s);
awk_num val_tonum(const struct awk_val *v);
/* A new reference to v as a string (CONVFMT, or OFMT for output). */
struct awk_str *val_tostr(struct awk *a, const struct awk_val *v, bool output);
bool val_true(const struct awk_val *v);
int val_compare(struct awk *a, const struct awk_val *x, const struct awk_val *y);
/* A number's text: integers as such, others through fmt. */
void awk_num_text(struct awk *a, struct sh_buf *b, awk_num n, const struct awk_str *fmt);

struct awk_array *arr_new(struct awk *a);
void arr_put(struct awk_array *arr);
/* The element for key, created (uninitialised) if create; NULL if absent or out of memory. */
struct awk_val *arr_lookup(struct awk *a, struct awk_array *arr, struct awk_str *key, bool create);
void arr_delete(struct awk_array *arr, struct awk_str *key);
void arr_clear(struct awk_array *arr);

/* awk_eval.c */
void awk_eval(struct awk *a, struct awk_node *n, struct awk_val *out);
/* n evaluated and converted (CONVFMT for a string). */
struct awk_str *awk_eval_str(struct awk *a, struct awk_node *n);
awk_num awk_eval_num(struct awk *a, struct awk_node *n);
bool awk_eval_bool(struct awk *a, struct awk_node *n);
/* The array a node names (N_VAR/N_LOCAL), created if the variable is unset. */
struct awk_array *awk_array_of(struct awk *a, struct awk_node *n);
/* Assign v (taken) to the lvalue n. */
void awk_assign(struct awk *a, struct awk_node *n, struct awk_val *v);
/* The subscript list n joined with SUBSEP. */
struct awk_str *awk_subscript(struct awk *a, struct awk_node *n);
void awk_error(struct awk *a, const char *fmt, ...) __printf(2, 3);
struct awk_cell *awk_cell(struct awk *a, struct awk_node *n);
/* Run function f with the call's arguments; the result into out. */
void awk_call(struct awk *a, struct awk_node *call, struct awk_val *out);

/* awk_exec.c */
int awk_exec(struct awk *a, struct awk_node *s);
int awk_run(struct awk *a);
/* Set special variable slot to a number or a string (taken). */
void awk_set_num(struct awk *a, int slot, awk_num n);
void awk_set_str(struct awk *a, int slot, struct awk_str *s);

/* awk_builtin.c */
void awk_builtin(struct awk *a, struct awk_node *n, struct awk_val *out);
/* printf's format with arguments args (a node list) into b. */
void awk_format(struct awk *a, struct sh_buf *b, const char *fmt, size_t len, struct awk_node *args);

/* awk_field.c */
/* Make s (taken) the record $0. */
void rec_set(struct awk *a, struct awk_str *s);
void fields_split(struct awk *a);
void field_get(struct awk *a, long i, struct awk_val *out);
void field_set(struct awk *a, long i, struct awk_val *v);
void nf_set(struct awk *a, long nf);
/* Call fn for each piece of s split by fs (a separator value; re if a regex literal). */
typedef void (*awk_split_fn)(struct awk *a, void *ctx, const char *s, size_t len);
long awk_split(struct awk *a, const char *s, size_t len, const struct awk_str *fs,
	       struct regex *re, awk_split_fn fn, void *ctx);
/* The compiled regex of text, cached; NULL after an error. */
struct regex *awk_regex(struct awk *a, const struct awk_str *text);
/* Leftmost-longest match of re in s from from: start and end. */
bool awk_match(struct regex *re, const char *s, size_t len, size_t from, size_t *start, size_t *end);
void fields_free(struct awk *a);

/* awk_io.c */
/* The next main-input record (ARGV files, stdin): 1, 0 at the end, -1 on error. */
int awk_main_record(struct awk *a, struct awk_str **rec);
void awk_main_skip_file(struct awk *a);
/* A NAME=value operand or -v option: the variable set to value as input (a strnum if numeric). */
void awk_assign_operand(struct awk *a, const char *arg);
/* getline node n; the result (1, 0, -1) into out. */
void awk_getline(struct awk *a, struct awk_node *n, struct awk_val *out);
/* The output for a print's redirection (or stdout), NULL on error. */
struct sh_out *awk_output(struct awk *a, int kind, struct awk_str *name);
int awk_close(struct awk *a, struct awk_str *name);
void awk_flush_all(struct awk *a);
void awk_streams_free(struct awk *a);
int awk_system(struct awk *a, struct awk_str *cmd);

#endif
