/*
 * chmod MODE FILE...: set permission bits. MODE is octal (755) or
 * symbolic, POSIX's clauses separated by commas: who (u g o a, none
 * meaning a), an operator (+ - =) and permissions (r w x); `chmod +x
 * script` makes a script something execve will run.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* The new bits for a file whose bits are old; -1 for a malformed MODE. */
static long chmod_apply(const char *mode, unsigned int old)
{
	unsigned int bits = old;

	if (*mode >= '0' && *mode <= '7') {
		long v = 0;

		for (; *mode; mode++) {
			if (*mode < '0' || *mode > '7' || v > 07777)
				return -1;
			v = v * 8 + (*mode - '0');
		}
		return v > 07777 ? -1 : v;
	}
	for (;;) {
		unsigned int who = 0, perm = 0;
		char op;

		for (; *mode && strchr("ugoa", *mode); mode++)
			who |= *mode == 'u' ? 04700 : *mode == 'g' ? 02070 : *mode == 'o' ? 01007 : 07777;
		if (!who)
			who = 07777;
		op = *mode++;
		if (op != '+' && op != '-' && op != '=')
			return -1;
		for (; *mode && strchr("rwx", *mode); mode++)
			perm |= *mode == 'r' ? 0444 : *mode == 'w' ? 0222 : 0111;
		perm &= who;
		if (op == '+')
			bits |= perm;
		else if (op == '-')
			bits &= ~perm;
		else
			bits = (bits & ~(who & 0777)) | perm;
		if (!*mode)
			return bits;
		if (*mode++ != ',')
			return -1;
	}
}

int cmd_chmod(int argc, char **argv, char **envp)
{
	int status = 0;

	if (argc < 3) {
		sh_eprintf("chmod: usage: chmod MODE FILE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		struct sh_stat st;
		long bits;
		int err = sh_os->stat(argv[i], &st);

		if (!err) {
			bits = chmod_apply(argv[1], st.mode);
			if (bits < 0) {
				sh_eprintf("chmod: invalid mode: '%s'\n", argv[1]);
				return 1;
			}
			err = sh_os->chmod(argv[i], (unsigned int)bits);
		}
		if (err) {
			sh_eprintf("chmod: %s: %s\n", argv[i], errno_text(-err));
			status = 1;
		}
	}
	return status;
}
