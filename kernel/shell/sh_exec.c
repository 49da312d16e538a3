/*
 * The interpreter: walks a syntax tree. Builtins and functions run in the
 * shell; every other command, each pipeline stage, subshell, background
 * job and command substitution runs in a task of its own, as a Unix shell
 * forks for them. A subshell is a task running a deep copy of the shell.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_path.h>

/* Saved fds for undoing a command's redirections. */
#define SH_MAX_REDIRS	16
struct redir_save {
	int n;
	struct { int fd, saved; } s[SH_MAX_REDIRS];
};

/* What a command task runs. */
struct cmd_job {
	sh_main_fn main;
	struct sh_argv argv;
	struct sh_argv envp;
};

/* What a subshell task runs: a tree or a text, in a copy of the shell. */
struct subshell_job {
	struct sh *sh;
	struct sh_node *node;
	struct sh_arena *arena;
	char *text;
};

void sh_error(struct sh *sh, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sh_eprintf("sh: %s\n", msg);
}

static void check_errexit(struct sh *sh)
{
	if (sh->opt_errexit && sh->status && !sh->cond && sh->flow == SH_FLOW_NONE)
		sh->flow = SH_FLOW_EXIT;
}

/* Between commands: act on signals (Ctrl-C, kill); true if they end the shell. */
static bool check_interrupt(struct sh *sh)
{
	return sh_take_signals(sh);
}

static void undo_redirs(struct redir_save *rs)
{
	while (rs->n > 0) {
		rs->n--;
		if (rs->s[rs->n].saved >= 0) {
			sh_os->dup2(rs->s[rs->n].saved, rs->s[rs->n].fd);
			sh_os->close(rs->s[rs->n].saved);
		} else {
			sh_os->close(rs->s[rs->n].fd);
		}
	}
}

/* `exec 3> file`: the redirections become the shell's own. */
static void keep_redirs(struct redir_save *rs)
{
	while (rs->n > 0) {
		rs->n--;
		if (rs->s[rs->n].saved >= 0)
			sh_os->close(rs->s[rs->n].saved);
	}
}

/* Remember fd's current file so undo_redirs can put it back. */
static int save_fd(struct redir_save *rs, int fd)
{
	if (rs->n == SH_MAX_REDIRS)
		return -EMFILE;
	rs->s[rs->n].fd = fd;
	rs->s[rs->n].saved = sh_os->dup(fd, 10);
	rs->n++;
	return 0;
}

/* A here-document's text, fed through a pipe. */
static int heredoc_fd(struct sh *sh, struct sh_redir *r)
{
	char *body = r->quoted ? kstrdup(r->word, GFP_KERNEL) : sh_expand_heredoc(sh, r->word);
	int fds[2], err;

	if (!body)
		return -ENOMEM;
	err = sh_os->pipe(fds);
	if (!err) {
		err = sh_write_all(fds[1], body, strlen(body));
		sh_os->close(fds[1]);
		if (err)
			sh_os->close(fds[0]);
	}
	kfree(body);
	return err ? err : fds[0];
}

static int open_redir(struct sh *sh, struct sh_redir *r, const char *target)
{
	static const int flags[] = {
		[SH_R_IN] = SH_O_RDONLY,
		[SH_R_OUT] = SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC,
		[SH_R_APPEND] = SH_O_WRONLY | SH_O_CREAT | SH_O_APPEND,
		[SH_R_RDWR] = SH_O_RDWR | SH_O_CREAT,
	};

	return sh_os->open(target, flags[r->op], 0644);
}

static int apply_redirs(struct sh *sh, struct sh_redir *r, struct redir_save *rs)
{
	for (; r; r = r->next) {
		bool dup = r->op == SH_R_DUPIN || r->op == SH_R_DUPOUT, close_it = false;
		char *target = NULL;
		int fd, err;

		if (r->op == SH_R_HEREDOC) {
			fd = heredoc_fd(sh, r);
		} else {
			target = sh_expand_word(sh, r->word);
			if (!target)
				return -1;
			if (dup) {
				long long n = 0;

				if (!strcmp(target, "-"))
					close_it = true;
				else if (sh_parse_int(target, &n) || n < 0 || n > 1000) {
					sh_error(sh, "%s: bad file descriptor number", target);
					kfree(target);
					return -1;
				}
				fd = (int)n;
			} else {
				fd = open_redir(sh, r, target);
			}
		}
		err = fd < 0 ? fd : 0;
		if (!err && fd == r->fd && !close_it) {
			kfree(target);
			continue;	/* 1>&1 */
		}
		if (!err)
			err = save_fd(rs, r->fd);
		if (!err && close_it)
			sh_os->close(r->fd);
		else if (!err)
			err = sh_os->dup2(fd, r->fd) < 0 ? -EBADF : 0;
		if (fd >= 0 && !dup)
			sh_os->close(fd);
		if (err) {
			sh_error(sh, "%s: %s", target ? target : "here-document", errno_text(-err));
			kfree(target);
			return -1;
		}
		kfree(target);
	}
	return 0;
}

