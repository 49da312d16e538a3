/* The shell's tokenizer, shared by the parser only. */
#ifndef KERNEL_SHELL_SH_LEX_H
#define KERNEL_SHELL_SH_LEX_H

#include <kernel/shell/sh.h>

enum sh_tok {
	T_EOF,
	T_NEWLINE,
	T_WORD,
	T_SEMI,		/* ;  */
	T_AMP,		/* &  */
	T_PIPE,		/* |  */
	T_AND_IF,	/* && */
	T_OR_IF,	/* || */
	T_DSEMI,	/* ;; */
	T_LPAREN,
	T_RPAREN,
	T_LESS,		/* <  */
	T_GREAT,	/* >  */
	T_DGREAT,	/* >> */
	T_LESSAND,	/* <& */
	T_GREATAND,	/* >& */
	T_LESSGREAT,	/* <> */
	T_CLOBBER,	/* >| */
	T_DLESS,	/* << */
	T_DLESSDASH,	/* <<- */
	T_ERROR,
};

/* Read the next token into p->tok; T_ERROR with p->err set on bad input. */
int sh_lex(struct sh_parser *p);
/* The token's text for "unexpected 'X'". */
const char *sh_tok_text(const struct sh_token *t);
/* Record a syntax error (the first one wins). */
void sh_syntax_error(struct sh_parser *p, bool incomplete, const char *fmt, ...) __printf(3, 4);

#endif
