/*
 * basename PATH [SUFFIX] and dirname PATH: the last component of a path
 * and what leads to it, by the string rules of POSIX (no file is looked at).
 */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

/* Length of path without trailing slashes, keeping a lone "/". */
static size_t strip_slashes(const char *path, size_t n)
{
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

int cmd_basename(int argc, char **argv, char **envp)
{
	const char *path, *base;
	size_t n, sfx;
	struct sh_out o;

	if (argc < 2 || argc > 3) {
		sh_eprintf("basename: usage: basename PATH [SUFFIX]\n");
		return 2;
	}
	path = argv[1];
	n = strip_slashes(path, strlen(path));
	base = path;
	for (size_t i = 0; i + 1 < n; i++)
		if (path[i] == '/')
			base = path + i + 1;
	n -= (size_t)(base - path);
	/* A suffix equal to the whole name stays, as POSIX says. */
	sfx = argc == 3 ? strlen(argv[2]) : 0;
	if (sfx && sfx < n && !memcmp(base + n - sfx, argv[2], sfx))
		n -= sfx;
	out_init(&o, 1);
	out_put(&o, base, n);
	out_putc(&o, '\n');
	return out_finish(&o, "basename", 0);
}

int cmd_dirname(int argc, char **argv, char **envp)
{
	const char *path;
	size_t n;
	struct sh_out o;

	if (argc != 2) {
		sh_eprintf("dirname: usage: dirname PATH\n");
		return 2;
	}
	path = argv[1];
	n = strip_slashes(path, strlen(path));
	while (n && path[n - 1] != '/')
		n--;
	out_init(&o, 1);
	if (!n) {
		out_putc(&o, '.');
	} else {
		n = strip_slashes(path, n);
		out_put(&o, path, n);
	}
	out_putc(&o, '\n');
	return out_finish(&o, "dirname", 0);
}