static int cmd_task(void *arg)
{
	struct cmd_job *job = arg;
	int status = job->main(job->argv.argc, job->argv.argv, job->envp.argv);

	sh_argv_free(&job->argv);
	sh_argv_free(&job->envp);
	kfree(job);
	return status;
}

static int subshell_task(void *arg)
{
	struct subshell_job *job = arg;
	struct sh *sh = job->sh;
	int status;

	if (job->text) {
		sh_run_string(sh, job->text, strlen(job->text));
	} else {
		sh->arena = job->arena;
		sh_exec(sh, job->node);
	}
	sh_run_exit_trap(sh);
	status = sh->status;
	sh_arena_put(job->arena);
	kfree(job->text);
	kfree(job);
	sh_free(sh);
	return status;
}

static pid_t spawn(sh_task_fn fn, void *arg, const char *comm, int nice, bool held)
{
	struct sh_spawn req = { .fn = fn, .arg = arg, .comm = comm, .fds = { 0, 1, 2 }, .nice = nice,
				.held = held };

	return sh_os->spawn(&req);
}

/* Start (held: only make) a copy of the shell running node (or text) in a new task, with fds 0..2. */
static pid_t spawn_subshell(struct sh *sh, struct sh_node *node, const char *text, size_t len,
			    bool held)
{
	struct subshell_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	pid_t pid = -ENOMEM;

	if (!job)
		return pid;
	job->sh = sh_clone(sh);
	job->node = node;
	job->arena = sh->arena;
	if (text)
		job->text = kstrndup(text, len, GFP_KERNEL);
	if (job->sh && (!text || job->text)) {
		if (job->arena)
			sh_arena_get(job->arena);
		pid = spawn(subshell_task, job, NULL, 0, held);	/* a fork keeps its name */
		if (pid >= 0)
			return pid;
		sh_arena_put(job->arena);
	}
	if (job->sh)
		sh_free(job->sh);
	kfree(job->text);
	kfree(job);
	return pid;
}

/*
 * Wait for a foreground task. Ctrl-C on the console interrupts it (status
 * 130), and then the shell too: a loop around it stops as well, unless
 * INT is trapped. Between tasks, the interactive shell is the foreground
 * itself.
 */
/* What sh says when a program dies of a signal (not for SIGINT and SIGPIPE, as sh). */
static void report_signal_death(int sig)
{
	static const char *const names[] = {
		[1] = "Hangup", [3] = "Quit", [4] = "Illegal instruction",
		[5] = "Trace/breakpoint trap", [6] = "Aborted", [7] = "Bus error",
		[8] = "Floating point exception", [9] = "Killed", [10] = "User defined signal 1",
		[11] = "Segmentation fault", [12] = "User defined signal 2", [14] = "Alarm clock",
		[15] = "Terminated", [31] = "Bad system call",
	};

	if (sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig])
		sh_eprintf("%s\n", names[sig]);
	else if (sig != 2 && sig != 13)
		sh_eprintf("Killed by signal %d\n", sig);
}

