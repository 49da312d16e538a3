/*
 * The shell: a Bourne-shell subset for driving tracefs from the console
 * and from scripts. Pure: it reaches the system only through sh_os.
 *
 * Flow: sh_parse.c turns text into a tree of sh_node (one complete command
 * at a time, allocated from a refcounted sh_arena); sh_exec.c walks it,
 * expanding words with sh_expand.c and running builtins (sh_builtin.c) in
 * the shell itself and every other command (cmds/) in a new task.
 */
#ifndef KERNEL_SHELL_SH_H
#define KERNEL_SHELL_SH_H

#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_buf.h>
#include <kernel/shell/sh_table.h>
#include <kernel/cmds/cmds.h>

/*
 * Compound commands nested deeper than this are a syntax error; function
 * calls, `.` and `eval` nested deeper fail. Both bound the recursion on a
 * 16 KiB kernel stack.
 */
#define SH_MAX_NESTING	32
#define SH_MAX_CALL_DEPTH 16
/*
 * What a command needs below the deepest sh_exec (expansion, a command's
 * main, an interrupt): deeper nesting fails with "nesting too deep".
 */
#define SH_STACK_RESERVE 6144

/* Memory for one parsed complete command; functions defined in it hold a reference. */
struct sh_arena {
	atomic_t ref;
	struct sh_arena_chunk *chunks;
};

struct sh_arena *sh_arena_new(void);
void *sh_arena_alloc(struct sh_arena *a, size_t size);
char *sh_arena_strdup(struct sh_arena *a, const char *s, size_t len);
void sh_arena_get(struct sh_arena *a);
void sh_arena_put(struct sh_arena *a);

enum sh_redir_op {
	SH_R_IN,	/* <  */
	SH_R_OUT,	/* >  and >| */
	SH_R_APPEND,	/* >> */
	SH_R_RDWR,	/* <> */
	SH_R_DUPIN,	/* <& */
	SH_R_DUPOUT,	/* >& */
	SH_R_HEREDOC,	/* << and <<-: word is the body */
};

/* One redirection; word is raw text, expanded when the command runs. */
struct sh_redir {
	struct sh_redir *next;
	enum sh_redir_op op;
	int fd;
	bool quoted;		/* heredoc: delimiter was quoted, no expansion */
	bool strip_tabs;	/* heredoc: <<- */
	struct sh_redir *next_heredoc;	/* parser: bodies still to read */
	char *word;
};

enum sh_node_type {
	SH_N_SIMPLE,
	SH_N_PIPE,
	SH_N_AND,
	SH_N_OR,
	SH_N_NOT,
	SH_N_LIST,
	SH_N_SUBSHELL,
	SH_N_GROUP,
	SH_N_IF,
	SH_N_WHILE,
	SH_N_UNTIL,
	SH_N_FOR,
	SH_N_CASE,
	SH_N_FUNC,
};

/* One `pattern|pattern) body ;;` of a case. */
struct sh_case_item {
	struct sh_case_item *next;
	int npats;
	char **pats;
	struct sh_node *body;	/* NULL: empty */
};

struct sh;
typedef int (*sh_builtin_fn)(struct sh *sh, int argc, char **argv);

/*
 * What a simple command's literal first word names among the builtins and
 * the commands: static tables, so exec_simple looks it up on the first run
 * only (functions, PATH programs and computed names are looked up every
 * time). Tasks running one tree may race to fill it, with equal values.
 */
struct sh_resolved {
	bool cached;		/* set last, with release */
	bool in_shell;		/* ext runs in the shell (echo, test, ...) */
	sh_builtin_fn builtin;
	sh_main_fn ext;
};

/*
 * A node of the syntax tree. Words are kept as raw source text (quotes and
 * all) because expansion depends on the state when the command runs.
 */
struct sh_node {
	enum sh_node_type type;
	int lineno;
	struct sh_redir *redirs;
	union {
		struct {
			int nwords, nassigns;
			char **words;
			char **assigns;		/* NAME=value, raw */
			struct sh_resolved resolved;
		} simple;
		struct {
			int n;
			struct sh_node **cmds;
		} pipe;
		struct {
			struct sh_node *left, *right;
		} bin;				/* AND, OR */
		struct {
			struct sh_node *body;
		} one;				/* NOT, SUBSHELL, GROUP */
		struct {
			int n;
			struct sh_node **items;
			bool *background;
		} list;
		struct {
			struct sh_node *cond, *then, *els;	/* elif: an IF in els */
		} ifn;
		struct {
			struct sh_node *cond, *body;
		} loop;				/* WHILE, UNTIL */
		struct {
			char *var;
			bool has_in;
			int nwords;
			char **words;
			struct sh_node *body;
		} forn;
		struct {
			char *word;
			struct sh_case_item *items;
		} casen;
		struct {
			char *name;
			struct sh_node *body;
		} func;
	};
};

