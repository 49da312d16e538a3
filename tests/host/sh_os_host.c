/*
 * sh_os for host unit tests: an in-memory file tree, pipes with unbounded
 * buffers, and tasks that run synchronously inside spawn(). A pipeline's
 * stages therefore run one after the other, each to completion, which is
 * deterministic and enough for commands that do not need a concurrent
 * reader. Symbolic links can be made and read, but lookups do not follow
 * them. See tests/host/sh_os_host.h for what tests can control.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_os.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_buf.h>
#include "sh_os_host.h"
#include <stdlib.h>

#define HOST_NFD	32
#define HOST_NTASK	4096

/* A file, directory or symbolic link (its target in data) of the in-memory tree. */
struct hnode {
	char name[64];
	enum sh_ftype type;
	struct hnode *parent, *children, *next;
	struct sh_buf data;
	int write_err;		/* nonzero: every write fails with it (a picky pseudo file) */
	bool null;		/* /dev/null */
	unsigned int mode;	/* chmod's bits; 0: the type's default */
	u64 ino;
};

/* A pipe's buffer never fills: writers never wait. */
struct hpipe {
	struct sh_buf data;
	size_t rpos;
	int readers, writers;
};

/* An open file description, shared by dup'd fds. */
struct hfile {
	int ref;
	int flags;
	struct hnode *node;
	struct hpipe *pipe;
	bool pipe_write;
	size_t off;
};

struct htask {
	pid_t pid, ppid;
	char comm[16];
	int nice;
	struct hfile *fds[HOST_NFD];
	struct hnode *cwd;
	bool exited, reaped;
	int status;
	u64 pending;		/* signals sent to it, bit N-1 for signal N */
};

static struct hnode *root;
static struct htask *tasks[HOST_NTASK];
static int ntasks;
static struct htask *cur;
static u64 next_ino = 1;
static u64 fake_now = 1000000000ULL;
bool host_interrupt;
int host_spawn_count;
const char *host_console_input;
bool host_stdout_tty;
bool host_poweroff_called;

static struct hnode *new_node(struct hnode *parent, const char *name, enum sh_ftype type)
{
	struct hnode *n = calloc(1, sizeof(*n));

	snprintf(n->name, sizeof(n->name), "%s", name);
	n->type = type;
	n->ino = next_ino++;
	n->parent = parent ? parent : n;
	if (parent) {
		n->next = parent->children;
		parent->children = n;
	}
	return n;
}

static void free_tree(struct hnode *n)
{
	while (n->children) {
		struct hnode *c = n->children;

		n->children = c->next;
		free_tree(c);
	}
	sh_buf_free(&n->data);
	free(n);
}

static struct hnode *child(struct hnode *dir, const char *name, size_t len)
{
	for (struct hnode *c = dir->children; c; c = c->next)
		if (strlen(c->name) == len && !memcmp(c->name, name, len))
			return c;
	return NULL;
}

/*
 * Walk path; with parent_out, stop before the last component and return
 * its parent, the last name in *last.
 */
static int lookup(const char *path, struct hnode **out, struct hnode **parent_out,
		  const char **last)
{
	struct hnode *n = path[0] == '/' ? root : cur->cwd;
	const char *p = path;

	if (!*path)
		return -ENOENT;
	for (;;) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (parent_out && !p[len + strspn(p + len, "/")]) {
			*parent_out = n;
			*last = p;
			return n->type == SH_FT_DIR ? 0 : -ENOTDIR;
		}
		if (n->type != SH_FT_DIR)
			return -ENOTDIR;
		if (len == 1 && p[0] == '.')
			;
		else if (len == 2 && p[0] == '.' && p[1] == '.')
			n = n->parent;
		else if (!(n = child(n, p, len)))
			return -ENOENT;
		p += len;
	}
	if (parent_out)
		return -EEXIST;	/* "/" itself */
	*out = n;
	return 0;
}

static int alloc_fd(struct htask *t, struct hfile *f, int min)
{
	for (int fd = min; fd < HOST_NFD; fd++) {
		if (!t->fds[fd]) {
			t->fds[fd] = f;
			return fd;
		}
	}
	return -EMFILE;
}

