/*
 * procself: checks what /proc/self says about this process against what
 * the process knows of itself: exe (the link glibc's static start-up
 * reads), cmdline (its argv), environ, and the stat fields that locate
 * its memory (code, stack, arguments, environment). One line per check,
 * "procself: WHAT ok" or "procself: WHAT bad (...)"; exits with the
 * number of bad ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int bad;

static void verdict(const char *what, int ok, const char *detail)
{
	printf("procself: %s %s%s%s%s\n", what, ok ? "ok" : "bad", ok ? "" : " (",
	       ok ? "" : detail, ok ? "" : ")");
	bad += !ok;
}

/* The whole file; returns its length, or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

/* The strings of v back to back, each with its NUL, as exec laid them out. */
static size_t flatten(char **v, char *out, size_t size)
{
	size_t n = 0;

	for (; *v; v++) {
		size_t len = strlen(*v) + 1;

		if (n + len > size)
			break;
		memcpy(out + n, *v, len);
		n += len;
	}
	return n;
}

int main(int argc, char **argv)
{
	static char buf[8192], want[8192];
	unsigned long f[53] = { 0 };
	unsigned long local = (unsigned long)&argc;
	char exe[256], *p;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	long len;
	int pid;

	exe[n > 0 ? n : 0] = '\0';
	verdict("exe", n > 0 && exe[0] == '/' && !strcmp(strrchr(exe, '/'), "/procself"), exe);

	len = slurp("/proc/self/cmdline", buf, sizeof(buf));
	n = (ssize_t)flatten(argv, want, sizeof(want));
	verdict("cmdline", len == n && !memcmp(buf, want, (size_t)n), "differs from argv");
	len = slurp("/proc/self/environ", buf, sizeof(buf));
	n = (ssize_t)flatten(environ, want, sizeof(want));
	verdict("environ", len == n && !memcmp(buf, want, (size_t)n), "differs from environ");

	/* Fields 3.. follow the comm's closing parenthesis. */
	if (slurp("/proc/self/stat", buf, sizeof(buf)) < 0 || sscanf(buf, "%d", &pid) != 1 ||
	    !(p = strrchr(buf, ')'))) {
		verdict("stat", 0, "unreadable");
		return bad;
	}
	p += 4;		/* ") S " */
	for (int i = 4; i <= 52 && *p; i++) {
		char *end;

		f[i] = strtoul(p, &end, 10);
		if (*end == ' ')
			end++;
		p = end;
	}
	verdict("stat pid", pid == getpid(), "pid");
	verdict("stat ppid", (int)f[4] == getppid(), "ppid");
	verdict("stat num_threads", f[20] == 1, "not 1");
	verdict("stat startcode/endcode hold main",
		f[26] <= (unsigned long)&main && (unsigned long)&main < f[27], "main outside");
	verdict("stat startstack above a local", f[28] > local && f[28] - local < 65536,
		"startstack");
	verdict("stat arg_start is argv[0]", f[48] == (unsigned long)argv[0], "arg_start");
	verdict("stat arg_end ends the last argument",
		f[49] == (unsigned long)argv[argc - 1] + strlen(argv[argc - 1]) + 1, "arg_end");
	verdict("stat env_start is environ[0]", !environ[0] || f[50] == (unsigned long)environ[0],
		"env_start");
	/* Not rss: Linux's reading of its per-CPU counters may still say 0. */
	verdict("stat vsize", f[23] > 0, "zero");
	return bad;
}
