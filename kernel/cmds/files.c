/* mkdir [-p], rmdir, rm [-rf] and cp: the file-tree commands. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* mkdir -p: every missing component, no error if it exists. */
static int mkdir_parents(const char *path)
{
	char *p = kstrdup(path, GFP_KERNEL);
	int err = 0;

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char save = *s;
			struct sh_stat st;

			*s = '\0';
			err = sh_os->mkdir(p, 0755);
			if (err == -EEXIST && !sh_os->stat(p, &st) && st.type == SH_FT_DIR)
				err = 0;
			*s = save;
			if (err || !save)
				break;
		}
	}
	kfree(p);
	return err;
}

int cmd_mkdir(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	bool parents = false;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "p")) != -1) {
		if (c == '?')
			return 2;
		parents = true;
	}
	for (int i = g.ind; i < argc; i++) {
		int err = parents ? mkdir_parents(argv[i]) : sh_os->mkdir(argv[i], 0755);

		if (err) {
			sh_eprintf("mkdir: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}

int cmd_rmdir(int argc, char **argv, char **envp)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		int err = sh_os->rmdir(argv[i]);

		if (err) {
			sh_eprintf("rmdir: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}

static int collect_name(void *ctx, const char *name, enum sh_ftype type)
{
	if (strcmp(name, ".") && strcmp(name, ".."))
		sh_argv_push(ctx, kstrdup(name, GFP_KERNEL));
	return 0;
}

static int remove_tree(const char *path, int depth)
{
	struct sh_argv names = { 0 };
	int err;

	if (depth > 32)
		return -ELOOP;
	err = sh_os->readdir(path, collect_name, &names);
	for (int i = 0; !err && i < names.argc; i++) {
		struct sh_buf child = { 0 };
		struct sh_stat st;

		sh_buf_printf(&child, "%s/%s", path, names.argv[i]);
		if (!child.s)
			err = -ENOMEM;
		else if (!(err = sh_os->stat(child.s, &st)))
			err = st.type == SH_FT_DIR ? remove_tree(child.s, depth + 1) : sh_os->unlink(child.s);
		if (err)
			sh_eprintf("rm: %s: %s\n", child.s ? child.s : path, errno_text(-err));
		sh_buf_free(&child);
	}
	sh_argv_free(&names);
	return err ? err : sh_os->rmdir(path);
}

int cmd_rm(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	bool recursive = false, force = false;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "rRf")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'f')
			force = true;
		else
			recursive = true;
	}
	for (int i = g.ind; i < argc; i++) {
		struct sh_stat st;
		int err = sh_os->stat(argv[i], &st);

		if (!err && st.type == SH_FT_DIR)
			err = recursive ? remove_tree(argv[i], 0) : -EISDIR;
		else if (!err)
			err = sh_os->unlink(argv[i]);
		if (err && !(force && err == -ENOENT)) {
			sh_eprintf("rm: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}

static int copy_file(const char *src, const char *dst)
{
	int in = sh_os->open(src, SH_O_RDONLY, 0), out, err = 0;
	char buf[1024];
	ssize_t n;

	if (in < 0) {
		sh_eprintf("cp: %s: %s\n", src, errno_text(-in));
		return 1;
	}
	out = sh_os->open(dst, SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC, 0644);
	if (out < 0) {
		sh_eprintf("cp: %s: %s\n", dst, errno_text(-out));
		sh_os->close(in);
		return 1;
	}
	while ((n = sh_os->read(in, buf, sizeof(buf))) > 0 && !(err = sh_write_all(out, buf, (size_t)n)))
		;
	if (n < 0 || err)
		sh_eprintf("cp: %s: %s\n", n < 0 ? src : dst, errno_text(n < 0 ? (int)-n : -err));
	sh_os->close(in);
	sh_os->close(out);
	return n < 0 || err;
}

int cmd_cp(int argc, char **argv, char **envp)
{
	const char *dest = argv[argc - 1];
	struct sh_stat st;
	bool to_dir;
	int status = 0;

	if (argc < 3) {
		sh_eprintf("cp: usage: cp SRC... DEST\n");
		return 2;
	}
	to_dir = !sh_os->stat(dest, &st) && st.type == SH_FT_DIR;
	if (argc > 3 && !to_dir) {
		sh_eprintf("cp: %s: %s\n", dest, errno_text(ENOTDIR));
		return 1;
	}
	for (int i = 1; i < argc - 1; i++) {
		struct sh_buf path = { 0 };
		const char *base = strrchr(argv[i], '/');

		if (to_dir)
			sh_buf_printf(&path, "%s/%s", dest, base ? base + 1 : argv[i]);
		else
			sh_buf_puts(&path, dest);
		status |= path.s ? copy_file(argv[i], path.s) : 1;
		sh_buf_free(&path);
	}
	return status;
}