static void put_file(struct hfile *f)
{
	if (--f->ref)
		return;
	if (f->pipe) {
		if (f->pipe_write)
			f->pipe->writers--;
		else
			f->pipe->readers--;
		if (!f->pipe->readers && !f->pipe->writers) {
			sh_buf_free(&f->pipe->data);
			free(f->pipe);
		}
	}
	free(f);
}

static struct hfile *get_fd(int fd)
{
	return fd >= 0 && fd < HOST_NFD ? cur->fds[fd] : NULL;
}

static int h_open(const char *path, int flags, unsigned int mode)
{
	struct hnode *n = NULL, *dir;
	const char *last;
	struct hfile *f;
	int err = lookup(path, &n, NULL, NULL), fd;

	if (err == -ENOENT && (flags & SH_O_CREAT)) {
		err = lookup(path, NULL, &dir, &last);
		if (err)
			return err;
		char name[64];
		size_t len = strcspn(last, "/");

		snprintf(name, sizeof(name), "%.*s", (int)len, last);
		n = new_node(dir, name, SH_FT_REG);
	} else if (err) {
		return err;
	}
	if (n->type == SH_FT_DIR && (flags & SH_O_ACCMODE) != SH_O_RDONLY)
		return -EISDIR;
	if ((flags & SH_O_DIRECTORY) && n->type != SH_FT_DIR)
		return -ENOTDIR;
	if ((flags & SH_O_TRUNC) && n->type == SH_FT_REG)
		n->data.len = 0;
	f = calloc(1, sizeof(*f));
	f->ref = 1;
	f->flags = flags;
	f->node = n;
	fd = alloc_fd(cur, f, 0);
	if (fd < 0)
		free(f);
	return fd;
}

static ssize_t h_read(int fd, void *buf, size_t len)
{
	struct hfile *f = get_fd(fd);
	size_t n;

	if (!f || (f->flags & SH_O_ACCMODE) == SH_O_WRONLY || (f->pipe && f->pipe_write))
		return -EBADF;
	if (f->pipe) {
		/* Empty with writers left would block forever here: report the end. */
		n = min(len, f->pipe->data.len - f->pipe->rpos);
		if (n)
			memcpy(buf, f->pipe->data.s + f->pipe->rpos, n);
		f->pipe->rpos += n;
		return (ssize_t)n;
	}
	if (f->node->type == SH_FT_DIR)
		return -EISDIR;
	if (f->node->null || f->off >= f->node->data.len)
		return 0;
	n = min(len, f->node->data.len - f->off);
	memcpy(buf, f->node->data.s + f->off, n);
	f->off += n;
	return (ssize_t)n;
}

static ssize_t h_write(int fd, const void *buf, size_t len)
{
	struct hfile *f = get_fd(fd);
	struct hnode *n;

	if (!f || (!f->pipe && (f->flags & SH_O_ACCMODE) == SH_O_RDONLY) ||
	    (f->pipe && !f->pipe_write))
		return -EBADF;
	if (f->pipe) {
		if (!f->pipe->readers)
			return -EPIPE;
		sh_buf_put(&f->pipe->data, buf, len);
		return (ssize_t)len;
	}
	n = f->node;
	if (n->write_err)
		return n->write_err;
	if (n->null)
		return (ssize_t)len;
	if (f->flags & SH_O_APPEND)
		f->off = n->data.len;
	while (n->data.len < f->off)
		sh_buf_putc(&n->data, '\0');
	if (f->off + len > n->data.len) {
		size_t keep = f->off;

		n->data.len = keep;
		sh_buf_put(&n->data, buf, len);
	} else if (len) {
		memcpy(n->data.s + f->off, buf, len);
	}
	f->off += len;
	return (ssize_t)len;
}

static int h_close(int fd)
{
	struct hfile *f = get_fd(fd);

	if (!f)
		return -EBADF;
	cur->fds[fd] = NULL;
	put_file(f);
	return 0;
}