static int wait_foreground(struct sh *sh, pid_t pid)
{
	int status = 0;

	pid_t r;

	sh_os->set_foreground(pid);
	/* Signals for the shell wait until the task is done, as traps do in sh. */
	while ((r = sh_os->wait(pid, &status)) == -EINTR) {
		u64 sigs = sh_os->take_signals();

		/*
		 * A Ctrl-C typed while the console was still the shell's (the
		 * task spawned, not yet foreground) was meant for the task:
		 * at a terminal the foreground is the shell and its command.
		 */
		if (sh->interactive && (sigs & 1ULL << (2 - 1)))
			sh_os->kill(pid, 2);
		sh->pending_signals |= sigs;
	}
	if (r < 0)
		status = 127;
	if (status & SH_WAIT_SIGNALED) {
		status &= ~SH_WAIT_SIGNALED;
		report_signal_death(status - 128);
	}
	sh_os->set_foreground(sh->interactive ? sh_os->getpid() : 0);
	/* Ctrl-C reaches the whole foreground, the shell included; sh_exec acts on it. */
	if (status == 130)
		sh->pending_signals |= 1ULL << (2 - 1);
	return status;
}

static void add_job(struct sh *sh, pid_t pid)
{
	sh->last_bg = pid;
	if (sh->njobs < SH_MAX_JOBS) {
		sh->jobs[sh->njobs].pid = pid;
		sh->jobs[sh->njobs].id = sh->njobs ? sh->jobs[sh->njobs - 1].id + 1 : 1;
		sh->njobs++;
	}
}

static int call_function(struct sh *sh, struct sh_func *f, int argc, char **argv)
{
	struct sh_arena *arena = f->arena, *saved_arena = sh->arena;
	struct sh_local *saved_locals = sh->locals;
	int saved_argc = sh->argc;
	char **saved_argv = sh->argv;

	if (sh->call_depth >= SH_MAX_CALL_DEPTH) {
		sh_error(sh, "%s: function nesting too deep", argv[0]);
		return sh->status = 2;
	}
	sh->argc = 0;
	sh->argv = NULL;
	if (sh_set_params(sh, argc - 1, argv + 1)) {
		sh->argc = saved_argc;
		sh->argv = saved_argv;
		sh_error(sh, "out of memory");
		return sh->status = 1;
	}
	/* The body may redefine the function: keep its tree alive. */
	sh_arena_get(arena);
	sh->arena = arena;
	sh->locals = NULL;
	sh->call_depth++;
	sh_exec(sh, f->body);
	sh->call_depth--;
	if (sh->flow == SH_FLOW_RETURN)
		sh->flow = SH_FLOW_NONE;
	sh_pop_locals(sh, NULL);
	sh->locals = saved_locals;
	sh->arena = saved_arena;
	sh_arena_put(arena);
	sh_free_params(sh->argc, sh->argv);
	sh->argc = saved_argc;
	sh->argv = saved_argv;
	return sh->status;
}

static void xtrace(struct sh *sh, struct sh_argv *assigns, struct sh_argv *argv)
{
	struct sh_buf b = { 0 };

	sh_buf_putc(&b, '+');
	for (int i = 0; i < assigns->argc; i++)
		sh_buf_printf(&b, " %s", assigns->argv[i]);
	for (int i = 0; i < argv->argc; i++)
		sh_buf_printf(&b, " %s", argv->argv[i]);
	sh_buf_putc(&b, '\n');
	if (b.s)
		sh_write_all(2, b.s, b.len);
	sh_buf_free(&b);
}

/* The exported variables plus this command's assignments, as NAME=value strings. */
static void make_envp(struct sh *sh, struct sh_argv *assigns, struct sh_argv *envp)
{
	for (int i = 0; i < assigns->argc; i++)
		sh_argv_push(envp, kstrdup(assigns->argv[i], GFP_KERNEL));
	for (struct sh_var *v = sh->vars; v; v = v->next) {
		struct sh_buf b = { 0 };
		bool overridden = false;

		if (!v->exported || !v->value)
			continue;
		for (int i = 0; i < assigns->argc; i++) {
			size_t n = strlen(v->hn.name);

			if (!strncmp(assigns->argv[i], v->hn.name, n) && assigns->argv[i][n] == '=')
				overridden = true;
		}
		if (overridden)
			continue;
		sh_buf_printf(&b, "%s=%s", v->hn.name, v->value);
		sh_argv_push(envp, sh_buf_take(&b));
	}
}

