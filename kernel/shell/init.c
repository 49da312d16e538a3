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
#include <kernel/console.h>
#include <kernel/fs/fdtable.h>
#include <kernel/fs/dev.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/init.h>
#include <asm/acpi.h>

#define SPOOR_EXEC_MAX	999

/* A script to run: its file in the initrd, the name its messages use. */
struct init_script {
	char path[256];
	char name[256];
};

static int run_script_task(void *arg)
{
	struct init_script *s = arg;

	return sh_exec_script(s->path, s->name);
}

/* sh PATH in a task of its own with stdin from fd in, as a shell would run it; its wait status. */
static int run_script(struct init_script *script, int in)
{
	struct sh_spawn req = { .fn = run_script_task, .arg = script, .comm = "sh", .fds = { in, 1, 2 } };
	const char *path = script->path;
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

/* The runner's name for script i (/spoor/exec/I.name), else its path in the initrd. */
static void script_name(struct init_script *s, int i)
{
	char path[32];
	ssize_t len = -1;
	int fd;

	snprintf(path, sizeof(path), "/spoor/exec/%d.name", i);
	fd = sh_os->open(path, SH_O_RDONLY, 0);
	if (fd >= 0) {
		len = sh_os->read(fd, s->name, sizeof(s->name) - 1);
		sh_os->close(fd);
	}
	if (len > 0)
		s->name[len] = '\0';
	else
		strscpy(s->name, s->path, sizeof(s->name));
}

/*
 * The runner keeps the scripts' stderr apart from their stdout: frame the
 * console and make init's fd 2, which every script inherits, the console
 * opened for the stderr stream. Without it both stay on one stream.
 */
static void use_stderr_stream(void)
{
	struct file *err = dev_open_console_stderr();
	int fd;

	if (IS_ERR(err))
		return;
	fd = fd_install(current->files, err, 3);
	if (fd < 0)
		return;
	console_start_framing();
	ksys_dup2(fd, 2);
	ksys_close(fd);
}

/*
 * Run the scripts in order. The first failure (nonzero status) ends the
 * run unless spoor.keep_going is given; either way the status reported is
 * the first failure's, so a failing script is never masked by a later one.
 */
static void spoor_exec(int n)
{
	bool keep_going = cmdline_has(&boot_cmdline, "spoor.keep_going");
	char line[40];
	int status = 0, in;

	/*
	 * The runner sends nothing to the console: a script's stdin is empty,
	 * as with `ssh HOST CMD`, so a stray read ends instead of waiting.
	 */
	in = sh_os->open("/dev/null", SH_O_RDONLY, 0);
	if (in < 0)
		in = 0;
	use_stderr_stream();
	sh_write_all(1, "spoor-exec: start\n", 18);
	for (int i = 1; i <= n && (!status || keep_going); i++) {
		struct init_script s;
		int st;

		snprintf(s.path, sizeof(s.path), "/spoor/exec/%d.sh", i);
		script_name(&s, i);
		st = run_script(&s, in);
		if (!status)
			status = st;
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
		struct init_script s;
		int status;

		strscpy(s.path, init_script, sizeof(s.path));
		strscpy(s.name, init_script, sizeof(s.name));
		status = run_script(&s, 0);
		sh_eprintf("init: %s exited with status %d\n", s.path, status & 255);
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