static int h_dup(int fd, int min_fd)
{
	struct hfile *f = get_fd(fd);
	int nfd;

	if (!f)
		return -EBADF;
	nfd = alloc_fd(cur, f, min_fd);
	if (nfd >= 0)
		f->ref++;
	return nfd;
}

static int h_dup2(int oldfd, int newfd)
{
	struct hfile *f = get_fd(oldfd);

	if (!f || newfd < 0 || newfd >= HOST_NFD)
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	if (cur->fds[newfd])
		h_close(newfd);
	f->ref++;
	cur->fds[newfd] = f;
	return newfd;
}

static int h_pipe(int fds[2])
{
	struct hpipe *p = calloc(1, sizeof(*p));
	struct hfile *r = calloc(1, sizeof(*r)), *w = calloc(1, sizeof(*w));

	r->ref = w->ref = 1;
	r->pipe = w->pipe = p;
	w->pipe_write = true;
	w->flags = SH_O_WRONLY;
	p->readers = p->writers = 1;
	fds[0] = alloc_fd(cur, r, 0);
	fds[1] = fds[0] < 0 ? -EMFILE : alloc_fd(cur, w, 0);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			h_close(fds[0]);
		else
			put_file(r);
		put_file(w);
		return -EMFILE;
	}
	return 0;
}

static int h_stat(const char *path, struct sh_stat *st)
{
	struct hnode *n;
	int err = lookup(path, &n, NULL, NULL);

	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	st->type = n->null ? SH_FT_CHR : n->type;
	st->mode = n->mode ? n->mode : n->type == SH_FT_DIR ? 0755 : n->type == SH_FT_LNK ? 0777 : 0644;
	st->size = n->data.len;
	st->ino = n->ino;
	st->nlink = 1;
	return 0;
}

/* A path that must name a directory. */
static int lookup_dir(const char *path, struct hnode **out)
{
	int err = lookup(path, out, NULL, NULL);

	if (!err && (*out)->type != SH_FT_DIR)
		return -ENOTDIR;
	return err;
}

static int h_readdir(const char *path, sh_dirent_fn fn, void *ctx)
{
	struct hnode *n;
	int err = lookup_dir(path, &n);

	if (err)
		return err;
	if (fn(ctx, ".", SH_FT_DIR) || fn(ctx, "..", SH_FT_DIR))
		return 0;
	for (struct hnode *c = n->children; c; c = c->next)
		if (fn(ctx, c->name, c->null ? SH_FT_CHR : c->type))
			break;
	return 0;
}

static int h_mkdir(const char *path, unsigned int mode)
{
	struct hnode *dir, *n;
	const char *last;
	char name[64];
	int err = lookup(path, NULL, &dir, &last);

	if (err)
		return err;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(last, "/"), last);
	if (lookup(path, &n, NULL, NULL) == 0)
		return -EEXIST;
	new_node(dir, name, SH_FT_DIR);
	return 0;
}

static int h_chmod(const char *path, unsigned int mode)
{
	struct hnode *n;
	int err = lookup(path, &n, NULL, NULL);

	if (!err)
		n->mode = mode & 07777;
	return err;
}

static int h_symlink(const char *target, const char *path)
{
	struct hnode *dir, *n;
	const char *last;
	char name[64];
	int err = lookup(path, NULL, &dir, &last);

	if (err)
		return err;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(last, "/"), last);
	if (lookup(path, &n, NULL, NULL) == 0)
		return -EEXIST;
	sh_buf_puts(&new_node(dir, name, SH_FT_LNK)->data, target);
	return 0;
}

static ssize_t h_readlink(const char *path, char *buf, size_t size)
{
	struct hnode *n;
	int err = lookup(path, &n, NULL, NULL);

	if (err)
		return err;
	if (n->type != SH_FT_LNK)
		return -EINVAL;
	size = n->data.len < size ? n->data.len : size;
	memcpy(buf, n->data.s, size);
	return (ssize_t)size;
}

