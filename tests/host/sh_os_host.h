/* The host sh_os (sh_os_host.c): what unit tests of the shell control and inspect. */
#ifndef TESTS_HOST_SH_OS_HOST_H
#define TESTS_HOST_SH_OS_HOST_H

#include <kernel/types.h>

/* A fresh tree (/, /tmp, /dev/null), one task, sh_os pointing here. */
void host_os_init(void);
/* Free everything, so leak checking sees only real leaks. */
void host_os_exit(void);

void host_put_file(const char *path, const char *content);
/* The content of a regular file (malloc'd), or NULL. */
char *host_get_file(const char *path);
/* Make every write to path fail with err (a negative errno), like a picky tracefs file. */
void host_set_write_error(const char *path, int err);

/*
 * Run fn(arg) with stdin reading `in` and stdout/stderr captured into
 * *out and *err (malloc'd); returns fn's value.
 */
int host_run(int (*fn)(void *arg), void *arg, const char *in, char **out, char **err);

/* Set to make the next sh_os->interrupted() report a Ctrl-C. */
extern bool host_interrupt;
/* Tasks spawned since host_os_init. */
extern int host_spawn_count;
/* What console_read() returns, consumed as read. */
extern const char *host_console_input;
/* Does stdout count as a terminal (sh_os->isatty(1))? Tests set it. */
extern bool host_stdout_tty;
extern bool host_poweroff_called;

#endif
