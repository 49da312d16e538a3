/*
 * head [-n N | -c N] and tail [-n [+]N | -c N] [FILE]...: the first or
 * last N lines (10 by default) or bytes, tail's lines from line N on.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

static void head_fd(struct sh_out *o, int fd, long long n)
{
	struct sh_in in;
	char *line;
	bool nl;

	in_init(&in, fd);
	for (long long i = 0; i < n && in_getline(&in, &line, &nl) >= 0; i++) {
		out_puts(o, line);
		if (nl)
			out_putc(o, '\n');
	}
	in_free(&in);
}

static void head_bytes(struct sh_out *o, int fd, long long n)
{
	char buf[512];
	ssize_t got;

	while (n > 0 && (got = sh_os->read(fd, buf, n < (long long)sizeof(buf) ? (size_t)n : sizeof(buf))) > 0) {
		out_put(o, buf, (size_t)got);
		n -= got;
	}
}

/* tail -n +N: everything from line n on. */
static void tail_from(struct sh_out *o, int fd, long long n)
{
	struct sh_in in;
	long long count = 0;
	char *line;
	bool nl;

	in_init(&in, fd);
	while (in_getline(&in, &line, &nl) >= 0) {
		if (++count < n)
			continue;
		out_puts(o, line);
		if (nl)
			out_putc(o, '\n');
	}
	in_free(&in);
}

/* The last n bytes, kept in a ring of n. */
static void tail_bytes(struct sh_out *o, int fd, long long n)
{
	char *ring = n > 0 ? kmalloc((size_t)n, GFP_KERNEL) : NULL, buf[512];
	long long count = 0;
	ssize_t got;

	if (n > 0 && !ring)
		return;
	while ((got = sh_os->read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < got && n; i++)
			ring[count++ % n] = buf[i];
	for (long long i = count > n ? count - n : 0; i < count; i++)
		out_putc(o, ring[i % n]);
	kfree(ring);
}

/* The last n lines, kept in a ring of n strings. */
static void tail_fd(struct sh_out *o, int fd, long long n)
{
	char **ring = n > 0 ? kcalloc((size_t)n, sizeof(*ring), GFP_KERNEL) : NULL;
	long long count = 0;
	struct sh_in in;
	char *line;
	bool nl;

	if (n > 0 && !ring)
		return;
	in_init(&in, fd);
	while (in_getline(&in, &line, &nl) >= 0) {
		if (!n)
			continue;
		kfree(ring[count % n]);
		ring[count % n] = kstrdup(line, GFP_KERNEL);
		count++;
	}
	for (long long i = count > n ? count - n : 0; i < count; i++) {
		if (ring[i % n])
			out_puts(o, ring[i % n]);
		out_putc(o, '\n');
	}
	for (long long i = 0; i < n; i++)
		kfree(ring[i]);
	kfree(ring);
	in_free(&in);
}

static int head_tail(int argc, char **argv, bool tail)
{
	void (*show)(struct sh_out *o, int fd, long long n) = tail ? tail_fd : head_fd;
	struct sh_getopt g = { 0 };
	long long n = 10;
	struct sh_out o;
	int c, status = 0;

	/* The old form: head -5. */
	if (argc > 1 && argv[1][0] == '-' && sh_isdigit(argv[1][1])) {
		if (sh_parse_int(argv[1] + 1, &n)) {
			sh_eprintf("%s: invalid number of lines: '%s'\n", argv[0], argv[1] + 1);
			return 2;
		}
		g.ind = 2;
	}
	while ((c = sh_getopt(&g, argc, argv, "n:c:")) != -1) {
		if (c == '?')
			return 2;
		if (tail && c == 'n' && g.arg[0] == '+')
			show = tail_from;
		else if (c == 'c')
			show = tail ? tail_bytes : head_bytes;
		else
			show = tail ? tail_fd : head_fd;
		if (sh_parse_int(g.arg, &n) || n < 0) {
			sh_eprintf("%s: invalid number of %s: '%s'\n", argv[0], c == 'c' ? "bytes" : "lines",
				   g.arg);
			return 2;
		}
	}
	out_init(&o, 1);
	if (g.ind == argc)
		show(&o, 0, n);
	for (int i = g.ind; i < argc; i++) {
		int fd = sh_open_input(argv[0], argv[i]);

		if (fd < 0) {
			status = 1;
			continue;
		}
		if (argc - g.ind > 1)
			out_printf(&o, "%s==> %s <==\n", i > g.ind ? "\n" : "", argv[i]);
		show(&o, fd, n);
		sh_os->close(fd);
	}
	return out_finish(&o, argv[0], status);
}

int cmd_head(int argc, char **argv, char **envp)
{
	return head_tail(argc, argv, false);
}

int cmd_tail(int argc, char **argv, char **envp)
{
	return head_tail(argc, argv, true);
}