static int remove_node(const char *path, bool dir)
{
	struct hnode *n, **pp;
	int err = lookup(path, &n, NULL, NULL);

	if (err)
		return err;
	if (dir && n->type != SH_FT_DIR)
		return -ENOTDIR;
	if (!dir && n->type == SH_FT_DIR)
		return -EISDIR;
	if (dir && n->children)
		return -ENOTEMPTY;
	if (n == root)
		return -EBUSY;
	for (pp = &n->parent->children; *pp != n; pp = &(*pp)->next)
		;
	*pp = n->next;
	/* Open files keep pointing at it in real life; tests never do that. */
	free_tree(n);
	return 0;
}

static int h_unlink(const char *path) { return remove_node(path, false); }
static int h_rmdir(const char *path) { return remove_node(path, true); }

/* Move a node under a new parent and name; an existing non-directory target is replaced. */
static int h_rename(const char *oldpath, const char *newpath)
{
	struct hnode *n, *dir, *old, **pp;
	const char *last;
	int err = lookup(oldpath, &n, NULL, NULL);

	if (!err)
		err = lookup(newpath, NULL, &dir, &last);
	if (err)
		return err;
	if (n == root)
		return -EBUSY;
	for (struct hnode *d = dir; ; d = d->parent) {
		if (d == n)
			return -EINVAL;	/* into itself */
		if (d == root)
			break;
	}
	if (!lookup(newpath, &old, NULL, NULL)) {
		if (old == n)
			return 0;
		if (old->type == SH_FT_DIR)
			return -EISDIR;
		remove_node(newpath, false);
	}
	for (pp = &n->parent->children; *pp != n; pp = &(*pp)->next)
		;
	*pp = n->next;
	snprintf(n->name, sizeof(n->name), "%.*s", (int)strcspn(last, "/"), last);
	n->parent = dir;
	n->next = dir->children;
	dir->children = n;
	return 0;
}

static int h_chdir(const char *path)
{
	struct hnode *n;
	int err = lookup_dir(path, &n);

	if (err)
		return err;
	cur->cwd = n;
	return 0;
}

static int h_getcwd(char *buf, size_t size)
{
	char tmp[512] = "", part[512];

	for (struct hnode *n = cur->cwd; n != root; n = n->parent) {
		memcpy(part, tmp, sizeof(part));
		if (snprintf(tmp, sizeof(tmp), "/%.64s%.400s", n->name, part) >= (int)sizeof(tmp))
			return -ERANGE;
	}
	if (snprintf(buf, size, "%s", tmp[0] ? tmp : "/") >= (int)size)
		return -ERANGE;
	return 0;
}

static struct htask *new_task(pid_t ppid, const char *comm)
{
	struct htask *t = calloc(1, sizeof(*t));

	t->pid = ntasks + 1;
	t->ppid = ppid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	tasks[ntasks++] = t;
	return t;
}

static pid_t h_spawn(const struct sh_spawn *req)
{
	struct htask *parent = cur, *t;

	if (ntasks == HOST_NTASK)
		return -EAGAIN;
	for (int i = 0; i < 3; i++)
		if (!get_fd(req->fds[i]))
			return -EBADF;
	t = new_task(parent->pid, req->comm ? req->comm : parent->comm);
	t->nice = req->nice;
	t->cwd = parent->cwd;
	for (int i = 0; i < 3; i++) {
		t->fds[i] = parent->fds[req->fds[i]];
		t->fds[i]->ref++;
	}
	host_spawn_count++;
	cur = t;
	t->status = req->fn(req->arg) & 255;
	for (int fd = 0; fd < HOST_NFD; fd++)
		if (t->fds[fd])
			h_close(fd);
	t->exited = true;
	cur = parent;
	return t->pid;
}

/* Children run to the end inside h_spawn: a held one has already run. */
static void h_start(pid_t pid)
{
	(void)pid;
}

static pid_t h_wait(pid_t pid, int *status)
{
	for (int i = 0; i < ntasks; i++) {
		struct htask *t = tasks[i];

		if (t->ppid != cur->pid || t->reaped || (pid > 0 && t->pid != pid))
			continue;
		/* Every task has run to its end inside spawn(). */
		t->reaped = true;
		*status = t->status;
		return t->pid;
	}
	return -ECHILD;
}

