/*
 * The test modules of Linux that ftracetest loads, built into Spoor
 * (which has no loadable modules) and reached through the shell's
 * modprobe and rmmod (kernel/test_modules.c).
 */
#ifndef KERNEL_TEST_MODULES_H
#define KERNEL_TEST_MODULES_H

/*
 * "modprobe NAME [PARAM=VALUE]..." or "rmmod NAME": 0, or 1 with a
 * message on stderr (unknown module, bad parameter, not loaded), as
 * busybox's tools answer.
 */
int test_module_command(int argc, char **argv);

#endif
