/*
 * The pseudo file systems made at boot (kernel only): /dev (dev.c) and
 * /proc (proc.c). fs_boot.c calls them from fs_init().
 */
#ifndef KERNEL_FS_DEV_H
#define KERNEL_FS_DEV_H

#include <kernel/types.h>

int dev_init(void);
struct file;
/* Is f open on /dev/console (a terminal, for isatty)? */
bool dev_is_console(const struct file *f);
/*
 * /dev/console opened so that what is written to it is the console's
 * stderr stream (kernel/console_frame.h): spoor exec scripts' fd 2.
 */
struct file *dev_open_console_stderr(void);
int proc_init(void);

#endif
