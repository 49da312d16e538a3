/*
 * awk's input and output: records by RS from the main input (the ARGV
 * operands, with their var=value assignments, or stdin), getline's forms,
 * and the files and pipes print and getline name, kept open by name until
 * close(). A pipe runs its command in a task of its own under the shell.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_os.h>
#include <kernel/cmds/cmds.h>
#include <kernel/cmds/awk/awk.h>

#define READ_CHUNK	4096

static void reader_init(struct awk_reader *r, int fd)
{
	kfree(r->buf);
	*r = (struct awk_reader){ .fd = fd };
}

/* More bytes into r's buffer: false at the end of input or on an error. */
static bool reader_fill(struct awk *a, struct awk_reader *r)
{
	ssize_t n;

	if (r->eof)
		return false;
	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < READ_CHUNK) {
		size_t cap = r->cap ? r->cap * 2 : READ_CHUNK * 2;
		char *b = krealloc(r->buf, cap, GFP_KERNEL);

		if (!b) {
			awk_error(a, "out of memory");
			return false;
		}
		r->buf = b;
		r->cap = cap;
	}
	n = sh_os->read(r->fd, r->buf + r->end, r->cap - r->end);
	if (n > 0) {
		r->end += (size_t)n;
		return true;
	}
	r->eof = true;
	if (n == -EINTR && !a->unwind) {
		a->unwind = X_ERROR;
		a->status = 130;
	} else if (n < 0) {
		awk_error(a, "read error: %s", errno_text((int)-n));
	}
	return false;
}

/* Where the record at r->start ends, searching from scan bytes in; NULL if not yet seen. */
static const char *record_end(const struct awk_reader *r, size_t scan, char sep, bool para)
{
	const char *b = r->buf + r->start, *end = r->buf + r->end;

	if (!para)
		return r->start + scan < r->end ? memchr(b + scan, sep, r->end - r->start - scan) : NULL;
	/* A paragraph ends at an empty line: two newlines in a row. */
	for (const char *p = b + scan; p + 1 < end; p++)
		if (p[0] == '\n' && p[1] == '\n')
			return p;
	return NULL;
}

/* The next record by RS: a character, or "" for paragraphs. 1, or 0 at the end. */
static int reader_record(struct awk *a, struct awk_reader *r, struct awk_str **rec)
{
	struct awk_str *rs = val_tostr(a, &a->globals[V_RS].val, false);
	bool para = !rs->len;
	char sep = para ? '\n' : rs->s[0];
	size_t scan = 0;

	str_put(rs);
	for (;;) {
		const char *p;
		size_t len;

		while (para && !scan && r->start < r->end && r->buf[r->start] == '\n')
			r->start++;
		if ((p = record_end(r, scan, sep, para))) {
			*rec = str_make(a, r->buf + r->start, (size_t)(p - r->buf - r->start));
			r->start = (size_t)(p - r->buf) + (para ? 2 : 1);
			return 1;
		}
		len = r->end - r->start;
		/* A paragraph's last newline may meet its partner in the next read. */
		scan = para && len ? len - 1 : len;
		if (reader_fill(a, r))
			continue;
		while (para && len && r->buf[r->start + len - 1] == '\n')
			len--;
		if (!len || a->unwind)
			return 0;
		*rec = str_make(a, r->buf + r->start, len);
		r->start = r->end;
		return 1;
	}
}

/* NAME=value with NAME a valid name: an assignment operand. */
static bool is_assignment(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq && eq != s && sh_isname1(*s) && sh_is_name(s, (size_t)(eq - s));
}

void awk_assign_operand(struct awk *a, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct sh_buf b = { 0 };

	for (int i = 0; i < a->prog->nglobals; i++) {
		struct awk_val v;

		if (strlen(a->prog->globals[i]) != (size_t)(eq - arg) ||
		    strncmp(a->prog->globals[i], arg, (size_t)(eq - arg)))
			continue;
		if (a->globals[i].arr) {
			awk_error(a, "%s: cannot assign to an array", arg);
			break;
		}
		awk_unescape(&b, eq + 1, strlen(eq + 1));
		val_input(&v, str_make(a, b.s ? b.s : "", b.len));
		val_free(&a->globals[i].val);
		a->globals[i].val = v;
		if (i == V_NF)
			nf_set(a, awk_num_to_int(v.num));
		break;
	}
	sh_buf_free(&b);
}

