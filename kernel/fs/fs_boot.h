/* Boot: build the file tree (kernel only; kernel/fs/fs_boot.c). */
#ifndef KERNEL_FS_FS_BOOT_H
#define KERNEL_FS_FS_BOOT_H

void fs_init(void);

#endif
