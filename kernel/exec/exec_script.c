/*
 * '#!' scripts, as Linux's binfmt_script: `#!INTERP [ARG]` on the first
 * line runs INTERP with the argument vector INTERP, ARG (when there is
 * one: the rest of the line, blanks at either end dropped), the script's
 * path, then the caller's arguments after argv[0]. So `./ftracetest` from
 * any shell runs /bin/sh on it, and a ring-3 program can execve a script.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/exec/exec.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * line: what exec_file read of the script, "#!" first. A line that does not
 * end within it is cut there, unless the cut falls in the interpreter's own
 * name: that script cannot run (ENOEXEC), as on Linux.
 */
int exec_script(char *line, const char *path, const char *shown, const struct exec_args *args,
		int depth)
{
	char *interp, *arg = NULL, *end = strchr(line, '\n'), *p;
	bool cut = !end && strlen(line) == EXEC_SCRIPT_LINE - 1;
	struct exec_args a;
	int i = 0, r;

	if (depth >= EXEC_MAX_INTERP)
		return -ELOOP;
	if (end)
		*end = '\0';
	end = line + strlen(line);
	while (end > line + 2 && (is_blank(end[-1]) || end[-1] == '\r'))
		*--end = '\0';
	for (interp = line + 2; is_blank(*interp); interp++)
		;
	if (!*interp)
		return -ENOEXEC;
	for (p = interp; *p && !is_blank(*p); p++)
		;
	if (!*p && cut)
		return -ENOEXEC;
	if (*p) {
		*p++ = '\0';
		while (is_blank(*p))
			p++;
		if (*p)
			arg = p;
	}

	a.argv = kmalloc(((size_t)args->argc + 3) * sizeof(char *), GFP_KERNEL);
	if (!a.argv)
		return -ENOMEM;
	a.strings_size = args->strings_size + strlen(interp) + 1 + strlen(path) + 1;
	a.argv[i++] = interp;
	if (arg) {
		a.argv[i++] = arg;
		a.strings_size += strlen(arg) + 1;
	}
	a.argv[i++] = (char *)path;
	if (args->argc)
		a.strings_size -= strlen(args->argv[0]) + 1;
	for (int j = 1; j < args->argc; j++)
		a.argv[i++] = args->argv[j];
	a.argv[i] = NULL;
	a.argc = i;
	a.envc = args->envc;
	a.envp = args->envp;
	r = exec_file(interp, shown, &a, depth + 1);
	kfree(a.argv);
	return r;
}
