/*
 * Temporary GRUB images. The standard spoor.iso has no kernel command
 * line, so `spoor exec --iso` makes its own with images/mkiso.sh, the
 * recipe the build uses, passing spoor.exec=N and the rest as CMDLINE.
 * The script is found next to this binary's tree (build/spoor ->
 * images/mkiso.sh), or in the current directory's images/.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "iso.h"
#include "qemu.h"
#include "spoor.h"

/* images/mkiso.sh of the tree this spoor binary was built in, else ./images/mkiso.sh. */
static char *find_recipe(void)
{
	char exe[PATH_MAX], *path = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		if (asprintf(&path, "%s/../images/mkiso.sh", dirname(exe)) >= 0 &&
		    access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return strdup("images/mkiso.sh");
}

char *iso_build(const char *kernel, const char *initrd, const char *cmdline)
{
	char *stage = spoor_temp_name("spoor-iso"), *iso = NULL, *recipe = find_recipe();
	int wstatus, fd;
	pid_t pid;

	/* The unique name mkstemp reserves, plus .iso, is the image's. */
	fd = stage ? mkstemp(stage) : -1;
	if (fd < 0 || !recipe || asprintf(&iso, "%s.iso", stage) < 0) {
		spoor_err("exec --iso: cannot make a temporary name: %s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(stage);
		}
		free(stage);
		free(recipe);
		return NULL;
	}
	close(fd);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", recipe, kernel, initrd, iso, cmdline ? cmdline : "", (char *)NULL);
		fprintf(stderr, "exec --iso: /bin/sh: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &wstatus, 0) < 0 || !WIFEXITED(wstatus) ||
	    WEXITSTATUS(wstatus) != 0) {
		spoor_err("exec --iso: %s failed", recipe);
		unlink(iso);
		free(iso);
		iso = NULL;
	}
	unlink(stage);
	free(stage);
	free(recipe);
	return iso;
}
