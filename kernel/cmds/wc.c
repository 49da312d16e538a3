/* wc [-lwc] [FILE]...: line, word and byte counts. */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

struct wc_counts {
	u64 lines, words, bytes;
};

static int count_fd(int fd, const char *name, struct wc_counts *c)
{
	bool in_word = false;
	char buf[1024];
	ssize_t n;

	while ((n = sh_os->read(fd, buf, sizeof(buf))) > 0) {
		c->bytes += (u64)n;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n')
				c->lines++;
			if (sh_isspace(buf[i])) {
				in_word = false;
			} else if (!in_word) {
				in_word = true;
				c->words++;
			}
		}
	}
	if (n < 0) {
		sh_eprintf("wc: %s: %s\n", name, errno_text((int)-n));
		return 1;
	}
	return 0;
}

static void print_counts(struct sh_out *o, const char *flags, struct wc_counts *c, const char *name)
{
	bool first = true;
	/* Alone, a count prints bare, which scripts compare with [ ... -eq ... ]. */
	int width = (flags[0] + flags[1] + flags[2] == 1 && !name) ? 1 : 7;

	if (flags[0]) {
		out_printf(o, "%*lu", width, (unsigned long)c->lines);
		first = false;
	}
	if (flags[1]) {
		out_printf(o, "%s%*lu", first ? "" : " ", width, (unsigned long)c->words);
		first = false;
	}
	if (flags[2])
		out_printf(o, "%s%*lu", first ? "" : " ", width, (unsigned long)c->bytes);
	if (name)
		out_printf(o, " %s", name);
	out_putc(o, '\n');
}

int cmd_wc(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	struct wc_counts total = { 0 };
	char flags[3] = { 0 };
	struct sh_out o;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "lwc")) != -1) {
		if (c == '?')
			return 2;
		flags[c == 'l' ? 0 : c == 'w' ? 1 : 2] = 1;
	}
	if (!flags[0] && !flags[1] && !flags[2])
		flags[0] = flags[1] = flags[2] = 1;
	out_init(&o, 1);
	if (g.ind == argc) {
		struct wc_counts cnt = { 0 };

		status = count_fd(0, "-", &cnt);
		print_counts(&o, flags, &cnt, NULL);
	}
	for (int i = g.ind; i < argc; i++) {
		struct wc_counts cnt = { 0 };
		int fd = sh_open_input("wc", argv[i]);

		if (fd < 0) {
			status = 1;
			continue;
		}
		status |= count_fd(fd, argv[i], &cnt);
		sh_os->close(fd);
		print_counts(&o, flags, &cnt, argv[i]);
		total.lines += cnt.lines;
		total.words += cnt.words;
		total.bytes += cnt.bytes;
	}
	if (argc - g.ind > 1)
		print_counts(&o, flags, &total, "total");
	return out_finish(&o, "wc", status);
}
