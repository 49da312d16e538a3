/*
 * What awk's lexer (awk_lex.c), statement parser (awk_parse.c) and
 * expression parser (awk_expr.c) share.
 */
#ifndef KERNEL_CMDS_AWK_AWK_PARSE_H
#define KERNEL_CMDS_AWK_AWK_PARSE_H

#include <kernel/cmds/awk/awk.h>

/* Tokens: a punctuation character stands for itself; the rest follow. */
enum awk_tok {
	TK_EOF = 256, TK_NEWLINE, TK_NUMBER, TK_STRING, TK_ERE, TK_NAME,
	TK_FUNC_NAME,		/* a name directly followed by '(' */
	TK_BUILTIN,		/* p->builtin says which */
	TK_BEGIN, TK_END, TK_FUNCTION, TK_IF, TK_ELSE, TK_WHILE, TK_FOR, TK_DO,
	TK_BREAK, TK_CONTINUE, TK_NEXT, TK_NEXTFILE, TK_EXIT, TK_RETURN, TK_DELETE,
	TK_GETLINE, TK_PRINT, TK_PRINTF, TK_IN,
	TK_ADD_ASSIGN, TK_SUB_ASSIGN, TK_MUL_ASSIGN, TK_DIV_ASSIGN, TK_MOD_ASSIGN,
	TK_POW_ASSIGN, TK_OR, TK_AND, TK_NOMATCH, TK_EQ, TK_LE, TK_GE, TK_NE,
	TK_INCR, TK_DECR, TK_APPEND,
};

/* The parser's state; the lexer's current token is tok. */
struct awk_parser {
	const char *src, *p;		/* the program, the next byte to lex */
	int line, col;			/* of p */
	int tok, tline, tcol;		/* the current token and where it starts */
	struct sh_buf text;		/* TK_NAME/TK_FUNC_NAME/TK_STRING/TK_ERE */
	awk_num num;			/* TK_NUMBER */
	int builtin;			/* TK_BUILTIN */
	int prev;			/* the token before: is '/' a regex or division? */
	bool failed;
	struct awk_prog *prog;
	struct awk_func *func;		/* being defined, NULL outside functions */
	char **params;			/* its parameter names */
	int rule_kind;			/* RULE_* of the action being parsed */
	int loops;			/* enclosing loops, for break/continue */
	int depth;			/* nesting of statements and expressions */
	bool no_gt;			/* in print's list: '>' redirects */
};

/* Nesting deeper than this is a syntax error (the parser recurses). */
#define AWK_MAX_DEPTH	100

/*
 * One level deeper into statements or expressions: false, with the error
 * made, past AWK_MAX_DEPTH or when the stack runs short. The caller
 * decrements p->depth when it returns.
 */
bool parse_enter(struct awk_parser *p);

void lex_next(struct awk_parser *p);
/* Does the text after the current token start with the word `getline`? */
bool lex_getline_follows(const struct awk_parser *p);
void parse_error(struct awk_parser *p, const char *fmt, ...) __printf(2, 3);
/* The current token, for messages ("'}'", "newline", "name x"). */
const char *tok_text(struct awk_parser *p, char *buf, size_t size);
/* Is the token tok, consumed if so; else an error naming what came instead. */
bool expect(struct awk_parser *p, int tok);
void skip_newlines(struct awk_parser *p);

struct awk_node *new_node(struct awk_parser *p, enum awk_kind kind);
/* The program's own copy of s (constants, regex texts). */
struct awk_str *prog_str(struct awk_parser *p, const char *s, size_t len);
struct regex *prog_regex(struct awk_parser *p, const struct awk_str *text);
/* The node of variable name: a parameter of the function being parsed, or a global. */
struct awk_node *name_node(struct awk_parser *p, const char *name);
struct awk_func *func_ref(struct awk_parser *p, const char *name);
/* Note that node n (a variable) is used as an array. */
void mark_array(struct awk_parser *p, struct awk_node *n);

struct awk_node *parse_expr(struct awk_parser *p);
/* Comma-separated expressions up to (not including) close; newlines after commas are skipped. */
struct awk_node *parse_expr_list(struct awk_parser *p, int close);
/* A concatenation and what binds tighter: print's redirection target. */
struct awk_node *parse_concat(struct awk_parser *p);
bool is_lvalue(const struct awk_node *n);

#endif