/* `nice [-n N] cmd...`: strips the prefix, returns the nice value. */
static int strip_nice(struct sh *sh, struct sh_argv *argv, int *first)
{
	long long n = 10;

	*first = 0;
	if (argv->argc < 1 || strcmp(argv->argv[0], "nice"))
		return 0;
	*first = 1;
	if (argv->argc >= 3 && !strcmp(argv->argv[1], "-n")) {
		if (sh_parse_int(argv->argv[2], &n)) {
			sh_error(sh, "nice: invalid adjustment '%s'", argv->argv[2]);
			return -1000;
		}
		*first = 3;
	} else if (argv->argc >= 2 && argv->argv[1][0] == '-' && sh_isdigit(argv->argv[1][1])) {
		sh_parse_int(argv->argv[1] + 1, &n);
		*first = 2;
	}
	if (*first >= argv->argc) {
		sh_error(sh, "nice: missing command");
		return -1000;
	}
	return (int)(n < -20 ? -20 : n > 19 ? 19 : n);
}

static int cmd_workload_main(int argc, char **argv, char **envp)
{
	return sh_os->run_workload(argc, argv);
}

/*
 * Commands that run inside the shell, as sh's regular builtins of these
 * names do: `echo 1 > enable` forks nothing, so it adds no
 * sched_process_fork/exit events to what the user traces. In a pipeline,
 * in the background or under nice they still get a task.
 */
