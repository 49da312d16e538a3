/*
 * What init runs once the scheduler and the file system are up: the
 * `spoor exec` scripts when the command line has spoor.exec=N (see
 * docs/DESIGN.md, "The guest/runner protocol"), else the interactive
 * shell on the console, started in /sys/kernel/tracing. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/cmdline.h>
#include <kernel/sched.h>
#include <kernel/fs/fdtable.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/init.h>
#include <kernel/cmds/cmds.h>
#include <asm/acpi.h>

#define SPOOR_EXEC_MAX	999

static int run_script_task(void *path)
{
	char *argv[] = { "sh", path, NULL };

	return cmd_sh(2, argv, NULL);
}

/* sh PATH in a task of its own with stdin from fd in, as a shell would run it; its wait status. */
static int run_script(char *path, int in)
{
	struct sh_spawn req = { .fn = run_script_task, .arg = path, .comm = "sh", .fds = { in, 1, 2 } };
	int status = 125;
	pid_t pid;

	pid = sh_os->spawn(&req);
	if (pid < 0) {
		sh_eprintf("spoor-exec: cannot start %s: %s\n", path, errno_text((int)-pid));
		return status;
	}
	/* init ignores signals sent to it, as Linux's init does. */
	while (sh_os->wait(pid, &status) == -EINTR)
		sh_os->take_signals();
	return status & ~SH_WAIT_SIGNALED;
}

static void spoor_exec(int n)
{
	char line[40];
	int status = 0, in;

	/*
	 * The runner sends nothing to the console: a script's stdin is empty,
	 * as with `ssh HOST CMD`, so a stray read ends instead of waiting.
	 */
	in = sh_os->open("/dev/null", SH_O_RDONLY, 0);
	if (in < 0)
		in = 0;
	sh_write_all(1, "spoor-exec: start\n", 18);
	for (int i = 1; i <= n; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/spoor/exec/%d.sh", i);
		status = run_script(path, in);
	}
	snprintf(line, sizeof(line), "spoor-exec: status %d\n", status & 255);
	sh_write_all(1, line, strlen(line));
	acpi_poweroff();
}

int shell_init(void)
{
	const char *init_script;
	int n, err;

	sh_os_kernel_init();
	if (!current->files) {
		err = fs_init_task(current);
		if (err) {
			pr_err("shell: no console: %s\n", errno_text(-err));
			return err;
		}
	}
	if (!cmdline_get_int(&boot_cmdline, "spoor.exec", &n) && n > 0 && n <= SPOOR_EXEC_MAX) {
		spoor_exec(n);
		return 0;
	}
	if (sh_os->chdir("/sys/kernel/tracing"))
		sh_os->chdir("/");
	/*
	 * init=SCRIPT runs that shell script first (Linux's init= names the
	 * program pid 1 runs); the console shell follows when it ends.
	 */
	if ((init_script = cmdline_get(&boot_cmdline, "init")) && strcmp(init_script, "/bin/sh")) {
		char path[256];
		int status;

		strscpy(path, init_script, sizeof(path));
		status = run_script(path, 0);
		sh_eprintf("init: %s exited with status %d\n", path, status & 255);
	}
	for (;;) {
		struct sh *sh = sh_new("sh", 0, NULL);

		if (!sh)
			return -ENOMEM;
		sh_setvar(sh, "HOME", "/", true);
		sh_interactive(sh);
		sh_free(sh);
		sh_eprintf("\n");	/* Ctrl-D: a fresh shell */
	}
}
