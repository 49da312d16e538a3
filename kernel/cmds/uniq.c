/* uniq [-c] [FILE]: adjacent repeated lines folded into one (with -c, counted). */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

static void flush_run(struct sh_out *o, struct sh_buf *prev, long count, bool counts)
{
	if (!count)
		return;
	if (counts)
		out_printf(o, "%7ld ", count);
	out_put(o, prev->s ? prev->s : "", prev->len);
	out_putc(o, '\n');
}

int cmd_uniq(int argc, char **argv, char **envp)
{
	struct sh_buf prev = { 0 };
	struct sh_getopt g = { 0 };
	bool counts = false;
	struct sh_out o;
	struct sh_in in;
	long count = 0;
	int c, fd = 0;
	ssize_t len;
	char *line;

	while ((c = sh_getopt(&g, argc, argv, "c")) != -1) {
		if (c == '?')
			return 2;
		counts = true;
	}
	if (g.ind < argc && (fd = sh_open_input("uniq", argv[g.ind])) < 0)
		return 1;
	out_init(&o, 1);
	in_init(&in, fd);
	while ((len = in_getline(&in, &line, NULL)) >= 0) {
		if (count && (size_t)len == prev.len && !memcmp(line, prev.s ? prev.s : "", (size_t)len)) {
			count++;
			continue;
		}
		flush_run(&o, &prev, count, counts);
		sh_buf_free(&prev);
		sh_buf_put(&prev, line, (size_t)len);
		count = 1;
	}
	flush_run(&o, &prev, count, counts);
	sh_buf_free(&prev);
	in_free(&in);
	if (fd)
		sh_os->close(fd);
	return out_finish(&o, "uniq", 0);
}
