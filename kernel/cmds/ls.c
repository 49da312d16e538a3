/* ls [-la1] [PATH]...: directory contents sorted by name; -l with type, mode and size. */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

struct ls_opts {
	bool all, longfmt;
	struct sh_out o;
};

static void print_entry(struct ls_opts *opt, const char *path, const char *name)
{
	struct sh_stat st;
	char mode[11];

	if (!opt->longfmt) {
		out_printf(&opt->o, "%s\n", name);
		return;
	}
	if (sh_os->lstat(path, &st)) {
		out_printf(&opt->o, "?????????? ? %s\n", name);
		return;
	}
	sh_mode_string(&st, mode);
	out_printf(&opt->o, "%s %2u root root %8lu %s", mode, st.nlink, (unsigned long)st.size, name);
	if (st.type == SH_FT_LNK) {
		char target[256];
		ssize_t n = sh_os->readlink(path, target, sizeof(target));

		if (n >= 0)
			out_printf(&opt->o, " -> %.*s", (int)n, target);
	}
	out_putc(&opt->o, '\n');
}

static int collect(void *ctx, const char *name, enum sh_ftype type)
{
	sh_argv_push(ctx, kstrdup(name, GFP_KERNEL));
	return 0;
}

static int list_dir(struct ls_opts *opt, const char *dir)
{
	struct sh_argv names = { 0 };
	int err = sh_os->readdir(dir, collect, &names);

	if (err) {
		sh_eprintf("ls: %s: %s\n", dir, errno_text(-err));
		return 1;
	}
	sh_sort_strings(names.argv, (size_t)names.argc);
	for (int i = 0; i < names.argc; i++) {
		struct sh_buf path = { 0 };

		if (names.argv[i][0] == '.' && !opt->all)
			continue;
		sh_buf_printf(&path, "%s/%s", dir, names.argv[i]);
		print_entry(opt, path.s ? path.s : "", names.argv[i]);
		sh_buf_free(&path);
	}
	sh_argv_free(&names);
	return 0;
}

int cmd_ls(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	struct ls_opts opt = { 0 };
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "la1")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'l')
			opt.longfmt = true;
		else if (c == 'a')
			opt.all = true;
	}
	out_init(&opt.o, 1);
	if (g.ind == argc)
		status = list_dir(&opt, ".");
	for (int i = g.ind; i < argc; i++) {
		struct sh_stat st;
		/* ls -l shows a link operand itself; plain ls lists what it points to. */
		int err = opt.longfmt ? sh_os->lstat(argv[i], &st) : sh_os->stat(argv[i], &st);

		if (err) {
			out_flush(&opt.o);
			sh_eprintf("ls: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		} else if (st.type == SH_FT_DIR) {
			if (argc - g.ind > 1)
				out_printf(&opt.o, "%s%s:\n", i > g.ind ? "\n" : "", argv[i]);
			status |= list_dir(&opt, argv[i]);
		} else {
			print_entry(&opt, argv[i], argv[i]);
		}
	}
	return out_finish(&opt.o, "ls", status);
}
