/* The QEMU command line for a Spoor guest, and finding what it needs. */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "qemu.h"
#include "spoor.h"

void qemu_config_init(struct qemu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->smp = 4;
	cfg->mem_mb = 256;
}

static int parse_count(const char *what, const char *arg, int min, int max, int *val)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		spoor_err("%s must be a number from %d to %d, not '%s'", what, min, max, arg);
		return -1;
	}
	*val = (int)v;
	return 0;
}

int qemu_config_option(struct qemu_config *cfg, int opt, const char *arg)
{
	switch (opt) {
	case 's':
		/* QEMU's pc machine takes up to 255 CPUs without an IOMMU. */
		return parse_count("--smp", arg, 1, 255, &cfg->smp);
	case 'm':
		return parse_count("--mem", arg, 16, 65536, &cfg->mem_mb);
	case 'I':
		cfg->want_iso = true;
		return 0;
	case 'C':
		cfg->icount = true;
		return 0;
	case 'k':
		cfg->kernel = arg;
		return 0;
	case 'i':
		cfg->initrd = arg;
		return 0;
	case 'a':
		/* Repeated --append options add up, so a test header can give several. */
		if (cfg->append) {
			char *both;

			if (asprintf(&both, "%s %s", cfg->append, arg) < 0)
				return 1;
			free(cfg->append_owned);
			cfg->append = cfg->append_owned = both;
		} else {
			cfg->append = arg;
		}
		return 0;
	}
	return 1;
}

char *spoor_build_file(const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash, *path;

	if (n < 0)
		n = 0;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(self, ".");
	if (asprintf(&path, "%s/%s", self, name) < 0) {
		spoor_err("out of memory");
		exit(1);
	}
	return path;
}

char *spoor_temp_name(const char *prefix)
{
	const char *tmpdir = getenv("TMPDIR");
	char *path;

	if (asprintf(&path, "%s/%s-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", prefix) < 0) {
		spoor_err("out of memory");
		exit(1);
	}
	return path;
}

/* Is an executable QEMU_BIN on $PATH? (execvp searches the same way.) */
static bool qemu_on_path(void)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s%s" QEMU_BIN, (int)len, path, len ? "/" : "./");
		if (access(buf, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

static int check_image(const char *path, const char *what)
{
	if (access(path, R_OK) == 0)
		return 0;
	spoor_err("%s %s: %s; run ninja to build it", what, path, strerror(errno));
	return -1;
}

int qemu_config_check(struct qemu_config *cfg)
{
	if (!cfg->kernel)
		cfg->kernel = spoor_build_file("spoor.elf");
	if (!cfg->initrd)
		cfg->initrd = spoor_build_file("initrd.cpio");
	if (!qemu_on_path()) {
		spoor_err(QEMU_BIN " not found; run tools/setup.sh");
		return -1;
	}
	if (check_image(cfg->kernel, "kernel image") < 0 ||
	    check_image(cfg->initrd, "initrd") < 0)
		return -1;
	return 0;
}

/* argv grows one argument at a time; QEMU's command line is short. */
struct args {
	char **v;
	int n;
};

static void add(struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct args *a, const char *fmt, ...)
{
	va_list ap;
	char **v = realloc(a->v, (size_t)(a->n + 2) * sizeof(*v));

	va_start(ap, fmt);
	if (!v || vasprintf(&v[a->n], fmt, ap) < 0) {
		spoor_err("out of memory");
		exit(1);
	}
	va_end(ap);
	a->v = v;
	v[++a->n] = NULL;
}

char **qemu_argv(const struct qemu_config *cfg)
{
	struct args a = { NULL, 0 };

	add(&a, QEMU_BIN);
	/* No default NIC, VGA or monitor: less to set up, a faster start. */
	add(&a, "-nodefaults");
	add(&a, "-no-user-config");
	add(&a, "-accel");
	add(&a, "tcg");
	/* Every feature TCG emulates: SMEP, SMAP, XSAVE and AVX for ring 3. */
	add(&a, "-cpu");
	add(&a, "max");
	add(&a, "-display");
	add(&a, "none");
	add(&a, "-no-reboot");
	add(&a, "-m");
	add(&a, "%d", cfg->mem_mb);
	add(&a, "-smp");
	add(&a, "%d", cfg->smp);
	if (cfg->icount) {
		/* sleep=off: an idle guest's clock jumps to its next timer, not host time. */
		add(&a, "-icount");
		add(&a, "shift=0,sleep=off");
	}
	add(&a, "-device");
	add(&a, "isa-debug-exit,iobase=0xf4,iosize=0x04");
	/* COM1. mon: lets a person at the terminal use Ctrl-A x and Ctrl-A c. */
	add(&a, "-serial");
	add(&a, cfg->interactive ? "mon:stdio" : "stdio");
	/* trace-dump's port (trace/tracedat_dump.c): shared memory backed by a host file. */
	if (cfg->dump_port) {
		add(&a, "-object");
		add(&a, "memory-backend-file,id=spoordump,size=%dM,mem-path=%s,share=on",
		    QEMU_DUMP_PORT_MB, cfg->dump_port);
		add(&a, "-device");
		add(&a, "ivshmem-plain,memdev=spoordump");
	}
	if (cfg->monitor) {
		add(&a, "-monitor");
		add(&a, "unix:%s,server=on,wait=off", cfg->monitor);
	}
	if (cfg->iso) {
		add(&a, "-cdrom");
		add(&a, "%s", cfg->iso);
		add(&a, "-boot");
		add(&a, "d");
	} else {
		add(&a, "-kernel");
		add(&a, "%s", cfg->kernel);
		add(&a, "-initrd");
		add(&a, "%s", cfg->initrd);
		if (cfg->append) {
			add(&a, "-append");
			add(&a, "%s", cfg->append);
		}
	}
	for (int i = 0; i < cfg->nr_extra; i++)
		add(&a, "%s", cfg->extra[i]);
	return a.v;
}

void qemu_argv_free(char **argv)
{
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}
