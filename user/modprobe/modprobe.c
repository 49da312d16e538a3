/*
 * modprobe and rmmod for ring 3 (one program, named by argv[0], as
 * busybox's): modprobe NAME [PARAM=VALUE]... finds NAME's file through
 * /lib/modules/RELEASE/modules.dep ('-' and '_' alike) and loads it with
 * finit_module; a module loaded already is success. rmmod NAME unloads
 * with delete_module. Messages as busybox's tools print them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* also: rmmod */
static const char *prog = "modprobe";

static int same_name(const char *a, const char *b, size_t blen)
{
	size_t i = 0;

	for (; a[i] && i < blen; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') && (b[i] == '-' || b[i] == '_')))
			return 0;
	return !a[i] && i == blen;
}

/* NAME's module file, from modules.dep, into path; 0 if found. */
static int find_module(const char *name, char *path, size_t size)
{
	struct utsname u;
	char dir[256], line[1024];
	FILE *dep;

	if (uname(&u))
		return -1;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	snprintf(line, sizeof(line), "%s/modules.dep", dir);
	dep = fopen(line, "r");
	if (!dep)
		return -1;
	while (fgets(line, sizeof(line), dep)) {
		char *colon = strchr(line, ':'), *base, *dot;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (dot && same_name(name, base, (size_t)(dot - base))) {
			snprintf(path, size, "%s/%s", dir, line);
			fclose(dep);
			return 0;
		}
	}
	fclose(dep);
	return -1;
}

static int modprobe(int argc, char **argv)
{
	char path[1536], params[4096] = "";
	size_t used = 0;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: modprobe MODULE [PARAM=VALUE]...\n");
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		int n = snprintf(params + used, sizeof(params) - used, "%s%s", used ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(params) - used) {
			fprintf(stderr, "modprobe: parameters too long\n");
			return 1;
		}
		used += (size_t)n;
	}
	if (find_module(argv[1], path, sizeof(path))) {
		fprintf(stderr, "modprobe: module %s not found in modules.dep\n", argv[1]);
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || (syscall(SYS_finit_module, fd, params, 0) && errno != EEXIST)) {
		fprintf(stderr, "modprobe: can't load module %s (%s): %s\n", argv[1], path,
			strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

static int rmmod(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: rmmod MODULE...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (syscall(SYS_delete_module, argv[i], O_NONBLOCK)) {
			fprintf(stderr, "rmmod: can't unload module '%s': %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}

int main(int argc, char **argv)
{
	const char *base = argc ? strrchr(argv[0], '/') : NULL;

	base = base ? base + 1 : argc ? argv[0] : prog;
	if (!strcmp(base, "rmmod"))
		return rmmod(argc, argv);
	return modprobe(argc, argv);
}