static int h_kill(pid_t pid, int sig)
{
	if (pid <= 0 || pid > ntasks || tasks[pid - 1]->exited)
		return -ESRCH;
	if (sig < 0 || sig > 64)
		return -EINVAL;
	if (sig)
		tasks[pid - 1]->pending |= 1ULL << (sig - 1);
	return 0;
}

/* host_interrupt stands for a Ctrl-C (SIGINT) to whichever task looks. */
static u64 h_take_signals(void)
{
	u64 sigs = cur->pending | (host_interrupt ? 1ULL << 1 : 0);

	cur->pending = 0;
	host_interrupt = false;
	return sigs;
}

static pid_t h_getpid(void) { return cur->pid; }
static pid_t h_getppid(void) { return cur->ppid; }

static int h_for_each_task(int (*fn)(void *ctx, const struct sh_procinfo *p), void *ctx)
{
	for (int i = 0; i < ntasks; i++) {
		struct htask *t = tasks[i];
		struct sh_procinfo p = { .pid = t->pid, .ppid = t->ppid, .nice = t->nice,
					 .state = t == cur ? 'R' : 'S' };

		if (t->exited)
			continue;
		snprintf(p.comm, sizeof(p.comm), "%s", t->comm);
		if (fn(ctx, &p))
			break;
	}
	return 0;
}

static bool h_interrupted(void)
{
	bool r = host_interrupt || cur->pending;

	host_interrupt = false;
	return r;
}

/* Host threads have megabytes of stack: never the limit. */
static size_t h_stack_left(void) { return (size_t)1 << 20; }

static u64 h_now_ns(void) { return fake_now; }

static int h_sleep_ns(u64 ns)
{
	fake_now += ns;
	return 0;
}

static int h_nproc(void) { return 4; }

static ssize_t h_log_read(u64 *pos, char *buf, size_t len)
{
	static const char log[] = "[    0.000000] Spoor booting\n[    0.001000] test log line\n";
	size_t n = *pos < sizeof(log) - 1 ? min(len, sizeof(log) - 1 - *pos) : 0;

	memcpy(buf, log + *pos, n);
	*pos += n;
	return (ssize_t)n;
}

static int h_poweroff(bool reboot)
{
	host_poweroff_called = true;
	return -EPERM;
}

static ssize_t h_console_read(char *buf, size_t len)
{
	size_t n = host_console_input ? min(len, strlen(host_console_input)) : 0;

	if (n) {
		memcpy(buf, host_console_input, n);
		host_console_input += n;
	}
	return (ssize_t)n;
}

static void h_set_foreground(pid_t pid) { }

static bool h_isatty(int fd)
{
	return fd == 1 && host_stdout_tty;
}

static const char *const host_workloads[] = { "cpuhog", NULL };

static int h_run_workload(int argc, char **argv)
{
	char msg[64];
	int n = snprintf(msg, sizeof(msg), "workload %s with %d args\n", argv[0], argc - 1);

	h_write(1, msg, (size_t)n);
	return 0;
}

static const struct sh_os host_os = {
	.open = h_open, .read = h_read, .write = h_write, .close = h_close,
	.dup = h_dup, .dup2 = h_dup2, .pipe = h_pipe, .stat = h_stat, .lstat = h_stat,
	.readdir = h_readdir, .mkdir = h_mkdir, .unlink = h_unlink, .rmdir = h_rmdir,
	.rename = h_rename, .symlink = h_symlink, .chmod = h_chmod, .readlink = h_readlink, .chdir = h_chdir, .getcwd = h_getcwd, .spawn = h_spawn, .start = h_start, .wait = h_wait,
	.kill = h_kill, .take_signals = h_take_signals, .getpid = h_getpid, .getppid = h_getppid,
	.for_each_task = h_for_each_task, .interrupted = h_interrupted,
	.stack_left = h_stack_left, .now_ns = h_now_ns, .sleep_ns = h_sleep_ns, .nproc = h_nproc,
	.log_read = h_log_read, .poweroff = h_poweroff, .console_read = h_console_read,
	.set_foreground = h_set_foreground, .isatty = h_isatty, .workloads = host_workloads,
	.run_workload = h_run_workload,
};

