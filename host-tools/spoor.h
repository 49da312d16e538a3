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
int cmd_report(int argc, char **argv);
int cmd_tevgen(int argc, char **argv);

/* "spoor: <msg>" on stderr. */
void spoor_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
