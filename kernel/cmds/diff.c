/*
 * diff FILE1 FILE2: line differences in the normal format (2c2, < old,
 * ---, > new) from a longest common subsequence; status 0 same, 1
 * different, 2 trouble. Files too big for the table only say they differ.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>

#define DIFF_MAX_CELLS	(1L << 20)

static int read_lines(const char *path, struct sh_argv *lines)
{
	int fd = sh_open_input("diff", path);
	struct sh_in in;
	char *line;

	if (fd < 0)
		return fd;
	in_init(&in, fd);
	while (in_getline(&in, &line, NULL) >= 0)
		sh_argv_push(lines, kstrdup(line, GFP_KERNEL));
	in_free(&in);
	sh_os->close(fd);
	return lines->oom ? -ENOMEM : 0;
}

static void print_range(struct sh_out *o, int from, int to)
{
	if (to - from <= 1)
		out_printf(o, "%d", to > from ? from + 1 : from);
	else
		out_printf(o, "%d,%d", from + 1, to);
}

/* One hunk: a[a0..a1) replaced by b[b0..b1). */
static void hunk(struct sh_out *o, struct sh_argv *a, int a0, int a1, struct sh_argv *b, int b0, int b1)
{
	print_range(o, a0, a1);
	out_putc(o, a1 == a0 ? 'a' : b1 == b0 ? 'd' : 'c');
	print_range(o, b0, b1);
	out_putc(o, '\n');
	for (int i = a0; i < a1; i++)
		out_printf(o, "< %s\n", a->argv[i]);
	if (a1 > a0 && b1 > b0)
		out_puts(o, "---\n");
	for (int i = b0; i < b1; i++)
		out_printf(o, "> %s\n", b->argv[i]);
}

static int diff_lines(struct sh_out *o, struct sh_argv *a, struct sh_argv *b)
{
	int n = a->argc, m = b->argc, i = 0, j = 0, differ = 0;
	u16 *lcs;

#define L(x, y) lcs[(long)(x) * (m + 1) + (y)]
	if ((long)(n + 1) * (m + 1) > DIFF_MAX_CELLS || n > 65535 || m > 65535)
		return -EFBIG;
	lcs = kzalloc(sizeof(u16) * (size_t)(n + 1) * (size_t)(m + 1), GFP_KERNEL);
	if (!lcs)
		return -ENOMEM;
	/* L(x, y): the LCS length of a[x..] and b[y..]. */
	for (int x = n - 1; x >= 0; x--)
		for (int y = m - 1; y >= 0; y--)
			L(x, y) = !strcmp(a->argv[x], b->argv[y]) ? L(x + 1, y + 1) + 1 :
				  max(L(x + 1, y), L(x, y + 1));
	while (i < n || j < m) {
		int i0 = i, j0 = j;

		while (i < n && j < m && !strcmp(a->argv[i], b->argv[j]))
			i++, j++;
		i0 = i, j0 = j;
		while ((i < n || j < m) && !(i < n && j < m && !strcmp(a->argv[i], b->argv[j]) &&
					     L(i, j) == L(i + 1, j + 1) + 1)) {
			if (j < m && (i == n || L(i, j + 1) >= L(i + 1, j)))
				j++;
			else
				i++;
		}
		if (i > i0 || j > j0) {
			hunk(o, a, i0, i, b, j0, j);
			differ = 1;
		}
	}
#undef L
	kfree(lcs);
	return differ;
}

int cmd_diff(int argc, char **argv, char **envp)
{
	struct sh_argv a = { 0 }, b = { 0 };
	struct sh_out o;
	int r;

	if (argc != 3) {
		sh_eprintf("diff: usage: diff FILE1 FILE2\n");
		return 2;
	}
	if (read_lines(argv[1], &a) || read_lines(argv[2], &b)) {
		sh_argv_free(&a);
		sh_argv_free(&b);
		return 2;
	}
	out_init(&o, 1);
	r = diff_lines(&o, &a, &b);
	if (r == -EFBIG) {
		bool same = a.argc == b.argc;

		for (int i = 0; same && i < a.argc; i++)
			same = !strcmp(a.argv[i], b.argv[i]);
		if (!same)
			out_printf(&o, "Files %s and %s differ\n", argv[1], argv[2]);
		r = !same;
	} else if (r < 0) {
		sh_eprintf("diff: %s\n", errno_text(-r));
		r = 2;
	}
	sh_argv_free(&a);
	sh_argv_free(&b);
	return out_finish(&o, "diff", r);
}
