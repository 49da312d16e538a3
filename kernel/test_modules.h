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
/*
 * Load module name with its PARAM=VALUE words: 0, -ENOENT (not built in),
 * -EEXIST (loaded already: not run again) or its init's error.
 */
int test_module_load(const char *name, int argc, char **argv);
/* 0, or -ENOENT when name is not loaded. */
int test_module_unload(const char *name);
/* Module i's name if loaded, "" if not, NULL past the last: /proc/modules' walk. */
const char *test_module_loaded(size_t i);

#endif
