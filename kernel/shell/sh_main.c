/*
 * A shell's life: creation, the deep copy a subshell runs, running text
 * and files, and the `sh` command.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/cmds/cmds.h>

struct sh *sh_new(const char *arg0, int argc, char **argv)
{
	struct sh *sh = kzalloc(sizeof(*sh), GFP_KERNEL);
	char cwd[256];

	if (!sh)
		return NULL;
	sh->pid = sh_os->getpid();
	sh->arg0 = kstrdup(arg0, GFP_KERNEL);
	if (!sh->arg0 || sh_set_params(sh, argc, argv)) {
		sh_free(sh);
		return NULL;
	}
	if (sh_os->getcwd(cwd, sizeof(cwd)) >= 0)
		sh_setvar(sh, "PWD", cwd, true);
	/* What init gives every process on Linux; an inherited PATH replaces it. */
	sh_setvar(sh, "PATH", "/bin:/usr/bin", true);
	return sh;
}

struct sh *sh_clone(const struct sh *src)
{
	struct sh *sh = kzalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return NULL;
	sh->arg0 = kstrdup(src->arg0, GFP_KERNEL);
	if (!sh->arg0 || sh_set_params(sh, src->argc, src->argv)) {
		sh_free(sh);
		return NULL;
	}
	sh_copy_vars(sh, src);
	sh_copy_funcs(sh, src);
	sh->status = src->status;
	sh->pid = src->pid;
	sh->last_bg = src->last_bg;
	sh->opt_errexit = src->opt_errexit;
	sh->opt_xtrace = src->opt_xtrace;
	sh->opt_noglob = src->opt_noglob;
	sh->opt_nounset = src->opt_nounset;
	sh->cond = src->cond;
	sh->source_name = src->source_name;
	sh_copy_traps(sh, src);
	return sh;
}

void sh_free(struct sh *sh)
{
	sh_pop_locals(sh, NULL);
	sh_free_traps(sh);
	sh_free_vars(sh);
	sh_free_funcs(sh);
	sh_free_params(sh->argc, sh->argv);
	kfree(sh->arg0);
	kfree(sh);
}

int sh_run_string(struct sh *sh, const char *src, size_t len)
{
	struct sh_arena *saved = sh->arena;
	struct sh_parser p;
	struct sh_node *n;
	struct sh_arena *a;
	int r = SH_PARSE_EOF;

	sh_parser_init(&p, src, len);
	while (sh->flow == SH_FLOW_NONE && (r = sh_parse_next(&p, &n, &a)) == SH_PARSE_OK) {
		sh->arena = a;
		sh_exec(sh, n);
		sh_arena_put(a);
	}
	sh->arena = saved;
	if (sh->flow == SH_FLOW_NONE && r == SH_PARSE_ERROR) {
		if (sh->source_name)
			sh_error(sh, "syntax error: %s (%s: line %d)", p.err, sh->source_name, p.err_line);
		else
			sh_error(sh, "syntax error: %s", p.err);
		sh->status = 2;
		/* A script with a syntax error ends there, as in sh. */
		if (!sh->interactive)
			sh->flow = SH_FLOW_EXIT;
	}
	return sh->status;
}

/* The text of a script file; 0, or the status sh gives when it cannot (127, 126). */
static int read_script(struct sh *sh, const char *path, struct sh_buf *text)
{
	int fd = sh_os->open(path, SH_O_RDONLY, 0), err;

	if (fd < 0) {
		sh_error(sh, "%s: %s", path, errno_text(-fd));
		return sh->status = 127;
	}
	err = sh_read_all(fd, text);
	sh_os->close(fd);
	if (err) {
		sh_buf_free(text);
		sh_error(sh, "%s: %s", path, errno_text(-err));
		return sh->status = 126;
	}
	return 0;
}