void host_os_init(void)
{
	struct hnode *dev;

	root = new_node(NULL, "", SH_FT_DIR);
	new_node(root, "tmp", SH_FT_DIR);
	dev = new_node(root, "dev", SH_FT_DIR);
	new_node(dev, "null", SH_FT_REG)->null = true;
	ntasks = 0;
	cur = new_task(0, "init");
	cur->cwd = root;
	sh_os = &host_os;
	host_interrupt = false;
	host_stdout_tty = false;
	host_spawn_count = 0;
	host_console_input = NULL;
}

void host_os_exit(void)
{
	for (int fd = 0; fd < HOST_NFD; fd++)
		if (cur->fds[fd])
			h_close(fd);
	for (int i = 0; i < ntasks; i++)
		free(tasks[i]);
	ntasks = 0;
	cur = NULL;
	free_tree(root);
	root = NULL;
}

void host_put_file(const char *path, const char *content)
{
	int fd = h_open(path, SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC, 0644);

	if (fd < 0)
		abort();
	h_write(fd, content, strlen(content));
	h_close(fd);
}

char *host_get_file(const char *path)
{
	struct hnode *n;

	if (lookup(path, &n, NULL, NULL) || n->type != SH_FT_REG)
		return NULL;
	return strndup(n->data.s ? n->data.s : "", n->data.len);
}

void host_set_write_error(const char *path, int err)
{
	struct hnode *n;

	if (lookup(path, &n, NULL, NULL))
		abort();
	n->write_err = err;
}

/* A pipe holding text, its write end closed: the read end's fd. */
static int text_fd(const char *text)
{
	int fds[2];

	h_pipe(fds);
	h_write(fds[1], text, strlen(text));
	h_close(fds[1]);
	return fds[0];
}

static char *drain(int fd)
{
	struct sh_buf b = { 0 };
	char chunk[256];
	ssize_t n;

	while ((n = h_read(fd, chunk, sizeof(chunk))) > 0)
		sh_buf_put(&b, chunk, (size_t)n);
	h_close(fd);
	return sh_buf_take(&b);
}

/* Move fd out of the way of 0..2. */
static int high_fd(int fd)
{
	int nfd = h_dup(fd, 10);

	h_close(fd);
	return nfd;
}

int host_run(int (*fn)(void *arg), void *arg, const char *in, char **out, char **err)
{
	int ofds[2], efds[2], saved[3], ifd, status;

	for (int i = 0; i < 3; i++)
		saved[i] = cur->fds[i] ? high_fd(i) : -1;
	h_pipe(ofds);
	ofds[0] = high_fd(ofds[0]);
	ofds[1] = high_fd(ofds[1]);
	h_pipe(efds);
	efds[0] = high_fd(efds[0]);
	efds[1] = high_fd(efds[1]);
	ifd = high_fd(text_fd(in ? in : ""));
	h_dup2(ifd, 0);
	h_close(ifd);
	h_dup2(ofds[1], 1);
	h_close(ofds[1]);
	h_dup2(efds[1], 2);
	h_close(efds[1]);
	status = fn(arg);
	for (int i = 0; i < 3; i++) {
		h_close(i);
		if (saved[i] >= 0) {
			h_dup2(saved[i], i);
			h_close(saved[i]);
		}
	}
	*out = drain(ofds[0]);
	*err = drain(efds[0]);
	return status;
}

/*
 * trace-dump (trace/tracedat_dump.c) writes to an I/O port, so it is
 * kernel only; the command table still names it. On the host it fails
 * the way a missing dump port would.
 */
int cmd_trace_dump(int argc, char **argv, char **envp)
{
	h_write(2, "trace-dump: no dump port on the host\n", 37);
	return 1;
}