/* Parser state for one source text. */
struct sh_parser {
	const char *src;
	size_t len, pos;
	int lineno;
	struct sh_arena *arena;
	int depth;
	/* One token of lookahead. */
	bool have_tok;
	struct sh_token {
		int type;
		int io_number;	/* -1, or N of N>word */
		int lineno;
		char *text;	/* words, in the arena */
		bool quoted;	/* a word with quoting in it */
	} tok;
	struct sh_redir *heredocs;	/* bodies still to be read after a newline */
	/* Error: the message (no "sh: " prefix) and whether more input could fix it. */
	char err[96];
	int err_line;
	bool incomplete;
};

enum {
	SH_PARSE_ERROR = -1,
	SH_PARSE_EOF = 0,
	SH_PARSE_OK = 1,
};

void sh_parser_init(struct sh_parser *p, const char *src, size_t len);
/*
 * Parse the next complete command. SH_PARSE_OK: *out is the tree in
 * *arena (one reference, the caller's); SH_PARSE_EOF: nothing left;
 * SH_PARSE_ERROR: p->err says why, p->incomplete if the text merely stopped.
 */
int sh_parse_next(struct sh_parser *p, struct sh_node **out, struct sh_arena **arena);
bool sh_is_name(const char *s, size_t len);

/* Shell variables: found by name in sh->var_table, listed newest first from sh->vars. */
struct sh_var {
	struct sh_name hn;	/* hn.name: the name */
	struct sh_var *next, **pprev;
	char *value;
	bool exported;
	bool readonly;		/* `readonly`: assignments and unset fail */
};

/* A saved variable to restore when the function that made it `local` returns. */
struct sh_local {
	struct sh_local *next;
	char *name;
	char *value;		/* NULL: was unset */
	bool exported;
};

/* Functions: found by name in sh->func_table, listed from sh->funcs. */
struct sh_func {
	struct sh_name hn;	/* hn.name: the name */
	struct sh_func *next;
	struct sh_node *body;
	struct sh_arena *arena;
};

/* How control leaves the command being run. */
enum sh_flow {
	SH_FLOW_NONE,
	SH_FLOW_BREAK,
	SH_FLOW_CONTINUE,
	SH_FLOW_RETURN,
	SH_FLOW_EXIT,
};

/* Background jobs not yet waited for. */
#define SH_MAX_JOBS	32

/*
 * A background job: job specs name it (%1 by id, %% or %+ the newest,
 * %- the one before). Ids count up from 1 again once no job is left.
 */
struct sh_job {
	pid_t pid;
	int id;
};

/* Trap slots: 0 is EXIT, 1..64 Linux's signal numbers. */
#define SH_NSIG		65

/* The state of one shell (a subshell gets a deep copy). */
struct sh {
	struct sh_var *vars;
	struct sh_table var_table;
	struct sh_func *funcs;
	struct sh_table func_table;
	struct sh_local *locals;	/* of the innermost function call */
	char *arg0;			/* $0 */
	int argc;			/* $# */
	char **argv;			/* $1 .. */
	int status;			/* $? */
	int subst_count;		/* command substitutions run, for the status of `x=$(...)` */
	pid_t pid;			/* $$: the pid of the shell a subshell was copied from */
	pid_t last_bg;			/* $! */
	struct sh_job jobs[SH_MAX_JOBS];	/* in the order started */
	int njobs;
	bool opt_errexit;		/* set -e */
	bool opt_xtrace;		/* set -x */
	bool opt_noglob;		/* set -f */
	bool opt_nounset;		/* set -u */
	bool interactive;
	int cond;			/* > 0: in a condition, set -e is off */
	enum sh_flow flow;
	int flow_count;			/* break N, continue N */
	bool interrupted;		/* killed by a signal (Ctrl-C): unwind like exit, status 128 + N */
	char *traps[SH_NSIG];		/* trap actions; NULL: default, "": ignored */
	u64 pending_signals;		/* taken from the task, not yet acted on (bit N-1: signal N) */
	int in_trap;			/* > 0 while a trap action runs */
	struct sh_arena *arena;		/* of the tree being run, for function definitions */
	int loop_depth;
	int call_depth;
	const char *source_name;	/* script for messages, NULL if interactive */
};

/* Whole-shell life cycle (sh_main.c). */
struct sh *sh_new(const char *arg0, int argc, char **argv);
struct sh *sh_clone(const struct sh *sh);
void sh_free(struct sh *sh);
/* Run all of the text; returns the status. */
int sh_run_string(struct sh *sh, const char *src, size_t len);
/* Run a script file in this shell (`.`) or report why not. */
int sh_run_file(struct sh *sh, const char *path);
/*
 * A `spoor exec` script (kernel/shell/init.c): sh PATH in a new shell
 * whose $0 and messages say `name` (the script's name on the host). The
 * whole file is parsed first: a syntax error anywhere runs none of it and
 * gives SH_EXEC_SYNTAX, so a runner tells it from the script's own exit 2.
 */
