/*
 * The spoor host command: one binary, one subcommand per file
 * (host-tools/<name>.c defines cmd_<name>). main.c dispatches.
 */
#ifndef HOST_TOOLS_SPOOR_H
#define HOST_TOOLS_SPOOR_H

int cmd_boot(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_kallsyms(int argc, char **argv);
int cmd_mkinitrd(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tevgen(int argc, char **argv);

/* The host tool's release; the kernel's is UTS_RELEASE (kernel/utsname.h). */
#define SPOOR_VERSION	"0.1.0"

/*
 * "spoor: <msg>" on stderr: every message of every subcommand, which
 * starts msg with its name ("exec: ..."). Only diagnostics about a line of
 * an input file use the compiler's FILE:LINE: form (tevgen).
 */
void spoor_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
