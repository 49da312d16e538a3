/*
 * mktemp [-d] [-p DIR] [TEMPLATE]: make a file (or directory) with a
 * unique name and print it. The template's trailing X's (at least 3)
 * become random letters; without one, tmp.XXXXXXXXXX in $TMPDIR or /tmp.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_util.h>

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

int cmd_mktemp(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	const char *dir = NULL, *tmpl = "tmp.XXXXXXXXXX";
	bool mkdir_ = false;
	char path[256];
	size_t len, xs = 0;
	u64 seed = sh_os->now_ns() ^ ((u64)sh_os->getpid() << 32);
	int c;

	while ((c = sh_getopt(&g, argc, argv, "dqp:t")) != -1) {
		if (c == '?')
			return 1;
		if (c == 'd')
			mkdir_ = true;
		else if (c == 'p')
			dir = g.arg;
	}
	if (g.ind < argc)
		tmpl = argv[g.ind];
	if (!dir && !strchr(tmpl, '/')) {
		for (char **e = envp; e && *e; e++)
			if (!strncmp(*e, "TMPDIR=", 7) && (*e)[7])
				dir = *e + 7;
		if (!dir)
			dir = "/tmp";
	}
	if (snprintf(path, sizeof(path), "%s%s%s", dir && !strchr(tmpl, '/') ? dir : "",
		     dir && !strchr(tmpl, '/') ? "/" : "", tmpl) >= (int)sizeof(path)) {
		sh_eprintf("mktemp: template too long\n");
		return 1;
	}
	len = strlen(path);
	while (xs < len && path[len - 1 - xs] == 'X')
		xs++;
	if (xs < 3) {
		sh_eprintf("mktemp: too few X's in template '%s'\n", tmpl);
		return 1;
	}
	for (int tries = 0; tries < 100; tries++) {
		int r;

		for (size_t i = len - xs; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			path[i] = letters[(seed >> 33) % (sizeof(letters) - 1)];
		}
		if (mkdir_) {
			r = sh_os->mkdir(path, 0700);
		} else {
			r = sh_os->open(path, SH_O_WRONLY | SH_O_CREAT | SH_O_EXCL, 0600);
			if (r >= 0)
				sh_os->close(r);
		}
		if (r >= 0) {
			{
			struct sh_out o;

			out_init(&o, 1);
			out_printf(&o, "%s\n", path);
			return out_finish(&o, "mktemp", 0);
		}
		}
		if (r != -EEXIST) {
			sh_eprintf("mktemp: failed to create %s via template '%s': %s\n",
				   mkdir_ ? "directory" : "file", tmpl, errno_text(-r));
			return 1;
		}
	}
	sh_eprintf("mktemp: no unique name for template '%s'\n", tmpl);
	return 1;
}