#define SH_EXEC_SYNTAX	126
int sh_exec_script(const char *path, const char *name);
/* The `sh` command: `sh FILE ARGS`, `sh -c STRING ARGS`, or interactive. */
int sh_main(int argc, char **argv);
/* The interactive loop on the console. */
int sh_interactive(struct sh *sh);

/* Variables (sh_var.c). */
const char *sh_getvar(struct sh *sh, const char *name);
int sh_setvar(struct sh *sh, const char *name, const char *value, bool export);
int sh_unsetvar(struct sh *sh, const char *name);
int sh_local(struct sh *sh, const char *name);
void sh_pop_locals(struct sh *sh, struct sh_local *until);
/* All of src's variables (and functions) into dst, which has none; out of memory: a partial copy. */
void sh_copy_vars(struct sh *dst, const struct sh *src);
void sh_free_vars(struct sh *sh);
/* Positional parameters: replaces $1..; copies argv. */
int sh_set_params(struct sh *sh, int argc, char **argv);
void sh_free_params(int argc, char **argv);

/* Functions. */
struct sh_func *sh_find_func(struct sh *sh, const char *name);
int sh_define_func(struct sh *sh, const char *name, struct sh_node *body, struct sh_arena *a);
void sh_unset_func(struct sh *sh, const char *name);
void sh_copy_funcs(struct sh *dst, const struct sh *src);
void sh_free_funcs(struct sh *sh);

/* A growable NULL-terminated argv. */
struct sh_argv {
	int argc, cap;
	char **argv;
	bool oom;
};
void sh_argv_push(struct sh_argv *a, char *s);		/* takes s */
void sh_argv_free(struct sh_argv *a);

/* Expansion (sh_expand.c); these print errors and return -1 / NULL. */
int sh_expand_words(struct sh *sh, char **words, int n, struct sh_argv *out);
char *sh_expand_word(struct sh *sh, const char *word);		/* no splitting, no glob */
/* Does word expand to itself, as one field? */
bool sh_word_is_literal(const char *word);
char *sh_expand_pattern(struct sh *sh, const char *word);	/* glob chars from quotes escaped */
char *sh_expand_heredoc(struct sh *sh, const char *body);
/* Run text as a command substitution; returns its output or NULL. */
char *sh_command_subst(struct sh *sh, const char *text, size_t len);

/* Arithmetic $((...)) (sh_arith.c): 0, or -1 with msg set. */
int sh_arith(struct sh *sh, const char *expr, long long *result, char *msg, size_t msgsize);

/* Pattern matching (sh_match.c): fnmatch with backslash escapes, no FNM_PATHNAME. */
bool sh_match(const char *pat, const char *s);
bool sh_has_glob(const char *pat);
/* Glob one pattern against the file system; appends sorted matches, returns their count. */
int sh_glob(const char *pat, struct sh_argv *out);

/* Execution (sh_exec.c). */
int sh_exec(struct sh *sh, struct sh_node *n);
/* Print "sh: MESSAGE" to stderr. */
void sh_error(struct sh *sh, const char *fmt, ...) __printf(2, 3);

/* Signals and traps (sh_trap.c). */
/* A signal's number from "INT", "SIGINT" or "2" (0 is EXIT); -EINVAL if unknown. */
int sh_signal_number(const char *s);
/* "INT" for 2, "EXIT" for 0; NULL for numbers without a name. */
const char *sh_signal_name(int sig);
/*
 * Act on the signals the task received: run trapped ones' actions, drop
 * ignored ones, and for the others mark the shell killed. Returns
 * sh->interrupted.
 */
bool sh_take_signals(struct sh *sh);
/* Run the EXIT trap, once, as the shell ends. */
void sh_run_exit_trap(struct sh *sh);
void sh_copy_traps(struct sh *dst, const struct sh *src);
void sh_free_traps(struct sh *sh);
int sh_builtin_trap(struct sh *sh, int argc, char **argv);

/* Builtins (sh_builtin.c): run in the shell itself. */
sh_builtin_fn sh_find_builtin(const char *name);
/* Special builtins: their assignments stay, their errors are fatal. */
bool sh_is_special_builtin(const char *name);

/* Byte classes; <ctype.h> is not in the kernel. */
static inline bool sh_isdigit(int c) { return c >= '0' && c <= '9'; }
static inline bool sh_isalpha(int c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }
static inline bool sh_isalnum(int c) { return sh_isdigit(c) || sh_isalpha(c); }
static inline bool sh_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline bool sh_isname1(int c) { return sh_isalpha(c) || c == '_'; }
static inline bool sh_isname(int c) { return sh_isalnum(c) || c == '_'; }

#endif
