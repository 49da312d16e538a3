/*
 * The pseudo file systems made at boot (kernel only): /dev (dev.c) and
 * /proc (proc.c). fs_boot.c calls them from fs_init().
 */
#ifndef KERNEL_FS_DEV_H
#define KERNEL_FS_DEV_H

int dev_init(void);
int proc_init(void);

#endif