/* Open the next main input; false when there is none. */
static bool open_next(struct awk *a)
{
	long argc = (long)awk_num_to_int(val_tonum(&a->globals[V_ARGC].val));

	while (a->argi < argc && !a->unwind) {
		char key[24];
		struct awk_str *k = str_make(a, key, (size_t)snprintf(key, sizeof(key), "%ld", a->argi++));
		struct awk_array *argv = a->globals[V_ARGV].arr;
		struct awk_val *v = argv ? arr_lookup(a, argv, k, false) : NULL;
		struct awk_str *name = v ? val_tostr(a, v, false) : str_get(&awk_empty);
		int fd;

		str_put(k);
		if (!name->len || is_assignment(name->s)) {
			if (name->len)
				awk_assign_operand(a, name->s);
			str_put(name);
			continue;
		}
		fd = strcmp(name->s, "-") && strcmp(name->s, "/dev/stdin") ? sh_os->open(name->s, SH_O_RDONLY, 0) : 0;
		if (fd < 0) {
			sh_eprintf("awk: %s: %s\n", name->s, errno_text(-fd));
			a->status = 2;
			str_put(name);
			continue;
		}
		reader_init(&a->main_in, fd);
		awk_set_str(a, V_FILENAME, name);
		awk_set_num(a, V_FNR, 0);
		return a->main_used = a->main_open = true;
	}
	if (a->main_used || a->unwind)
		return false;
	reader_init(&a->main_in, 0);
	awk_set_num(a, V_FNR, 0);
	return a->main_used = a->main_open = true;
}

void awk_main_skip_file(struct awk *a)
{
	if (!a->main_open)
		return;
	if (a->main_in.fd)
		sh_os->close(a->main_in.fd);
	reader_init(&a->main_in, -1);
	a->main_open = false;
}

int awk_main_record(struct awk *a, struct awk_str **rec)
{
	while (!a->unwind) {
		if (!a->main_open && !open_next(a))
			return 0;
		if (reader_record(a, &a->main_in, rec) > 0) {
			awk_set_num(a, V_NR, awk_num_add(val_tonum(&a->globals[V_NR].val), AWK_ONE));
			awk_set_num(a, V_FNR, awk_num_add(val_tonum(&a->globals[V_FNR].val), AWK_ONE));
			return 1;
		}
		awk_main_skip_file(a);
	}
	return -1;
}

/* What a pipe's task runs: sh -c CMD. */
struct awk_pipe_run {
	char **envp;
	char cmd[];
};

static int pipe_task(void *arg)
{
	struct awk_pipe_run *run = arg;
	char *argv[] = { "sh", "-c", run->cmd, NULL };
	int status = cmd_sh(3, argv, run->envp);

	kfree(run);
	return status;
}

/* Start sh -c cmd with fds (0, 1, 2 of its own); its pid or -errno. */
static pid_t spawn_sh(struct awk *a, const struct awk_str *cmd, const int fds[3])
{
	struct awk_pipe_run *run = kmalloc(sizeof(*run) + cmd->len + 1, GFP_KERNEL);
	struct sh_spawn req = { .fn = pipe_task, .arg = run, .comm = "sh", .fds = { fds[0], fds[1], fds[2] } };
	pid_t pid;

	if (!run)
		return -ENOMEM;
	run->envp = a->envp;
	memcpy(run->cmd, cmd->s, cmd->len + 1);
	awk_flush_all(a);
	pid = sh_os->spawn(&req);
	if (pid < 0)
		kfree(run);
	return pid;
}

/* Wait for pid; a signal for awk goes on to it. Its exit status. */
static int wait_child(pid_t pid)
{
	int status = 0;

	while (sh_os->wait(pid, &status) == -EINTR) {
		u64 sigs = sh_os->take_signals();

		if (sigs)
			sh_os->kill(pid, __builtin_ctzll(sigs) + 1);
	}
	return status & ~SH_WAIT_SIGNALED;
}

static struct awk_stream *stream_find(struct awk *a, const struct awk_str *name, bool input)
{
	for (struct awk_stream *s = a->streams; s; s = s->next)
		if (s->name->len == name->len && !memcmp(s->name->s, name->s, name->len) &&
		    (s->kind >= S_IN_FILE) == input)
			return s;
	return NULL;
}

/* Open name for kind (R_FILE, R_APPEND, R_PIPE, S_IN_FILE, S_IN_PIPE). */
static struct awk_stream *stream_open(struct awk *a, int kind, struct awk_str *name)
{
	struct awk_stream *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int fd = -ENOMEM, fds[3] = { 0, 1, 2 }, p[2];

