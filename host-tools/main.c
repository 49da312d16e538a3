/* spoor: the host side of Spoor. Dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>
#include "spoor.h"
#include "kernel/utsname.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "boot", cmd_boot, "boot the kernel in QEMU, console on this terminal" },
	{ "exec", cmd_exec, "run scripts in the guest shell: exec [OPTIONS] SCRIPT..." },
	{ "kallsyms", cmd_kallsyms, "build step: nm -n output on stdin -> symbol table assembly" },
	{ "mkinitrd", cmd_mkinitrd, "build a cpio (newc) initrd: mkinitrd -o OUT [HOST[:GUEST]]..." },
	{ "record", cmd_record, "boot, trace COMMAND, write a trace.dat: record [-e EVENT] [-o FILE] -- COMMAND" },
	{ "report", cmd_report, "print a trace.dat as trace-cmd report does: report [OPTIONS] [FILE]" },
	{ "tevgen", cmd_tevgen, "event spec -> TRACE_EVENT header: tevgen -o OUT.h SPEC (-F DIR: format files; -u: user_events header)" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: spoor COMMAND [ARGS]   (spoor help COMMAND, or spoor COMMAND --help)\n"
		"       spoor --version\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

static int find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return (int)i;
	spoor_err("unknown command '%s' (spoor help lists them)", name);
	return -1;
}

int main(int argc, char **argv)
{
	char prog[32];
	int i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("spoor %s (Spoor kernel %s; trace.dat v6/v7, Linux 6.18 event formats)\n",
		       SPOOR_VERSION, UTS_RELEASE);
		return 0;
	}
	/* spoor help [COMMAND]: git's spelling of COMMAND --help. */
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		char *help_argv[] = { argc > 2 ? argv[2] : NULL, "--help", NULL };

		if (argc < 3 || argv[1][0] == '-') {
			usage(stdout);
			return 0;
		}
		i = find_command(argv[2]);
		return i < 0 ? 2 : commands[i].fn(2, help_argv);
	}
	i = find_command(argv[1]);
	if (i < 0)
		return 2;
	/* getopt names argv[0] in its complaints: make them "spoor: CMD: ...", as ours. */
	snprintf(prog, sizeof(prog), "spoor: %s", commands[i].name);
	argv[1] = prog;
	return commands[i].fn(argc - 1, argv + 1);
}
