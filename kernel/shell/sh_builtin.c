/*
 * Builtins: the commands that must change the shell itself, so they run
 * in it instead of in a task of their own.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_path.h>
#include <kernel/shell/sh_util.h>
#include <kernel/cmds/cmds.h>

static int bi_colon(struct sh *sh, int argc, char **argv)
{
	return 0;
}

/* A numeric operand of exit, return, shift, break, continue. */
static bool number_arg(struct sh *sh, const char *name, const char *s, long long *v)
{
	if (sh_parse_int(s, v) || *v < 0) {
		sh_error(sh, "%s: %s: numeric argument required", name, s);
		return false;
	}
	return true;
}

static int bi_exit(struct sh *sh, int argc, char **argv)
{
	long long n = sh->status;

	if (argc > 1 && !number_arg(sh, argv[0], argv[1], &n))
		n = 2;
	sh->flow = SH_FLOW_EXIT;
	return sh->status = (int)(n & 255);
}

static int bi_return(struct sh *sh, int argc, char **argv)
{
	long long n = sh->status;

	if (argc > 1 && !number_arg(sh, argv[0], argv[1], &n))
		return 2;
	if (!sh->call_depth) {
		sh_error(sh, "return: not in a function");
		return 1;
	}
	sh->flow = SH_FLOW_RETURN;
	return (int)(n & 255);
}

static int bi_break(struct sh *sh, int argc, char **argv)
{
	long long n = 1;

	if (argc > 1 && (!number_arg(sh, argv[0], argv[1], &n) || n == 0))
		return 1;
	if (!sh->loop_depth)
		return 0;
	sh->flow = strcmp(argv[0], "break") ? SH_FLOW_CONTINUE : SH_FLOW_BREAK;
	sh->flow_count = (int)(n > sh->loop_depth ? sh->loop_depth : n);
	return 0;
}

static int bi_shift(struct sh *sh, int argc, char **argv)
{
	long long n = 1;

	if (argc > 1 && !number_arg(sh, argv[0], argv[1], &n))
		return 2;
	if (n > sh->argc) {
		sh_error(sh, "shift: can't shift that many");
		return 1;
	}
	for (int i = 0; i < n; i++)
		kfree(sh->argv[i]);
	memmove(sh->argv, sh->argv + n, sizeof(char *) * (size_t)(sh->argc - n + 1));
	sh->argc -= (int)n;
	return 0;
}

static int bi_cd(struct sh *sh, int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : sh_getvar(sh, "HOME");
	char old[256], cwd[256];
	int err;

	if (!dir || !*dir)
		dir = "/";
	if (!strcmp(dir, "-")) {
		dir = sh_getvar(sh, "OLDPWD");
		if (!dir) {
			sh_error(sh, "cd: OLDPWD not set");
			return 1;
		}
	}
	if (sh_os->getcwd(old, sizeof(old)) < 0)
		old[0] = '\0';
	err = sh_os->chdir(dir);
	if (err) {
		sh_error(sh, "cd: %s: %s", dir, errno_text(-err));
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "-")) {
		struct sh_out o;

		out_init(&o, 1);
		out_printf(&o, "%s\n", dir);
		out_finish(&o, "cd", 0);
	}
	sh_setvar(sh, "OLDPWD", old, false);
	if (sh_os->getcwd(cwd, sizeof(cwd)) >= 0)
		sh_setvar(sh, "PWD", cwd, false);
	return 0;
}

static void print_var(struct sh_out *o, const char *prefix, struct sh_var *v)
{
	out_printf(o, "%s%s", prefix, v->hn.name);
	if (v->value) {
		out_puts(o, "='");
		for (const char *p = v->value; *p; p++) {
			if (*p == '\'')
				out_puts(o, "'\\''");
			else
				out_putc(o, *p);
		}
		out_putc(o, '\'');
	}
	out_putc(o, '\n');
}

/* Set NAME=value operands, or just mark NAME; export also exports them. */
static int assign_args(struct sh *sh, int argc, char **argv, bool export, bool local)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t n = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		char name[64];

		if (!sh_is_name(argv[i], n) || n >= sizeof(name)) {
			sh_error(sh, "%s: %s: bad variable name", argv[0], argv[i]);
			status = 1;
			continue;
		}
		memcpy(name, argv[i], n);
		name[n] = '\0';
		if (local && sh_local(sh, name))
			status = 1;
		if ((eq || export || local) && sh_setvar(sh, name, eq ? eq + 1 : (local ? "" : NULL), export))
			status = 1;
	}
	return status;
}

static int bi_export(struct sh *sh, int argc, char **argv)
{
	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "-p"))) {
		struct sh_out o;

		out_init(&o, 1);
		for (struct sh_var *v = sh->vars; v; v = v->next)
			if (v->exported)
				print_var(&o, "export ", v);
		return out_finish(&o, "export", 0);
	}
	return assign_args(sh, argc, argv, true, false);
}

