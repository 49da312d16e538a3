/* spoor: the host side of Spoor. Dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>
#include "spoor.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "boot", cmd_boot, "boot the kernel in QEMU, console on this terminal" },
	{ "exec", cmd_exec, "run scripts in the guest shell: exec [OPTIONS] SCRIPT..." },
	{ "kallsyms", cmd_kallsyms, "build step: nm -n output on stdin -> symbol table assembly" },
	{ "mkinitrd", cmd_mkinitrd, "build a cpio (newc) initrd: mkinitrd -o OUT [HOST[:GUEST]]..." },
	{ "report", cmd_report, "print a trace.dat as trace-cmd report does: report [OPTIONS] [FILE]" },
	{ "tevgen", cmd_tevgen, "event spec -> TRACE_EVENT header: tevgen -o OUT.h SPEC (-F DIR: format files)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: spoor COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	spoor_err("unknown command '%s' (spoor --help lists them)", argv[1]);
	return 2;
}