/* Run a script's text; messages name it `name`. */
static int run_source(struct sh *sh, const struct sh_buf *text, const char *name)
{
	const char *saved_name = sh->source_name;

	sh->source_name = name;
	sh_run_string(sh, text->s ? text->s : "", text->len);
	if (sh->flow == SH_FLOW_RETURN && !sh->call_depth)
		sh->flow = SH_FLOW_NONE;	/* return ends a sourced file */
	sh->source_name = saved_name;
	return sh->status;
}

int sh_run_file(struct sh *sh, const char *path)
{
	struct sh_buf text = { 0 };

	if (read_script(sh, path, &text))
		return sh->status;
	run_source(sh, &text, path);
	sh_buf_free(&text);
	return sh->status;
}

/* Does all of text parse? If not, say where (as sh_run_string would) and return false. */
static bool syntax_ok(struct sh *sh, const struct sh_buf *text, const char *name)
{
	struct sh_parser p;
	struct sh_node *n;
	struct sh_arena *a;
	int r;

	sh_parser_init(&p, text->s ? text->s : "", text->len);
	while ((r = sh_parse_next(&p, &n, &a)) == SH_PARSE_OK)
		sh_arena_put(a);
	if (r != SH_PARSE_ERROR)
		return true;
	sh_error(sh, "syntax error: %s (%s: line %d)", p.err, name, p.err_line);
	return false;
}

int sh_exec_script(const char *path, const char *name)
{
	struct sh *sh = sh_new(name, 0, NULL);
	struct sh_buf text = { 0 };
	int status;

	if (!sh) {
		sh_eprintf("sh: out of memory\n");
		return 2;
	}
	if (!read_script(sh, path, &text)) {
		if (syntax_ok(sh, &text, name))
			run_source(sh, &text, name);
		else
			sh->status = SH_EXEC_SYNTAX;
		sh_buf_free(&text);
		sh_run_exit_trap(sh);
	}
	status = sh->status;
	sh_free(sh);
	return status;
}

/* The exported variables a new shell starts with. */
static void import_env(struct sh *sh, char **envp)
{
	for (; envp && *envp; envp++) {
		char *eq = strchr(*envp, '=');
		char name[64];

		if (!eq || eq - *envp >= (long)sizeof(name) || !sh_is_name(*envp, (size_t)(eq - *envp)))
			continue;
		memcpy(name, *envp, (size_t)(eq - *envp));
		name[eq - *envp] = '\0';
		sh_setvar(sh, name, eq + 1, true);
	}
}

/* sh [-ex] [-c TEXT [ARG0 [ARG...]] | FILE [ARG...]]; without either, stdin is the script. */
int cmd_sh(int argc, char **argv, char **envp)
{
	bool errexit = false, xtrace = false;
	const char *text = NULL, *file = NULL;
	int i = 1, status;
	struct sh *sh;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			text = argv[++i];
			i++;
			break;
		}
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'e') {
				errexit = true;
			} else if (*p == 'x') {
				xtrace = true;
			} else {
				sh_eprintf("sh: -%c: invalid option\n", *p);
				return 2;
			}
		}
	}
	if (!text && i < argc)
		file = argv[i++];
	if (text && i < argc)
		sh = sh_new(argv[i], argc - i - 1, argv + i + 1);
	else
		sh = sh_new(file ? file : "sh", argc - i, argv + i);
	if (!sh) {
		sh_eprintf("sh: out of memory\n");
		return 2;
	}
	import_env(sh, envp);
	sh->opt_errexit = errexit;
	sh->opt_xtrace = xtrace;
	if (text) {
		sh->source_name = "-c";
		sh_run_string(sh, text, strlen(text));
	} else if (file) {
		sh_run_file(sh, file);
	} else {
		struct sh_buf b = { 0 };

		if (sh_read_all(0, &b) == 0) {
			sh->source_name = "stdin";
			sh_run_string(sh, b.s ? b.s : "", b.len);
		}
		sh_buf_free(&b);
	}
	sh_run_exit_trap(sh);
	status = sh->status;
	sh_free(sh);
	return status;
}
