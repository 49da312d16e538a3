/*
 * ls [-la1C] [PATH]...: directory contents sorted by name; -l with type,
 * mode and size. As POSIX ls: names in columns (sorted down, then across)
 * when stdout is a terminal or with -C, one per line otherwise or with -1.
 * The width is $COLUMNS, else 80 (a serial console reports none).
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define LS_GAP		2	/* blanks between columns */

struct ls_opts {
	bool all, longfmt, columns;
	int width;
	struct sh_out o;
};

/* The most columns whose widest names fit in opt->width. */
static int fit_columns(struct ls_opts *opt, char **names, int n, int *colw)
{
	for (int cols = n; cols > 1; cols--) {
		int rows = (n + cols - 1) / cols, total = 0;

		if ((rows - 1) * cols >= n)
			continue;	/* the same rows with fewer columns */
		for (int c = 0; c < cols; c++) {
			colw[c] = 0;
			for (int r = 0; r < rows && c * rows + r < n; r++)
				colw[c] = max(colw[c], (int)strlen(names[c * rows + r]));
			total += colw[c] + (c + 1 < cols ? LS_GAP : 0);
		}
		if (total < opt->width)	/* as GNU ls: no line fills the width */
			return cols;
	}
	return 1;
}

static void print_columns(struct ls_opts *opt, char **names, int n)
{
	int *colw = kcalloc(max(n, 1), sizeof(*colw), GFP_KERNEL);
	int cols = colw ? fit_columns(opt, names, n, colw) : 1;
	int rows = (n + cols - 1) / cols;

	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++) {
			int i = c * rows + r;
			bool last = c + 1 == cols || i + rows >= n;

			if (i >= n)
				break;
			if (last)
				out_printf(&opt->o, "%s", names[i]);
			else
				out_printf(&opt->o, "%-*s", colw[c] + LS_GAP, names[i]);
			if (last)
				break;
		}
		out_putc(&opt->o, '\n');
	}
	kfree(colw);
}

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

/* Names in dir ("" for operands as given): in columns, or one entry per line. */
static void print_names(struct ls_opts *opt, const char *dir, char **names, int n)
{
	if (opt->columns && !opt->longfmt) {
		print_columns(opt, names, n);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct sh_buf path = { 0 };

		sh_buf_printf(&path, "%s%s%s", dir, *dir ? "/" : "", names[i]);
		print_entry(opt, path.s ? path.s : "", names[i]);
		sh_buf_free(&path);
	}
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
	if (!opt->all) {	/* drop dot files, keeping the order */
		int kept = 0;

		for (int i = 0; i < names.argc; i++) {
			if (names.argv[i][0] == '.')
				kfree(names.argv[i]);
			else
				names.argv[kept++] = names.argv[i];
		}
		names.argc = kept;
		if (names.argv)
			names.argv[kept] = NULL;
	}
	print_names(opt, dir, names.argv, names.argc);
	sh_argv_free(&names);
	return 0;
}

int cmd_ls(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	struct ls_opts opt = { 0 };
	struct sh_argv files = { 0 }, dirs = { 0 };
	int c, status = 0;

	opt.columns = sh_os->isatty(1);
	opt.width = 80;
	for (char **e = envp; e && *e; e++) {
		long long w;

		if (!strncmp(*e, "COLUMNS=", 8) && !sh_parse_int(*e + 8, &w) && w > 0 && w < 10000)
			opt.width = (int)w;
	}
	while ((c = sh_getopt(&g, argc, argv, "la1C")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'l')
			opt.longfmt = true;
		else if (c == 'a')
			opt.all = true;
		else if (c == '1' || c == 'C')
			opt.columns = c == 'C';
	}
	out_init(&opt.o, 1);
	if (g.ind == argc)
		status = list_dir(&opt, ".");
	/* As POSIX ls: the operands that are no directories first, then each directory. */
	for (int i = g.ind; i < argc; i++) {
		struct sh_stat st;
		/* ls -l shows a link operand itself; plain ls lists what it points to. */
		int err = opt.longfmt ? sh_os->lstat(argv[i], &st) : sh_os->stat(argv[i], &st);

		if (err) {
			out_flush(&opt.o);
			sh_eprintf("ls: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		} else if (st.type == SH_FT_DIR) {
			sh_argv_push(&dirs, kstrdup(argv[i], GFP_KERNEL));
		} else {
			sh_argv_push(&files, kstrdup(argv[i], GFP_KERNEL));
		}
	}
	if (files.oom || dirs.oom) {
		sh_eprintf("ls: %s\n", errno_text(ENOMEM));
		status = 1;
	}
	sh_sort_strings(files.argv, (size_t)files.argc);
	sh_sort_strings(dirs.argv, (size_t)dirs.argc);
	print_names(&opt, "", files.argv, files.argc);
	for (int i = 0; i < dirs.argc; i++) {
		if (argc - g.ind > 1)
			out_printf(&opt.o, "%s%s:\n", i || files.argc ? "\n" : "", dirs.argv[i]);
		status |= list_dir(&opt, dirs.argv[i]);
	}
	sh_argv_free(&files);
	sh_argv_free(&dirs);
	return out_finish(&opt.o, "ls", status);
}