/* readonly [-p] [NAME[=VALUE]]...: the variables keep their values for the shell's life. */
static int bi_readonly(struct sh *sh, int argc, char **argv)
{
	int status;

	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "-p"))) {
		struct sh_out o;

		out_init(&o, 1);
		for (struct sh_var *v = sh->vars; v; v = v->next)
			if (v->readonly)
				print_var(&o, "readonly ", v);
		return out_finish(&o, "readonly", 0);
	}
	status = assign_args(sh, argc, argv, false, false);
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t n = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		char name[64];

		if (!sh_is_name(argv[i], n) || n >= sizeof(name))
			continue;
		memcpy(name, argv[i], n);
		name[n] = '\0';
		if (!sh_getvar(sh, name) && sh_setvar(sh, name, "", false))
			continue;
		for (struct sh_var *v = sh->vars; v; v = v->next)
			if (!strcmp(v->hn.name, name))
				v->readonly = true;
	}
	return status;
}

static int bi_local(struct sh *sh, int argc, char **argv)
{
	if (!sh->call_depth) {
		sh_error(sh, "local: not in a function");
		return 1;
	}
	return assign_args(sh, argc, argv, false, true);
}

static int bi_unset(struct sh *sh, int argc, char **argv)
{
	bool funcs = false;
	int i = 1;

	if (argc > 1 && (!strcmp(argv[1], "-f") || !strcmp(argv[1], "-v"))) {
		funcs = argv[1][1] == 'f';
		i++;
	}
	for (; i < argc; i++) {
		if (funcs)
			sh_unset_func(sh, argv[i]);
		else
			sh_unsetvar(sh, argv[i]);
	}
	return 0;
}

static bool set_option(struct sh *sh, char opt, bool on)
{
	switch (opt) {
	case 'e': sh->opt_errexit = on; return true;
	case 'x': sh->opt_xtrace = on; return true;
	case 'f': sh->opt_noglob = on; return true;
	case 'u': sh->opt_nounset = on; return true;
	}
	return false;
}

static int bi_set(struct sh *sh, int argc, char **argv)
{
	static const struct { const char *name; char opt; } longopts[] = {
		{ "errexit", 'e' }, { "xtrace", 'x' }, { "noglob", 'f' }, { "nounset", 'u' },
	};
	int i = 1;

	if (argc == 1) {
		struct sh_out o;

		out_init(&o, 1);
		for (struct sh_var *v = sh->vars; v; v = v->next)
			print_var(&o, "", v);
		return out_finish(&o, "set", 0);
	}
	for (; i < argc && (argv[i][0] == '-' || argv[i][0] == '+'); i++) {
		bool on = argv[i][0] == '-';

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][1] == 'o' && !argv[i][2]) {
			size_t k;

			if (++i == argc)
				break;
			for (k = 0; k < ARRAY_SIZE(longopts); k++)
				if (!strcmp(argv[i], longopts[k].name))
					break;
			if (k == ARRAY_SIZE(longopts) || !set_option(sh, longopts[k].opt, on)) {
				sh_error(sh, "set: %s: invalid option name", argv[i]);
				return 2;
			}
			continue;
		}
		for (const char *p = argv[i] + 1; *p; p++) {
			if (!set_option(sh, *p, on)) {
				sh_error(sh, "set: %c%c: invalid option", argv[i][0], *p);
				return 2;
			}
		}
	}
	if (i < argc || (i > 1 && !strcmp(argv[i - 1], "--")))
		if (sh_set_params(sh, argc - i, argv + i))
			return 1;
	return 0;
}

