/* Starting the shell from init (kernel/shell/init.c, sh_os_kernel.c). Kernel only. */
#ifndef KERNEL_SHELL_INIT_H
#define KERNEL_SHELL_INIT_H

/* Point sh_os at the kernel's implementation. */
void sh_os_kernel_init(void);
/*
 * Run by init (pid 1) after fs_init: the spoor.exec scripts then power
 * off, or the interactive console shell forever. Returns only on error.
 */
int shell_init(void);

#endif
