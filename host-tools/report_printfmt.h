/*
 * Inside the print fmt compiler and renderer (report.h has its interface):
 *   report_printfmt.c         the format string, pf_compile and pf_free
 *   report_printfmt_lex.c     tokens of the text after the format string
 *   report_printfmt_expr.c    the arguments: C expressions -> trees
 *   report_printfmt_eval.c    a tree's value for one record
 *   report_printfmt_render.c  directives printed as printf and trace-cmd do
 */
#ifndef HOST_TOOLS_REPORT_PRINTFMT_H
#define HOST_TOOLS_REPORT_PRINTFMT_H

#include "host-tools/report.h"

/* ---- tokens ------------------------------------------------------------------------ */

enum tok_kind { T_END, T_NUM, T_STR, T_IDENT, T_PUNCT, T_BAD };

struct pf_tok {
	enum tok_kind kind;
	const char *p;		/* start in the text */
	size_t len;
	uint64_t num;
	char punct[3];		/* operator text */
};

/* Where the compiler is in a print fmt, and its first error. */
struct pf_parser {
	struct rep_event *ev;
	const char *text, *pos, *end;
	struct pf_tok tok;	/* the current token */
	const char *err;	/* static message; the first one is kept */
	size_t err_pos;		/* its offset in text */
	int depth;		/* expression nesting, bounded */
	/*
	 * The print fmt has what trace-cmd cannot print either (a function it
	 * does not know, a GNU statement expression, an empty symbol table):
	 * it compiles, and its records print as trace-cmd prints them,
	 * "[FAILED TO PARSE]" and the fields.
	 */
	bool tracecmd_fails;
	bool plugin_fn;		/* calls a function only trace-cmd's plugins give (not with -N) */
};

void pf_fail(struct pf_parser *ps, const char *msg);
/* Move to the next token. */
void pf_next(struct pf_parser *ps);
bool pf_is_punct(const struct pf_parser *ps, const char *s);
bool pf_is_ident(const struct pf_parser *ps, const char *s);
/* Move past operator s if it is the current token; pf_expect fails when it is not. */
bool pf_accept(struct pf_parser *ps, const char *s);
void pf_expect(struct pf_parser *ps, const char *s);
/* A string literal and the ones right after it ("a" "b"), decoded; the parser moves past them. */
char *pf_string_literal(struct pf_parser *ps, size_t *len);

/* ---- expression trees -------------------------------------------------------------- */

enum node_op {
	N_NUM, N_STR, N_FIELD, N_INDEX, N_UNARY, N_BINARY, N_COND, N_CAST,
	N_GET_STR, N_DYN_ARRAY, N_DYN_LEN, N_FLAGS, N_SYMBOLIC, N_HEX, N_HEX_STR, N_ARRAY,
	N_BITMASK,
	N_FIRST_ARG,	/* a call whose value is its first argument: __builtin_expect, jiffies_to_msecs */
};

/* One entry of a __print_flags/__print_symbolic table, folded to a number. */
struct pf_sym {
	uint64_t value;
	char *name;
};

struct pf_node {
	enum node_op op;
	char opch[3];		/* N_UNARY/N_BINARY operator */
	uint64_t num;
	char *str;		/* N_STR text, N_FLAGS delimiter, N_NUM: the kernel name it stands for */
	size_t slen;
	const struct rep_field *field;
	/* N_CAST: bytes kept (0: all) and sign; pointer casts scale nothing */
	unsigned int cast_size;
	bool cast_signed;
	struct pf_node *a, *b, *c;
	struct pf_sym *syms;
	unsigned int nr_syms;
};

/* One argument of the print fmt, from the current token on; errors go to ps. */
struct pf_node *pf_parse_expr(struct pf_parser *ps);
void pf_free_node(struct pf_node *n);

/* ---- values ------------------------------------------------------------------------ */

enum val_kind { V_NUM, V_STR };

struct pf_val {
	enum val_kind kind;
	uint64_t n;		/* V_NUM; V_STR in scratch: its offset there */
	const char *s;		/* V_STR: not NUL-terminated; NULL: in the scratch buffer */
	size_t len;
};

/* What one evaluation works on. */
struct pf_eval {
	struct rep_ctx *ctx;
	const struct rep_record *r;	/* NULL while folding constants */
	bool ok;
	struct obuf *tmp;		/* where __print_flags and friends build text */
};

static inline struct pf_val pf_num(uint64_t n)
{
	return (struct pf_val){ V_NUM, n, NULL, 0 };
}

struct pf_val pf_eval(struct pf_eval *e, const struct pf_node *n);
/* A number: text counts as 1 (true), as a non-NULL pointer would. */
uint64_t pf_as_num(struct pf_eval *e, const struct pf_node *n);
/* Where a text value's bytes are now. */
const char *pf_text_of(const struct pf_eval *e, const struct pf_val *v);
/* v as C converts it to an integer of size bytes (1 2 4; else kept) and sign. */
uint64_t pf_cast(uint64_t v, unsigned int size, bool sign);
/* The value of a tree that needs no record (flag tables); *ok false if it has none. */
uint64_t pf_fold(const struct pf_node *n, bool *ok);

/* ---- the compiled program ------------------------------------------------------------ */

/* One printf directive and the literal text before it. */
struct pf_spec {
	const char *lit;	/* into the program's copy of the format */
	size_t lit_len;
	char conv;		/* d i u x X o c s p %; 0: trailing literal only */
	char flags[6];
	int width, prec;	/* -1: none; -2: '*' (from an argument) */
	int length;		/* bytes the integer is taken as: 1 2 4 8 */
	char pext;		/* %p extension letter (S s F f x K ...), 0 for plain %p */
	char ext[4];		/* the letters after it (I6c: "6c") */
	unsigned int arg;	/* index of its value argument */
	bool left;		/* '-' among the flags */
	bool bare;		/* %d %i %u %x (any length), no flags, width or precision */
};

struct pf_prog {
	bool tracecmd_fails, plugin_fn;	/* from the parser: see struct pf_parser */
	char *fmt;		/* the format string, decoded */
	struct pf_spec *specs;
	unsigned int nr_specs;
	struct pf_node **args;
	unsigned int nr_args;
};

#endif