/* read [-r] [-p prompt] NAME...: one line, split on IFS over the names. */
static int bi_read(struct sh *sh, int argc, char **argv)
{
	const char *ifs = sh_getvar(sh, "IFS");
	struct sh_buf line = { 0 };
	bool raw = false, got = false;
	int i = 1, status = 0;
	char c;

	if (!ifs)
		ifs = " \t\n";
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-r")) {
			raw = true;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			sh_eprintf("%s", argv[++i]);
		} else {
			sh_error(sh, "read: %s: invalid option", argv[i]);
			return 2;
		}
	}
	/* One byte at a time: what follows the line belongs to the next reader. */
	for (;;) {
		ssize_t n = sh_os->read(0, &c, 1);

		if (n <= 0) {
			status = 1;
			break;
		}
		got = true;
		if (c == '\\' && !raw) {
			if (sh_os->read(0, &c, 1) <= 0)
				break;
			if (c == '\n')
				continue;
			sh_buf_putc(&line, '\\');
		} else if (c == '\n') {
			break;
		}
		sh_buf_putc(&line, c);
	}
	if (status && got)
		status = 0;	/* a last line without a newline still counts */
	char *s = line.s ? line.s : "";
	for (int v = i; v < argc || v == i; v++) {
		const char *name = v < argc ? argv[v] : "REPLY";
		struct sh_buf val = { 0 };

		while (*s && strchr(ifs, *s) && strchr(" \t\n", *s))
			s++;
		if (v >= argc - 1) {
			/* The last name takes the rest, trailing IFS white space trimmed. */
			size_t n = strlen(s);

			while (n && strchr(ifs, s[n - 1]) && strchr(" \t\n", s[n - 1]))
				n--;
			for (size_t k = 0; k < n; k++) {
				if (s[k] == '\\' && !raw && k + 1 < n)
					k++;
				sh_buf_putc(&val, s[k]);
			}
			s += strlen(s);
		} else {
			for (; *s && !strchr(ifs, *s); s++) {
				if (*s == '\\' && !raw && s[1])
					s++;
				sh_buf_putc(&val, *s);
			}
			if (*s)
				s++;
		}
		if (!sh_is_name(name, strlen(name))) {
			sh_error(sh, "read: %s: bad variable name", name);
			status = 2;
		} else {
			sh_setvar(sh, name, val.s ? val.s : "", false);
		}
		sh_buf_free(&val);
		if (v >= argc - 1)
			break;
	}
	sh_buf_free(&line);
	return status;
}

static int forget_job(struct sh *sh, pid_t pid)
{
	for (int i = 0; i < sh->njobs; i++) {
		if (sh->jobs[i].pid == pid) {
			memmove(&sh->jobs[i], &sh->jobs[i + 1], (size_t)(sh->njobs - i - 1) * sizeof(sh->jobs[0]));
			sh->njobs--;
			return 1;
		}
	}
	return 0;
}

/*
 * The pid a process operand of kill or wait names: a number, or a job
 * spec (%N, %%, %+, %-); 0 after printing why not.
 */
static pid_t operand_pid(struct sh *sh, const char *cmd, const char *s)
{
	long long v;
	int i = -1;

	if (s[0] != '%') {
		if (sh_parse_int(s, &v) || v <= 0 || v > 0x7fffffff) {
			sh_error(sh, "%s: %s: arguments must be process or job IDs", cmd, s);
			return 0;
		}
		return (pid_t)v;
	}
	if (!s[1] || !strcmp(s, "%%") || !strcmp(s, "%+")) {
		i = sh->njobs - 1;
	} else if (!strcmp(s, "%-")) {
		i = sh->njobs - 2;
	} else if (!sh_parse_int(s + 1, &v)) {
		for (i = sh->njobs - 1; i >= 0 && sh->jobs[i].id != v; i--)
			;
	}
	if (i < 0) {
		sh_error(sh, "%s: %s: no such job", cmd, s);
		return 0;
	}
	return sh->jobs[i].pid;
}

/*
 * Reap pid; a signal that arrives first runs its trap at once (or ends
 * the shell) and wait returns 128 + N, as sh's wait does.
 */
static int wait_job(struct sh *sh, pid_t pid, int *status)
{
	pid_t r;

	while ((r = sh_os->wait(pid, status)) == -EINTR) {
		u64 sigs = sh_os->take_signals();
		bool trapped = false;

		for (int sig = 1; sig < SH_NSIG; sig++)
			if ((sigs & (1ULL << (sig - 1))) && sh->traps[sig] && sh->traps[sig][0])
				trapped = true;
		sh->pending_signals |= sigs;
		sh_take_signals(sh);
		if (trapped || sh->interrupted || sh->flow != SH_FLOW_NONE) {
			*status = sh->interrupted || !sigs ? sh->status : 128 + __builtin_ctzll(sigs) + 1;
			return -EINTR;
		}
	}
	*status &= ~SH_WAIT_SIGNALED;
	return r;
}

static int bi_wait(struct sh *sh, int argc, char **argv)
{
	int status = 0;

	if (argc == 1) {
		while (sh->njobs) {
			pid_t pid = sh->jobs[0].pid;

			if (wait_job(sh, pid, &status) == -EINTR)
				return status;
			forget_job(sh, pid);
		}
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		pid_t pid = operand_pid(sh, "wait", argv[i]);

		if (!pid) {
			status = argv[i][0] == '%' ? 127 : 2;
			continue;
		}
		switch (wait_job(sh, pid, &status)) {
		case -EINTR:
			return status;
		case -ECHILD:
			status = 127;
			break;
		}
		forget_job(sh, pid);
	}
	return status;
}

/*
 * kill runs in the shell, as sh's builtin does, because job specs are
 * the shell's: they become pids, then the kill command does the rest.
 */
