/*
 * Temporary GRUB images. The standard spoor.iso has no kernel command
 * line, so `spoor exec --iso` stages its own: the kernel, the exec initrd
 * and a grub.cfg carrying spoor.exec=N, packed by grub-mkrescue.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "iso.h"
#include "qemu.h"
#include "spoor.h"

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	int rc = in && out ? 0 : -1;

	while (!rc && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in && ferror(in))
		rc = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		rc = -1;
	if (rc)
		spoor_err("exec --iso: copying %s to %s failed", from, to);
	return rc;
}

static int write_grub_cfg(const char *path, const char *cmdline)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f) {
		spoor_err("exec --iso: %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "set timeout=0\nset default=0\n"
		"serial --unit=0 --speed=115200\nterminal_input serial\nterminal_output serial\n"
		"menuentry \"Spoor\" {\n\tmultiboot2 /boot/spoor.elf %s\n"
		"\tmodule2 /boot/initrd.cpio initrd\n\tboot\n}\n", cmdline);
	rc = ferror(f) | fclose(f);
	if (rc)
		spoor_err("exec --iso: writing %s failed", path);
	return rc ? -1 : 0;
}

/* grub-mkrescue -o ISO STAGE, quiet unless it fails. */
static int mkrescue(const char *iso, const char *stage, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600), wstatus;
	pid_t pid;

	if (fd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("grub-mkrescue", "grub-mkrescue", "-o", iso, stage, (char *)NULL);
		fprintf(stderr, "grub-mkrescue: %s; run tools/setup.sh\n", strerror(errno));
		_exit(127);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &wstatus, 0) < 0)
		return -1;
	return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 ? 0 : -1;
}

static void show_log(const char *log)
{
	char line[512];
	FILE *f = fopen(log, "r");

	while (f && fgets(line, sizeof(line), f))
		fputs(line, stderr);
	if (f)
		fclose(f);
}

char *iso_build(const char *kernel, const char *initrd, const char *cmdline)
{
	char *stage = spoor_temp_name("spoor-iso"), *iso = NULL, *log = NULL, *p[5] = { NULL };
	int ok = 0;

	if (!mkdtemp(stage) ||
	    asprintf(&p[0], "%s/boot", stage) < 0 ||
	    asprintf(&p[1], "%s/boot/grub", stage) < 0 ||
	    asprintf(&p[2], "%s/boot/spoor.elf", stage) < 0 ||
	    asprintf(&p[3], "%s/boot/initrd.cpio", stage) < 0 ||
	    asprintf(&p[4], "%s/boot/grub/grub.cfg", stage) < 0 ||
	    asprintf(&iso, "%s.iso", stage) < 0 ||
	    asprintf(&log, "%s.log", stage) < 0) {
		spoor_err("exec --iso: cannot make a staging directory: %s", strerror(errno));
		goto out;
	}
	if (mkdir(p[0], 0755) < 0 || mkdir(p[1], 0755) < 0) {
		spoor_err("exec --iso: mkdir in %s: %s", stage, strerror(errno));
		goto out;
	}
	if (copy_file(kernel, p[2]) < 0 || copy_file(initrd, p[3]) < 0 ||
	    write_grub_cfg(p[4], cmdline) < 0)
		goto out;
	ok = mkrescue(iso, stage, log) == 0;
	if (!ok) {
		spoor_err("exec --iso: grub-mkrescue failed:");
		show_log(log);
		unlink(iso);
	}
out:
	if (log)
		unlink(log);
	free(log);
	/* p[] lists the stage's directories first: remove in reverse. */
	for (int i = 4; i >= 0; i--) {
		if (p[i] && i >= 2)
			unlink(p[i]);
		else if (p[i])
			rmdir(p[i]);
	}
	rmdir(stage);
	free(stage);
	for (int i = 0; i < 5; i++)
		free(p[i]);
	if (!ok) {
		free(iso);
		return NULL;
	}
	return iso;
}