	if (!s) {
		awk_error(a, "out of memory");
		return NULL;
	}
	if (kind == R_PIPE || kind == S_IN_PIPE) {
		fd = sh_os->pipe(p);
		if (fd >= 0) {
			fds[kind == R_PIPE ? 0 : 1] = p[kind == R_PIPE ? 0 : 1];
			s->pid = spawn_sh(a, name, fds);
			sh_os->close(p[kind == R_PIPE ? 0 : 1]);
			fd = p[kind == R_PIPE ? 1 : 0];
			if (s->pid < 0) {
				sh_os->close(fd);
				fd = s->pid;
			}
		}
	} else if (kind == S_IN_FILE) {
		fd = strcmp(name->s, "-") && strcmp(name->s, "/dev/stdin") ? sh_os->open(name->s, SH_O_RDONLY, 0) : 0;
	} else if (!strcmp(name->s, "/dev/stderr")) {
		fd = 2;
	} else {
		fd = sh_os->open(name->s, SH_O_WRONLY | SH_O_CREAT | (kind == R_APPEND ? SH_O_APPEND : SH_O_TRUNC), 0644);
	}
	if (fd < 0) {
		kfree(s);
		return NULL;
	}
	s->kind = kind;
	s->name = str_get(name);
	if (kind >= S_IN_FILE)
		reader_init(&s->in, fd);
	else
		out_init(&s->out, fd);
	s->next = a->streams;
	a->streams = s;
	return s;
}

struct sh_out *awk_output(struct awk *a, int kind, struct awk_str *name)
{
	struct awk_stream *s;

	if (!strcmp(name->s, "/dev/stdout") || !strcmp(name->s, "-"))
		return &a->out;
	s = stream_find(a, name, false);
	if (!s && !(s = stream_open(a, kind, name)))
		awk_error(a, "cannot open \"%s\" for output", name->s);
	return s ? &s->out : NULL;
}

void awk_getline(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_stream *s = NULL;
	struct awk_str *rec = NULL;
	int r;

	if (n->op == R_NONE) {
		r = awk_main_record(a, &rec);
	} else {
		struct awk_str *name = awk_eval_str(a, n->b);

		s = stream_find(a, name, true);
		if (!s && !a->unwind)
			s = stream_open(a, n->op == R_PIPE ? S_IN_PIPE : S_IN_FILE, name);
		str_put(name);
		r = !s ? -1 : reader_record(a, &s->in, &rec);
		if (r > 0 && n->op == R_PIPE)
			awk_set_num(a, V_NR, awk_num_add(val_tonum(&a->globals[V_NR].val), AWK_ONE));
	}
	val_num(out, awk_num_from_int(r));
	if (r <= 0 || a->unwind) {
		if (r > 0)
			str_put(rec);
		return;
	}
	if (n->a) {
		struct awk_val v;

		val_input(&v, rec);
		awk_assign(a, n->a, &v);
	} else {
		rec_set(a, rec);
	}
}

/* Close s: flush, close its fd, wait for its command. Its status (exit status for pipes). */
static int stream_close(struct awk *a, struct awk_stream *s)
{
	int status = 0;

	if (s->kind < S_IN_FILE) {
		int err = out_flush(&s->out);

		/* A tracefs file refuses what was written: say so, as echo would. */
		if (err && err != -EPIPE) {
			sh_eprintf("awk: %s: write error: %s\n", s->name->s, errno_text(-err));
			a->status = a->status ? a->status : 2;
		}
		status = err ? -1 : 0;
		if (s->out.fd != 2)
			sh_os->close(s->out.fd);
	} else {
		if (s->in.fd)
			sh_os->close(s->in.fd);
		kfree(s->in.buf);
	}
	if (s->kind == R_PIPE || s->kind == S_IN_PIPE)
		status = wait_child(s->pid);
	str_put(s->name);
	kfree(s);
	return status;
}

int awk_close(struct awk *a, struct awk_str *name)
{
	int status = -1;

	for (struct awk_stream **pp = &a->streams; *pp; ) {
		struct awk_stream *s = *pp;

		if (s->name->len != name->len || memcmp(s->name->s, name->s, name->len)) {
			pp = &s->next;
			continue;
		}
		*pp = s->next;
		status = stream_close(a, s);
	}
	return status;
}

void awk_flush_all(struct awk *a)
{
	out_flush(&a->out);
	for (struct awk_stream *s = a->streams; s; s = s->next)
		if (s->kind < S_IN_FILE)
			out_flush(&s->out);
}

void awk_streams_free(struct awk *a)
{
	while (a->streams) {
		struct awk_stream *s = a->streams;

		a->streams = s->next;
		stream_close(a, s);
	}
	if (a->main_open && a->main_in.fd)
		sh_os->close(a->main_in.fd);
	kfree(a->main_in.buf);
}

int awk_system(struct awk *a, struct awk_str *cmd)
{
	static const int fds[3] = { 0, 1, 2 };
	pid_t pid = spawn_sh(a, cmd, fds);

	if (pid < 0) {
		sh_eprintf("awk: system: %s\n", errno_text(-pid));
		return -1;
	}
	return wait_child(pid);
}
