/*
 * readlink [-f|-e] [-nqsv] FILE...: the target of each symbolic link;
 * -f prints the canonical path instead: absolute, every link followed, no
 * ".", ".." or "//", where all but the last component must exist (-e: all
 * of them). A file that fails is status 1 and, as in GNU readlink, silent
 * unless -v asks why (-q and -s keep it silent).
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define READLINK_MAX	4096
#define MAX_LINKS	40	/* Linux's limit on links followed in one lookup: ELOOP past it */

/* The target of link path into a new string; NULL with *err set if none. */
static char *read_target(const char *path, int *err)
{
	char *buf = kmalloc(READLINK_MAX + 1, GFP_KERNEL);
	ssize_t n;

	if (!buf) {
		*err = -ENOMEM;
		return NULL;
	}
	n = sh_os->readlink(path, buf, READLINK_MAX);
	if (n < 0) {
		*err = (int)n;
		kfree(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* Drop the last component of the absolute path in b ("/" stays). */
static void drop_last(struct sh_buf *b)
{
	while (b->len > 1 && b->s[b->len - 1] != '/')
		b->len--;
	if (b->len > 1)
		b->len--;
	b->s[b->len] = '\0';
}

/*
 * Canonicalize path into *out (kmalloc'd): walk its components, taking a
 * link's target in place of the link. 0 or a negative errno.
 */
static int canonicalize(const char *path, bool all_exist, char **out)
{
	struct sh_buf res = { 0 }, todo = { 0 };
	int links = 0, err = 0;
	size_t pos = 0;

	if (path[0] != '/') {
		char cwd[512];
		int n = sh_os->getcwd(cwd, sizeof(cwd));

		if (n < 0)
			return n;
		sh_buf_printf(&todo, "%s/", cwd);
	}
	sh_buf_puts(&todo, path);
	sh_buf_puts(&res, "/");
	while (!err && !todo.oom && pos < todo.len) {
		size_t len = strcspn(todo.s + pos, "/");
		char *comp = todo.s + pos, *target;
		bool last = !todo.s[pos + len + strspn(todo.s + pos + len, "/")];
		size_t mark = res.len;
		struct sh_stat st;
		int lerr;

		pos += len + strspn(todo.s + pos + len, "/");
		if (!len || (len == 1 && comp[0] == '.'))
			continue;
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			drop_last(&res);
			continue;
		}
		if (res.len > 1)
			sh_buf_putc(&res, '/');
		sh_buf_put(&res, comp, len);
		if (res.oom)
			break;
		target = read_target(res.s, &lerr);
		if (target) {
			struct sh_buf next = { 0 };

			if (++links > MAX_LINKS) {
				kfree(target);
				err = -ELOOP;
				break;
			}
			/* The target, then what was left of the path. */
			sh_buf_printf(&next, "%s/%s", target, todo.s + pos);
			kfree(target);
			sh_buf_free(&todo);
			todo = next;
			pos = 0;
			res.len = todo.s && todo.s[0] == '/' ? 1 : mark;
			res.s[res.len] = '\0';
			continue;
		}
		if (lerr == -ENOENT && last && !all_exist)
			break;
		if (lerr != -EINVAL)
			err = lerr;
		else if (!last && (err = sh_os->stat(res.s, &st)) == 0 && st.type != SH_FT_DIR)
			err = -ENOTDIR;
	}
	if (!err && (res.oom || todo.oom))
		err = -ENOMEM;
	sh_buf_free(&todo);
	if (err) {
		sh_buf_free(&res);
		return err;
	}
	*out = sh_buf_take(&res);
	return *out ? 0 : -ENOMEM;
}

int cmd_readlink(int argc, char **argv, char **envp)
{
	bool canon = false, all_exist = false, newline = true, verbose = false;
	struct sh_getopt g = { 0 };
	struct sh_out o;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "fenqsv")) != -1) {
		if (c == '?')
			return 1;
		canon |= c == 'f' || c == 'e';
		all_exist |= c == 'e';
		newline &= c != 'n';
		if (c == 'v' || c == 'q' || c == 's')
			verbose = c == 'v';
	}
	if (g.ind == argc) {
		sh_eprintf("readlink: missing operand\n");
		return 1;
	}
	out_init(&o, 1);
	for (int i = g.ind; i < argc; i++) {
		char *s = NULL;
		int err = 0;

		if (canon)
			err = canonicalize(argv[i], all_exist, &s);
		else
			s = read_target(argv[i], &err);
		if (err) {
			if (verbose || err == -ENOMEM)
				sh_eprintf("readlink: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
			continue;
		}
		out_puts(&o, s);
		if (newline)
			out_putc(&o, '\n');
		kfree(s);
	}
	return out_finish(&o, "readlink", status);
}
