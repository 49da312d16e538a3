/*
 * Starting the kernel under QEMU (TCG): what `spoor boot` and `spoor exec`
 * share. The whole QEMU command line is built in qemu_argv(), so a new
 * device (say a second serial port for dumps) is one change there.
 */
#ifndef HOST_TOOLS_QEMU_H
#define HOST_TOOLS_QEMU_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define QEMU_BIN	"qemu-system-x86_64"
/* Size of the dump port: every trace-dump of one run must fit (a power of two). */
#define QEMU_DUMP_PORT_MB	128

/*
 * One guest machine. kernel and initrd default to the files next to the
 * spoor binary (the build directory). An iso image, when set, replaces
 * kernel, initrd and append: GRUB reads its own configuration from it.
 */
struct qemu_config {
	const char *kernel;	/* multiboot ELF for -kernel */
	const char *initrd;	/* cpio newc archive for -initrd */
	bool want_iso;		/* --iso: the command picks the image */
	const char *iso;	/* GRUB rescue image for -cdrom, or NULL */
	const char *append;	/* kernel command line, or NULL */
	char *append_owned;	/* append when several --append were joined (lives for the run) */
	int smp;		/* CPUs */
	int mem_mb;		/* RAM */
	bool icount;		/* guest time counts retired instructions (-icount shift=0,sleep=off) */
	bool interactive;	/* console on the terminal, with QEMU's Ctrl-A keys */
	const char *dump_port;	/* file backing the guest's dump port (ivshmem), or NULL */
	const char *monitor;	/* Unix socket for QEMU's monitor (qemu_monitor_report), or NULL */
	char **extra;		/* more QEMU arguments, passed as given */
	int nr_extra;
};

/* Options both commands take; the val of each is its short letter below. */
#define QEMU_LONG_OPTIONS					\
	{ "smp", required_argument, NULL, 's' },		\
	{ "mem", required_argument, NULL, 'm' },		\
	{ "iso", no_argument, NULL, 'I' },			\
	{ "icount", no_argument, NULL, 'C' },			\
	{ "kernel", required_argument, NULL, 'k' },		\
	{ "initrd", required_argument, NULL, 'i' },		\
	{ "append", required_argument, NULL, 'a' }
#define QEMU_OPTIONS_HELP					\
	"  --smp N          CPUs (default 4)\n"			\
	"  --mem MB         RAM in MiB (default 256)\n"		\
	"  --iso            boot through GRUB (multiboot2) from an ISO, not -kernel\n" \
	"  --icount         guest time counts retired instructions (QEMU -icount\n" \
	"                   shift=0,sleep=off): timings that a loaded host cannot\n" \
	"                   stretch, the same on every run; the CPUs take turns\n" \
	"  --kernel FILE    kernel image (default: spoor.elf next to spoor)\n" \
	"  --initrd FILE    initrd (default: initrd.cpio next to spoor)\n" \
	"  --append ARGS    more kernel command line (repeatable)\n"

void qemu_config_init(struct qemu_config *cfg);
/*
 * Apply one of QEMU_LONG_OPTIONS. Returns 0, -1 for a bad value (said on
 * stderr), or 1 if opt is not one of them.
 */
int qemu_config_option(struct qemu_config *cfg, int opt, const char *arg);
/*
 * Fill in the default kernel and initrd paths and check that they and
 * QEMU exist, saying what to do if not. Returns 0 or -1.
 */
int qemu_config_check(struct qemu_config *cfg);

/* The QEMU command line, NULL-terminated; free with qemu_argv_free(). */
char **qemu_argv(const struct qemu_config *cfg);
void qemu_argv_free(char **argv);

/*
 * Print to out where each of the guest's CPUs is (function, kernel stack),
 * asked of the monitor at sock; the guest is stopped for it, then goes on
 * with an NMI that makes it print its tasks. For a run that timed out.
 */
void qemu_monitor_report(const char *sock, const char *kernel, FILE *out);

/* Path of NAME in the directory holding the running spoor binary (malloc'd). */
char *spoor_build_file(const char *name);
/* "$TMPDIR/PREFIX-XXXXXX" (default /tmp), a template for mkstemp/mkdtemp (malloc'd). */
char *spoor_temp_name(const char *prefix);

#endif
