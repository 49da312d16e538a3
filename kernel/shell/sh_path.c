/*
 * Programs on disk: a command name that is no builtin, function or
 * kernel command runs the file it names, as execvp finds it (a name
 * with '/' is a path; otherwise the first PATH directory holding an
 * executable regular file), in a task of its own that then becomes the
 * program (sh_os->execve).
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_path.h>

#define DEFAULT_PATH	"/bin:/usr/bin"

static bool is_program(const char *path)
{
	struct sh_stat st;

	return !sh_os->stat(path, &st) && st.type == SH_FT_REG && (st.mode & 0111);
}

bool sh_find_program(const char *path_var, const char *name, char *buf, size_t size)
{
	const char *p = path_var ? path_var : DEFAULT_PATH;

	if (!*name)
		return false;
	if (strchr(name, '/')) {
		if (strlen(name) >= size)
			return false;
		strcpy(buf, name);
		return is_program(buf);
	}
	while (*p) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);

		/* An empty PATH entry is the current directory. */
		if (dlen + strlen(name) + 2 <= size) {
			if (dlen) {
				memcpy(buf, p, dlen);
				buf[dlen] = '/';
				strcpy(buf + dlen + 1, name);
			} else {
				strcpy(buf, name);
			}
			if (is_program(buf))
				return true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

static int run_as_script(const char *path, int argc, char **argv, char **envp)
{
	const struct sh_command *sh = sh_find_command("sh");
	char **av = kmalloc(((size_t)argc + 2) * sizeof(char *), GFP_KERNEL);
	int status;

	if (!sh || !av) {
		kfree(av);
		return 126;
	}
	av[0] = "sh";
	av[1] = (char *)path;
	for (int i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	av[argc + 1] = NULL;
	status = sh->main(argc + 1, av, envp);
	kfree(av);
	return status;
}

int cmd_program_main(int argc, char **argv, char **envp)
{
	const char *path_var = NULL;
	char path[256];
	int err;

	for (char **e = envp; e && *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path_var = *e + 5;
	if (argc < 1 || !sh_find_program(path_var, argv[0], path, sizeof(path))) {
		sh_eprintf("sh: %s: not found\n", argc ? argv[0] : "");
		return 127;
	}
	err = sh_os->execve ? sh_os->execve(path, argv, envp) : -ENOEXEC;
	/* Not a binary the kernel runs (a script, '#!' or not): sh runs it, as POSIX says. */
	if (err == -ENOEXEC)
		return run_as_script(path, argc, argv, envp);
	if (err) {
		sh_eprintf("sh: %s: %s\n", argv[0], errno_text(-err));
		return err == -ENOENT ? 127 : 126;
	}
	return 0;
}