static bool runs_in_shell(const char *name)
{
	static const char *const names[] = { "echo", "printf", "test", "[", "true", "false", "pwd" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Kernel commands and workloads first, then program files (unless name has a '/'). */
/* Out of line: its path buffer stays off the frames of nested commands. */
static noinline bool in_path(struct sh *sh, const char *name)
{
	char path[256];

	return sh_find_program(sh_getvar(sh, "PATH"), name, path, sizeof(path));
}

static sh_main_fn find_external(struct sh *sh, const char *name)
{
	const struct sh_command *c = strchr(name, '/') ? NULL : sh_find_command(name);

	if (c)
		return c->main;
	for (const char *const *w = sh_os->workloads; w && *w; w++)
		if (!strcmp(*w, name))
			return cmd_workload_main;
	if (in_path(sh, name))
		return cmd_program_main;
	return NULL;
}

/* The builtin or command name stands for, from n's cache when the name is n's literal first word. */
static void resolve(struct sh *sh, struct sh_node *n, const char *name, sh_builtin_fn *builtin,
		    sh_main_fn *ext, bool *in_shell)
{
	struct sh_resolved *r = &n->simple.resolved;

	/* A program may appear in PATH at any time: looked for on every run. */
	if (sh_os->programs_first && !sh_find_builtin(name) && !strchr(name, '/') &&
	    in_path(sh, name)) {
		*builtin = NULL;
		*ext = cmd_program_main;
		*in_shell = false;
		return;
	}
	if (smp_load_acquire(&r->cached)) {
		*builtin = r->builtin;
		*ext = r->ext;
		*in_shell = r->in_shell;
		return;
	}
	*builtin = sh_find_builtin(name);
	*ext = *builtin ? NULL : find_external(sh, name);
	*in_shell = *ext && runs_in_shell(name);
	if ((*builtin || (*ext && *ext != cmd_program_main)) && sh_word_is_literal(n->simple.words[0])) {
		r->builtin = *builtin;
		r->ext = *ext;
		r->in_shell = *in_shell;
		smp_store_release(&r->cached, true);
	}
}

/*
 * Start (held: only make) an external command in a task; returns its pid.
 * argv (from index first) and the environment are handed to the task.
 */
static pid_t spawn_command(struct sh *sh, sh_main_fn main, struct sh_argv *argv, int first,
			   struct sh_argv *assigns, int nice, bool held)
{
	struct cmd_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	pid_t pid;

	if (!job)
		return -ENOMEM;
	job->main = main;
	for (int i = first; i < argv->argc; i++)
		sh_argv_push(&job->argv, kstrdup(argv->argv[i], GFP_KERNEL));
	make_envp(sh, assigns, &job->envp);
	if (job->argv.oom || job->envp.oom) {
		pid = -ENOMEM;
	} else {
		/* Named as execve names a task: the last component of the path. */
		const char *slash = strrchr(job->argv.argv[0], '/');

		pid = spawn(cmd_task, job, slash ? slash + 1 : job->argv.argv[0], nice, held);
		if (pid >= 0)
			return pid;
	}
	sh_argv_free(&job->argv);
	sh_argv_free(&job->envp);
	kfree(job);
	return pid;
}

/* Run builtins and functions with VAR=x prefixes that last only as long as they do. */
static int run_in_shell(struct sh *sh, struct sh_argv *argv, struct sh_argv *assigns,
			sh_builtin_fn builtin, struct sh_func *func)
{
	bool keep = !assigns->argc || (builtin && sh_is_special_builtin(argv->argv[0]));
	struct sh_local *saved = sh->locals;
	int status;

	if (!keep)
		sh->locals = NULL;
	for (int i = 0; i < assigns->argc; i++) {
		char *eq = strchr(assigns->argv[i], '=');

		*eq = '\0';
		if (!keep)
			sh_local(sh, assigns->argv[i]);
		sh_setvar(sh, assigns->argv[i], eq + 1, !keep);
		*eq = '=';
	}
	if (func)
		status = call_function(sh, func, argv->argc, argv->argv);
	else
		status = builtin(sh, argv->argc, argv->argv);
	if (!keep) {
		sh_pop_locals(sh, NULL);
		sh->locals = saved;
	}
	return status;
}

/* How exec_simple runs an external command. */
enum sh_start {
	SH_START_WAIT,		/* to its end: the status is its */
	SH_START_ASYNC,		/* started: its pid in *pid, the status means nothing */
	SH_START_HELD,		/* made, to be started with sh_os->start (a pipeline's) */
};

/* A simple command; an external one as how says. */
static int exec_simple(struct sh *sh, struct sh_node *n, enum sh_start how, pid_t *pid)
{
	struct sh_argv argv = { 0 }, assigns = { 0 };
	struct redir_save rs = { 0 };
	sh_builtin_fn builtin = NULL;
	struct sh_func *func = NULL;
	sh_main_fn ext = NULL;
	int status = 0, first = 0, nice = 0;
	bool exec_form, in_shell = false;

	int substs = sh->subst_count;

	for (int i = 0; i < n->simple.nassigns; i++) {
		const char *raw = n->simple.assigns[i];
		const char *eq = strchr(raw, '=');
		char *value = sh_expand_word(sh, eq + 1), store[64];
		struct sh_buf b;

		if (!value)
			goto fail;
		sh_buf_init_on(&b, store, sizeof(store));
		sh_buf_put(&b, raw, (size_t)(eq + 1 - raw));
		sh_buf_puts(&b, value);
		kfree(value);
		sh_argv_push(&assigns, sh_buf_take(&b));
	}
	if (sh_expand_words(sh, n->simple.words, n->simple.nwords, &argv) || assigns.oom)
		goto fail;
	/* Without a command, the status is that of the last $(...), if any. */
	status = sh->subst_count != substs ? sh->status : 0;
	if (sh->opt_xtrace)
		xtrace(sh, &assigns, &argv);
	/* exec: with a command, the shell ends with it; without, the redirections stay. */
	exec_form = argv.argc && !strcmp(argv.argv[0], "exec");
	if (exec_form) {
		first = 1;
	} else if (argv.argc) {
		nice = strip_nice(sh, &argv, &first);
		if (nice == -1000)
			goto fail;
	}
	if (argv.argc > first) {
		if (!first) {
			func = sh_find_func(sh, argv.argv[0]);
			if (!func)
				resolve(sh, n, argv.argv[0], &builtin, &ext, &in_shell);
		} else {
			ext = find_external(sh, argv.argv[first]);
		}
	}
	if (apply_redirs(sh, n->redirs, &rs)) {
		status = 1;
		goto out_undo;
	}
	/* After the redirections, as POSIX has it: `nosuchcmd 2>&1 | cat` carries the message. */
	if (argv.argc > first && !func && !builtin && !ext) {
		sh_error(sh, "%s: not found", argv.argv[first]);
		status = 127;
	} else if (exec_form && argv.argc == 1) {
		keep_redirs(&rs);
	} else if (!argv.argc) {
		for (int i = 0; i < assigns.argc; i++) {
			char *eq = strchr(assigns.argv[i], '=');

			*eq = '\0';
			sh_setvar(sh, assigns.argv[i], eq + 1, false);
		}
	} else if (in_shell && how == SH_START_WAIT) {
		/* None of these reads its environment: no envp to build. */
		static char *no_env[] = { NULL };

		status = ext(argv.argc, argv.argv, no_env);
	} else if (ext) {
		pid_t p = spawn_command(sh, ext, &argv, first, &assigns, nice, how == SH_START_HELD);

		if (p < 0) {
			sh_error(sh, "%s: %s", argv.argv[first], errno_text((int)-p));
			status = 126;
		} else if (how != SH_START_WAIT) {
			*pid = p;
		} else {
			status = wait_foreground(sh, p);
		}
		if (exec_form)
			sh->flow = SH_FLOW_EXIT;
	} else {
		status = run_in_shell(sh, &argv, &assigns, builtin, func);
	}
out_undo:
	undo_redirs(&rs);
out:
	sh_argv_free(&argv);
	sh_argv_free(&assigns);
	return sh->status = status;
fail:
	status = 1;
	goto out;
}

/* Does node start a command task of its own (no subshell needed)? */
static bool is_external(struct sh *sh, struct sh_node *n)
{
	const char *name;

	if (n->type != SH_N_SIMPLE || !n->simple.nwords)
		return false;
	/* Judged on the raw first word; quoting or expansion there means a subshell. */
	name = n->simple.words[0];
	if (!sh_is_name(name, strlen(name)) && !strchr(name, '-') && strcmp(name, "["))
		return false;
	if (sh_find_func(sh, name) || sh_find_builtin(name))
		return false;
	return find_external(sh, name) != NULL || !strcmp(name, "nice");
}

/* Start node in the background with stdin in and stdout out; returns the pid. */
static pid_t fork_node(struct sh *sh, struct sh_node *n, int in, int out, bool held)
{
	struct redir_save rs = { 0 };
	pid_t pid = -EBADF;

	if ((in != 0 && (save_fd(&rs, 0) || sh_os->dup2(in, 0) < 0)) ||
	    (out != 1 && (save_fd(&rs, 1) || sh_os->dup2(out, 1) < 0)))
		goto out;
	if (is_external(sh, n)) {
		pid = 0;
		sh->cond++;
		exec_simple(sh, n, held ? SH_START_HELD : SH_START_ASYNC, &pid);
		sh->cond--;
		if (!pid)
			pid = -ENOENT;	/* already reported */
	} else {
		pid = spawn_subshell(sh, n, NULL, 0, held);
	}
out:
	undo_redirs(&rs);
	return pid;
}

static int exec_pipeline(struct sh *sh, struct sh_node *n)
{
	pid_t *pids = kcalloc((size_t)n->pipe.n, sizeof(*pids), GFP_KERNEL);
	int prev = 0, status = 0;

	if (!pids) {
		sh_error(sh, "out of memory");
		return sh->status = 1;
	}
	for (int i = 0; i < n->pipe.n; i++) {
		int fds[2] = { -1, 1 };

		if (i < n->pipe.n - 1 && sh_os->pipe(fds)) {
			sh_error(sh, "pipe: %s", errno_text(EMFILE));
			pids[i] = -EMFILE;
			break;
		}
		pids[i] = fork_node(sh, n->pipe.cmds[i], prev, fds[1], true);
		if (prev != 0)
			sh_os->close(prev);
		if (fds[0] >= 0)
			sh_os->close(fds[1]);
		prev = fds[0] >= 0 ? fds[0] : 0;
	}
	if (prev != 0)
		sh_os->close(prev);
	for (int i = 0; i < n->pipe.n; i++)
		if (pids[i] > 0)
			sh_os->start(pids[i]);
	for (int i = 0; i < n->pipe.n; i++) {
		if (pids[i] > 0)
			status = wait_foreground(sh, pids[i]);
		else
			status = pids[i] == -ENOENT ? 127 : 1;
	}
	kfree(pids);
	return sh->status = status;
}

static int exec_background(struct sh *sh, struct sh_node *n)
{
	pid_t pid = fork_node(sh, n, 0, 1, false);

	if (pid > 0)
		add_job(sh, pid);
	else if (pid != -ENOENT)
		sh_error(sh, "cannot start job: %s", errno_text((int)-pid));
	return sh->status = pid > 0 ? 0 : 1;
}

static int exec_subshell(struct sh *sh, struct sh_node *n)
{
	pid_t pid = spawn_subshell(sh, n->one.body, NULL, 0, false);

	if (pid < 0) {
		sh_error(sh, "cannot fork: %s", errno_text((int)-pid));
		return sh->status = 1;
	}
	return sh->status = wait_foreground(sh, pid);
}

/*
 * Start the task of a command substitution. `$(cat file)` is one external
 * command: like sh, start it directly (a child of this shell) instead of
 * in a subshell that would start it. Anything else runs in a subshell.
 */
static pid_t spawn_subst(struct sh *sh, const char *text, size_t len)
{
	struct sh_arena *a, *more_arena;
	struct sh_node *n, *more;
	struct sh_parser p;
	pid_t pid = 0;

	sh_parser_init(&p, text, len);
	if (sh_parse_next(&p, &n, &a) != SH_PARSE_OK)
		return spawn_subshell(sh, NULL, text, len, false);
	if (sh_parse_next(&p, &more, &more_arena) == SH_PARSE_OK) {
		sh_arena_put(more_arena);
		pid = -1;
	}
	if (pid || p.err[0] || !is_external(sh, n)) {
		sh_arena_put(a);
		return spawn_subshell(sh, NULL, text, len, false);
	}
	sh->cond++;
	exec_simple(sh, n, SH_START_ASYNC, &pid);
	sh->cond--;
	sh_arena_put(a);
	return pid ? pid : -ENOENT;	/* not found: already reported */
}

char *sh_command_subst(struct sh *sh, const char *text, size_t len)
{
	struct sh_buf out = { 0 };
	struct redir_save rs = { 0 };
	int fds[2], status;
	pid_t pid;

	if (sh_os->pipe(fds))
		return NULL;
	if (save_fd(&rs, 1) || sh_os->dup2(fds[1], 1) < 0) {
		undo_redirs(&rs);
		sh_os->close(fds[0]);
		sh_os->close(fds[1]);
		return NULL;
	}
	pid = spawn_subst(sh, text, len);
	undo_redirs(&rs);
	sh_os->close(fds[1]);
	if (pid < 0) {
		sh_os->close(fds[0]);
		if (pid != -ENOENT)
			return NULL;
		sh->status = 127;
		sh->subst_count++;
		return kstrdup("", GFP_KERNEL);
	}
	sh_read_all(fds[0], &out);
	sh_os->close(fds[0]);
	status = wait_foreground(sh, pid);
	sh->status = status;
	sh->subst_count++;
	return sh_buf_take(&out);
}

/* After a loop body: consume break/continue aimed at this loop; true to leave it. */
static bool loop_flow(struct sh *sh)
{
	if (sh->flow == SH_FLOW_BREAK || sh->flow == SH_FLOW_CONTINUE) {
		bool is_break = sh->flow == SH_FLOW_BREAK;

		if (--sh->flow_count > 0)
			return true;	/* aimed at an outer loop */
		sh->flow = SH_FLOW_NONE;
		return is_break;
	}
	return sh->flow != SH_FLOW_NONE || check_interrupt(sh);
}

static int exec_loop(struct sh *sh, struct sh_node *n)
{
	int status = 0;

	sh->loop_depth++;
	for (;;) {
		int c;

		sh->cond++;
		c = sh_exec(sh, n->loop.cond);
		sh->cond--;
		if (sh->flow != SH_FLOW_NONE) {
			if (loop_flow(sh))
				break;
			continue;
		}
		if ((c == 0) != (n->type == SH_N_WHILE))
			break;
		status = sh_exec(sh, n->loop.body);
		if (loop_flow(sh))
			break;
	}
	sh->loop_depth--;
	if (sh->flow == SH_FLOW_NONE)
		sh->status = status;
	return sh->status;
}

static int exec_for(struct sh *sh, struct sh_node *n)
{
	struct sh_argv items = { 0 };
	int status = 0;

	if (n->forn.has_in) {
		if (sh_expand_words(sh, n->forn.words, n->forn.nwords, &items))
			return sh->status = 1;
	} else {
		for (int i = 0; i < sh->argc; i++)
			sh_argv_push(&items, kstrdup(sh->argv[i], GFP_KERNEL));
	}
	sh->loop_depth++;
	for (int i = 0; i < items.argc; i++) {
		sh_setvar(sh, n->forn.var, items.argv[i], false);
		status = sh_exec(sh, n->forn.body);
		if (loop_flow(sh))
			break;
	}
	sh->loop_depth--;
	sh_argv_free(&items);
	if (sh->flow == SH_FLOW_NONE)
		sh->status = status;
	return sh->status;
}

static int exec_case(struct sh *sh, struct sh_node *n)
{
	char *word = sh_expand_word(sh, n->casen.word);

	if (!word)
		return sh->status = 1;
	sh->status = 0;
	for (struct sh_case_item *it = n->casen.items; it; it = it->next) {
		for (int i = 0; i < it->npats; i++) {
			char *pat = sh_expand_pattern(sh, it->pats[i]);
			bool hit = pat && sh_match(pat, word);

			kfree(pat);
			if (hit) {
				kfree(word);
				return it->body ? sh_exec(sh, it->body) : (sh->status = 0);
			}
		}
	}
	kfree(word);
	return sh->status;
}

static int exec_if(struct sh *sh, struct sh_node *n)
{
	int c;

	sh->cond++;
	c = sh_exec(sh, n->ifn.cond);
	sh->cond--;
	if (sh->flow != SH_FLOW_NONE)
		return sh->status;
	if (c == 0)
		return sh_exec(sh, n->ifn.then);
	if (n->ifn.els)
		return sh_exec(sh, n->ifn.els);
	return sh->status = 0;
}

static int exec_list(struct sh *sh, struct sh_node *n)
{
	for (int i = 0; i < n->list.n && sh->flow == SH_FLOW_NONE; i++) {
		if (n->list.background[i])
			exec_background(sh, n->list.items[i]);
		else
			sh_exec(sh, n->list.items[i]);
	}
	return sh->status;
}

/* Compound commands with redirections: apply them around the body. */
static int exec_compound(struct sh *sh, struct sh_node *n)
{
	switch (n->type) {
	case SH_N_GROUP:
		return sh_exec(sh, n->one.body);
	case SH_N_SUBSHELL:
		exec_subshell(sh, n);
		check_interrupt(sh);
		check_errexit(sh);
		return sh->status;
	case SH_N_IF:
		return exec_if(sh, n);
	case SH_N_WHILE:
	case SH_N_UNTIL:
		return exec_loop(sh, n);
	case SH_N_FOR:
		return exec_for(sh, n);
	case SH_N_CASE:
		return exec_case(sh, n);
	default:
		return sh->status;
	}
}

/* A compound command with its redirections; out of line to keep sh_exec's frame small. */
static noinline int exec_redirected(struct sh *sh, struct sh_node *n)
{
	struct redir_save rs = { 0 };

	if (apply_redirs(sh, n->redirs, &rs)) {
		undo_redirs(&rs);
		sh->status = 1;
		check_errexit(sh);
		return sh->status;
	}
	exec_compound(sh, n);
	undo_redirs(&rs);
	return sh->status;
}

int sh_exec(struct sh *sh, struct sh_node *n)
{
	if (sh->flow != SH_FLOW_NONE || check_interrupt(sh))
		return sh->status;
	/*
	 * Scripts nest without bound (recursive functions); the kernel stack
	 * does not. Unwind the whole script, as after Ctrl-C: a loop around
	 * the failing call would only try again.
	 */
	if (sh_os->stack_left() < SH_STACK_RESERVE) {
		sh_error(sh, "nesting too deep");
		sh->interrupted = true;
		sh->flow = SH_FLOW_EXIT;
		return sh->status = 2;
	}
	switch (n->type) {
	case SH_N_SIMPLE:
		exec_simple(sh, n, SH_START_WAIT, NULL);
		check_interrupt(sh);
		check_errexit(sh);
		return sh->status;
	case SH_N_PIPE:
		exec_pipeline(sh, n);
		check_interrupt(sh);
		check_errexit(sh);
		return sh->status;
	case SH_N_AND:
	case SH_N_OR:
		sh->cond++;
		sh_exec(sh, n->bin.left);
		sh->cond--;
		if (sh->flow == SH_FLOW_NONE && (sh->status == 0) == (n->type == SH_N_AND))
			sh_exec(sh, n->bin.right);
		return sh->status;
	case SH_N_NOT:
		sh->cond++;
		sh_exec(sh, n->one.body);
		sh->cond--;
		return sh->status = !sh->status;
	case SH_N_LIST:
		return exec_list(sh, n);
	case SH_N_FUNC:
		if (sh_define_func(sh, n->func.name, n->func.body, sh->arena)) {
			sh_error(sh, "out of memory");
			return sh->status = 1;
		}
		return sh->status = 0;
	default:
		if (!n->redirs)
			return exec_compound(sh, n);
		return exec_redirected(sh, n);
	}
}