static int bi_kill(struct sh *sh, int argc, char **argv)
{
	int status = 0, n = 0, first = 1;
	char **args = kcalloc((size_t)argc + 1, sizeof(*args), GFP_KERNEL);
	char (*pids)[12] = kcalloc((size_t)argc, sizeof(*pids), GFP_KERNEL);

	if (!args || !pids) {
		sh_error(sh, "kill: %s", errno_text(ENOMEM));
		kfree(args);
		kfree(pids);
		return 1;
	}
	/* The operands follow -s SIGNAL or -SIGNAL, and --. */
	if (argc > 1 && !strcmp(argv[1], "-s"))
		first = 3;
	else if (argc > 1 && argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--"))
		first = 2;
	if (first < argc && !strcmp(argv[first], "--"))
		first++;
	for (int i = 0; i < argc; i++) {
		pid_t pid;

		if (i < first || argv[i][0] != '%') {
			args[n++] = argv[i];
		} else if ((pid = operand_pid(sh, "kill", argv[i]))) {
			snprintf(pids[i], sizeof(pids[i]), "%d", pid);
			args[n++] = pids[i];
		} else {
			status = 1;
		}
	}
	/* Every operand a bad job spec: nothing is left to signal. */
	if (!status || n > first)
		status |= cmd_kill(n, args, NULL);
	kfree(args);
	kfree(pids);
	return status;
}

/* Join the operands with spaces and run them as shell text. */
static int bi_eval(struct sh *sh, int argc, char **argv)
{
	struct sh_buf b = { 0 };
	int status;

	for (int i = 1; i < argc; i++) {
		if (i > 1)
			sh_buf_putc(&b, ' ');
		sh_buf_puts(&b, argv[i]);
	}
	if (!b.s)
		return 0;
	if (sh->call_depth >= SH_MAX_CALL_DEPTH) {
		sh_buf_free(&b);
		sh_error(sh, "eval: nesting too deep");
		return 2;
	}
	sh->call_depth++;
	status = sh_run_string(sh, b.s, b.len);
	sh->call_depth--;
	sh_buf_free(&b);
	return status;
}

static int bi_dot(struct sh *sh, int argc, char **argv)
{
	int saved_argc = sh->argc, status;
	char **saved_argv = sh->argv;

	if (argc < 2) {
		sh_error(sh, ".: filename argument required");
		return 2;
	}
	if (argc > 2) {
		sh->argc = 0;
		sh->argv = NULL;
		if (sh_set_params(sh, argc - 2, argv + 2)) {
			sh->argc = saved_argc;
			sh->argv = saved_argv;
			return 1;
		}
	}
	status = sh_run_file(sh, argv[1]);
	if (argc > 2) {
		sh_free_params(sh->argc, sh->argv);
		sh->argc = saved_argc;
		sh->argv = saved_argv;
	}
	return status;
}

/*
 * command -v NAME: how NAME would run: the name of a function, builtin or
 * command, the path of a program (looked for first where programs_first).
 */
static int bi_command(struct sh *sh, int argc, char **argv)
{
	struct sh_out o;
	char path[256];
	int status = 0;

	if (argc < 3 || strcmp(argv[1], "-v")) {
		sh_error(sh, "command: usage: command -v NAME...");
		return 2;
	}
	out_init(&o, 1);
	for (int i = 2; i < argc; i++) {
		const char *name = argv[i];
		bool program = sh_find_program(sh_getvar(sh, "PATH"), name, path, sizeof(path));

		if (sh_find_func(sh, name) || sh_find_builtin(name) ||
		    (sh_find_command(name) && !(program && sh_os->programs_first)))
			out_printf(&o, "%s\n", name);
		else if (program)
			out_printf(&o, "%s\n", path);
		else
			status = 1;
	}
	return out_finish(&o, "command", status);
}

static const struct {
	const char *name;
	sh_builtin_fn fn;
	bool special;
} builtins[] = {
	{ ":", bi_colon, true },
	{ ".", bi_dot, true },
	{ "source", bi_dot, true },
	{ "break", bi_break, true },
	{ "continue", bi_break, true },
	{ "eval", bi_eval, true },
	{ "exit", bi_exit, true },
	{ "export", bi_export, true },
	{ "readonly", bi_readonly, true },
	{ "return", bi_return, true },
	{ "set", bi_set, true },
	{ "shift", bi_shift, true },
	{ "trap", sh_builtin_trap, true },
	{ "unset", bi_unset, true },
	{ "cd", bi_cd, false },
	{ "command", bi_command, false },
	{ "kill", bi_kill, false },
	{ "local", bi_local, false },
	{ "read", bi_read, false },
	{ "wait", bi_wait, false },
};

sh_builtin_fn sh_find_builtin(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].fn;
	return NULL;
}

bool sh_is_special_builtin(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].special;
	return false;
}
