/*
 * spoor boot [OPTIONS] [-- QEMU-ARGS]: the kernel under QEMU with its
 * console on this terminal (what `ninja run` does). QEMU replaces this
 * process, so its exit status is ours: 0 after poweroff, 33 after a panic.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "qemu.h"
#include "spoor.h"

static const char usage[] =
	"usage: spoor boot [OPTIONS] [-- QEMU-ARGS...]\n"
	"Boot Spoor in QEMU with the console on this terminal (Ctrl-A x quits).\n"
	QEMU_OPTIONS_HELP;

int cmd_boot(int argc, char **argv)
{
	static const struct option longopts[] = {
		QEMU_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct qemu_config cfg;
	char **qargv;
	int opt;

	qemu_config_init(&cfg);
	cfg.interactive = true;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage, stdout);
			return 0;
		}
		if (qemu_config_option(&cfg, opt, optarg) != 0) {
			fputs(usage, stderr);
			return 2;
		}
	}
	/* getopt_long has consumed a "--"; what follows goes to QEMU. */
	if (optind < argc && strcmp(argv[optind - 1], "--")) {
		spoor_err("boot: unexpected argument '%s' (QEMU arguments go after --)", argv[optind]);
		return 2;
	}
	cfg.extra = argv + optind;
	cfg.nr_extra = argc - optind;
	if (qemu_config_check(&cfg) < 0)
		return 1;
	if (cfg.want_iso) {
		cfg.iso = spoor_build_file("spoor.iso");
		if (access(cfg.iso, R_OK) < 0) {
			spoor_err("%s: %s; run ninja to build it", cfg.iso, strerror(errno));
			return 1;
		}
	}
	qargv = qemu_argv(&cfg);
	fflush(stdout);
	execvp(qargv[0], qargv);
	spoor_err("cannot run %s: %s", qargv[0], strerror(errno));
	qemu_argv_free(qargv);
	return 1;
}
