/*
 * xargs [-n MAX] [-I REPL] [COMMAND [ARG]...]: run COMMAND (echo by
 * default) with the words read from stdin appended, MAX at a time, or
 * once per input line with REPL in the arguments replaced by the line.
 * Each run is a task of its own, as the shell would start it.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* What one run gets; the task frees it. */
struct xargs_run {
	sh_main_fn main;
	struct sh_argv argv;
	char **envp;
};

static int xargs_task(void *p)
{
	struct xargs_run *run = p;
	int status = run->main(run->argv.argc, run->argv.argv, run->envp);

	sh_argv_free(&run->argv);
	kfree(run);
	return status;
}

/* Run argv (taken) with stdin from /dev/null; returns its status, 127 if it cannot start. */
static int run_one(const struct sh_command *cmd, struct sh_argv *argv, char **envp)
{
	struct xargs_run *run = kzalloc(sizeof(*run), GFP_KERNEL);
	struct sh_spawn req = { .fn = xargs_task, .comm = cmd->name, .fds = { 0, 1, 2 } };
	int null = sh_os->open("/dev/null", SH_O_RDONLY, 0), status = 127;
	pid_t pid = -ENOMEM;

	if (run && !argv->oom) {
		run->main = cmd->main;
		run->argv = *argv;
		run->envp = envp;
		req.arg = run;
		if (null >= 0)
			req.fds[0] = null;
		pid = sh_os->spawn(&req);
	}
	if (null >= 0)
		sh_os->close(null);
	if (pid < 0) {
		sh_eprintf("xargs: %s: %s\n", cmd->name, errno_text((int)-pid));
		sh_argv_free(argv);
		kfree(run);
		return 126;
	}
	*argv = (struct sh_argv){ 0 };
	/* A signal for xargs goes on to the command; xargs ends with it. */
	while (sh_os->wait(pid, &status) == -EINTR) {
		u64 sigs = sh_os->take_signals();

		if (sigs)
			sh_os->kill(pid, __builtin_ctzll(sigs) + 1);
	}
	return status & ~SH_WAIT_SIGNALED;
}

/* The next blank-separated word of input, with '...', "..." and \ quoting; NULL at the end. */
static char *next_word(struct sh_in *in, char **pos)
{
	struct sh_buf w = { 0 };
	char quote = 0;

	for (;;) {
		char *line;

		if (!*pos || !**pos) {
			if (w.s && !quote)
				return sh_buf_take(&w);
			if (in_getline(in, &line, NULL) < 0) {
				if (quote)
					sh_eprintf("xargs: unmatched %s quote\n", quote == '"' ? "double" : "single");
				return w.s ? sh_buf_take(&w) : NULL;
			}
			*pos = line;
			if (quote)
				sh_buf_putc(&w, '\n');
			continue;
		}
		char c = *(*pos)++;

		if (quote) {
			if (c == quote)
				quote = 0;
			else
				sh_buf_putc(&w, c);
		} else if (c == '\'' || c == '"') {
			quote = c;
			sh_buf_put(&w, "", 0);	/* '' is an empty word */
		} else if (c == '\\' && **pos) {
			sh_buf_putc(&w, *(*pos)++);
		} else if (c == ' ' || c == '\t') {
			if (w.s)
				return sh_buf_take(&w);
		} else {
			sh_buf_putc(&w, c);
		}
	}
}

/* arg with every repl replaced by line. */
static char *replace_all(const char *arg, const char *repl, const char *line)
{
	struct sh_buf b = { 0 };
	size_t n = strlen(repl);

	for (const char *p; *arg && (p = strstr(arg, repl)); arg = p + n) {
		sh_buf_put(&b, arg, (size_t)(p - arg));
		sh_buf_puts(&b, line);
	}
	sh_buf_puts(&b, arg);
	return sh_buf_take(&b);
}

static void merge_status(int *status, int st)
{
	if (st == 127 || st == 126)
		*status = st;
	else if (st && !*status)
		*status = 123;
}

int cmd_xargs(int argc, char **argv, char **envp)
{
	static char *echo_argv[] = { "echo", NULL };
	const struct sh_command *cmd;
	struct sh_getopt g = { 0 };
	const char *repl = NULL;
	long long max = 0;
	char **cargv, *pos = NULL, *word;
	int c, cargc, status = 0;
	struct sh_in in;

	while ((c = sh_getopt(&g, argc, argv, "n:I:")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'I') {
			repl = g.arg;
		} else if (sh_parse_int(g.arg, &max) || max < 1) {
			sh_eprintf("xargs: invalid number '%s'\n", g.arg);
			return 2;
		}
	}
	cargv = g.ind < argc ? argv + g.ind : echo_argv;
	cargc = g.ind < argc ? argc - g.ind : 1;
	cmd = sh_find_command(cargv[0]);
	if (!cmd) {
		sh_eprintf("xargs: %s: not found\n", cargv[0]);
		return 127;
	}
	in_init(&in, 0);
	if (repl) {
		char *line;
		ssize_t len;

		while (status < 126 && (len = in_getline(&in, &line, NULL)) >= 0) {
			struct sh_argv run = { 0 };

			line += strspn(line, " \t");
			if (!*line)
				continue;
			for (int i = 0; i < cargc; i++)
				sh_argv_push(&run, replace_all(cargv[i], repl, line));
			merge_status(&status, run_one(cmd, &run, envp));
		}
		in_free(&in);
		return status;
	}
	word = next_word(&in, &pos);
	/* Without input the command still runs once, as GNU xargs does. */
	do {
		struct sh_argv run = { 0 };

		for (int i = 0; i < cargc; i++)
			sh_argv_push(&run, kstrdup(cargv[i], GFP_KERNEL));
		for (long long n = 0; word && (!max || n < max); n++) {
			sh_argv_push(&run, word);
			word = next_word(&in, &pos);
		}
		merge_status(&status, run_one(cmd, &run, envp));
	} while (word && status < 126);
	kfree(word);
	in_free(&in);
	return status;
}
