/*
 * `spoor exec` end to end against a fake QEMU: a shell script on $PATH
 * that unpacks the initrd it is given and plays the guest's side of the
 * protocol with the host's sh, or misbehaves (panic, hang, no shell).
 */
/* uses: host-tools/exec.c host-tools/qemu.c host-tools/qemu_monitor.c host-tools/iso.c host-tools/cpio.c host-tools/spoor_err.c host-tools/console.c host-tools/tracedat_collect.c trace/tracedat_frame.c */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host-tools/cpio.h"
#include "host-tools/spoor.h"

/*
 * The guest, as far as the runner can tell: COM1 output with \r\n, the
 * protocol lines, QEMU's exit statuses. FAKE_MODE picks a misbehaviour.
 */
static const char fake_qemu[] =
	"#!/bin/sh\n"
	"printf '%s\\n' \"$@\" > \"$FAKE_DIR/args\"\n"
	"while [ $# -gt 0 ]; do\n"
	"  case $1 in\n"
	"  -initrd) initrd=$2; shift;; -append) append=$2; shift;; -cdrom) iso=$2; shift;;\n"
	"  esac; shift\n"
	"done\n"
	"if [ -n \"$iso\" ]; then\n"	/* what GRUB would boot */
	"  xorriso -osirrox on -indev \"$iso\" -extract /boot \"$FAKE_DIR/iso\" >/dev/null 2>&1 || exit 1\n"
	"  chmod -R u+w \"$FAKE_DIR/iso\"; initrd=$FAKE_DIR/iso/initrd.cpio\n"
	"  append=$(sed -n 's|^[[:space:]]*multiboot2 /boot/spoor.elf ||p' \"$FAKE_DIR/iso/grub/grub.cfg\")\n"
	"fi\n"
	"root=$FAKE_DIR/root; rm -rf \"$root\"; mkdir -p \"$root\"\n"
	"(cd \"$root\" && cpio -id --quiet) < \"$initrd\" || exit 1\n"
	"printf 'booting\\r\\n'\n"
	"case $FAKE_MODE in\n"
	"panic) printf '[ 0.1] Kernel panic - not syncing: fake\\r\\n'; exit 33;;\n"
	"panic-exit) exit 33;;\n"
	"no-shell) exit 0;;\n"
	"hang-boot) exec sleep 20;;\n"
	"esac\n"
	"printf 'spoor-exec: start\\r\\n'\n"
	/* The kernel's stream framing (kernel/console_frame.h) around the scripts' output. */
	"[ \"$FAKE_MODE\" = stderr ] && printf 'out1\\r\\n\\0202err1\\r\\n\\020\\020\\r\\n\\0201out2\\r\\n'\n"
	/* init's rule: stop at the first failure unless spoor.keep_going; report the first failure */
	"n=${append#spoor.exec=}; n=${n%% *}; i=1; st=0\n"
	"case \" $append \" in *' spoor.keep_going '*) keep=1;; *) keep=;; esac\n"
	"while [ $i -le $n ] && { [ $st = 0 ] || [ -n \"$keep\" ]; }; do\n"
	"  (cd \"$root\" && sh spoor/exec/$i.sh; echo $? > ../st) | sed 's/$/\\r/'\n"
	"  s=$(cat \"$FAKE_DIR/st\"); cp \"$root/spoor/exec/$i.name\" \"$FAKE_DIR/name$i\"\n"
	"  [ $st = 0 ] && st=$s\n"
	"  i=$((i + 1))\n"
	"done\n"
	"[ \"$FAKE_MODE\" = hang-script ] && exec sleep 20\n"
	"[ \"$FAKE_MODE\" = triple-fault ] && exit 0\n"
	"printf 'spoor-exec: status %d\\r\\n' $st\n";

static char dir[64];

static void write_file(const char *name, const char *text, int mode)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void setup(void)
{
	char path[256];
	struct cpio c;
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/runner-exec-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bin", dir);
	mkdir(path, 0755);
	write_file("bin/qemu-system-x86_64", fake_qemu, 0755);
	write_file("spoor.elf", "not really a kernel", 0644);
	write_file("data.txt", "payload\n", 0644);
	/* The standard initrd: one program the scripts can look for. */
	snprintf(path, sizeof(path), "%s/initrd.cpio", dir);
	f = fopen(path, "wb");
	cpio_begin(&c, f);
	cpio_add_data(&c, "/bin/hello", 0755, "#!hello\n", 8);
	cr_assert_eq(cpio_end(&c), 0);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(exec, .init = setup, .fini = teardown, .timeout = 30);

/* Run spoor exec ARGS... in a child with the fake QEMU first on $PATH; returns its status. */
static int run(const char *mode, const char *out_name, ...)
{
	char *argv[32] = { "exec", "--kernel", NULL, "--initrd", NULL };
	char kernel[256], initrd[256], out[256], err[256], path[512];
	int argc = 5, wstatus;
	va_list ap;
	pid_t pid;

	snprintf(kernel, sizeof(kernel), "%s/spoor.elf", dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.cpio", dir);
	argv[2] = kernel;
	argv[4] = initrd;
	va_start(ap, out_name);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	snprintf(out, sizeof(out), "%s/%s.out", dir, out_name);
	snprintf(err, sizeof(err), "%s/%s.err", dir, out_name);
	snprintf(path, sizeof(path), "%s/bin:%s", dir, getenv("PATH"));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("PATH", path, 1);
		setenv("FAKE_DIR", dir, 1);
		setenv("FAKE_MODE", mode, 1);
		cr_assert_not_null(freopen(out, "w", stdout));
		cr_assert_not_null(freopen(err, "w", stderr));
		/* _exit: LeakSanitizer cannot judge a fork of Criterion's threaded runner. */
		wstatus = cmd_exec(argc, argv);
		fflush(NULL);
		_exit(wstatus);
	}
	cr_assert_eq(waitpid(pid, &wstatus, 0), pid);
	cr_assert(WIFEXITED(wstatus));
	return WEXITSTATUS(wstatus);
}

static char *slurp(const char *name)
{
	static char buf[8192];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *in_dir(const char *name)
{
	static char paths[4][256];
	static int next;
	char *p = paths[next++ % 4];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

Test(exec, first_failure_stops_the_run_and_is_the_status)
{
	write_file("one.sh", "echo one; exit 4\n", 0644);
	write_file("two.sh", "echo two; exit 5\n", 0644);
	write_file("three.sh", "echo three\n", 0644);
	cr_assert_eq(run("ok", "r", in_dir("one.sh"), in_dir("two.sh"), in_dir("three.sh"), NULL), 4);
	cr_assert_str_eq(slurp("r.out"), "booting\none\n");
	/* --keep-going runs them all, and a later success or failure does not mask the first. */
	cr_assert_eq(run("ok", "r", "--keep-going", in_dir("one.sh"), in_dir("two.sh"),
			 in_dir("three.sh"), NULL), 4);
	cr_assert_str_eq(slurp("r.out"), "booting\none\ntwo\nthree\n");
	cr_assert(strstr(slurp("args"), "\n-append\nspoor.exec=3 spoor.keep_going\n"));
	cr_assert_eq(run("ok", "r", "--keep-going", in_dir("three.sh"), in_dir("two.sh"), NULL), 5);
}

Test(exec, inline_and_stdin_scripts_keep_their_names)
{
	char *self = in_dir("one.sh");

	write_file("one.sh", "echo from-file\n", 0644);
	cr_assert_eq(run("ok", "r", "-c", "echo inline; echo second", "-c", "exit 7", self, NULL), 7);
	cr_assert_str_eq(slurp("r.out"), "booting\ninline\nsecond\n");
	cr_assert_str_eq(slurp("name1"), "-c");
	/* A script given by path keeps that path as its name in the guest's messages. */
	cr_assert_eq(run("ok", "r", self, NULL), 0);
	cr_assert_str_eq(slurp("name1"), self);
	/* "-": the script is stdin. */
	write_file("stdin.txt", "echo piped\n", 0644);
	cr_assert_not_null(freopen(in_dir("stdin.txt"), "r", stdin));
	cr_assert_eq(run("ok", "r", "-", NULL), 0);
	cr_assert_str_eq(slurp("r.out"), "booting\npiped\n");
	cr_assert_str_eq(slurp("name1"), "stdin");
	cr_assert_eq(run("ok", "r", "-", "-", NULL), 2);
	cr_assert(strstr(slurp("r.err"), "'-' given twice"));
}

Test(exec, quiet_hides_the_boot_log_only)
{
	write_file("s.sh", "echo shown\n", 0644);
	cr_assert_eq(run("ok", "r", "--quiet", in_dir("s.sh"), NULL), 0);
	cr_assert_str_eq(slurp("r.out"), "shown\n");
	cr_assert(strstr(slurp("args"), "\n-append\nspoor.exec=1 quiet\n"));
	cr_assert_eq(run("no-shell", "r", "--quiet", in_dir("s.sh"), NULL), 125);
	cr_assert_str_eq(slurp("r.out"), "");
	cr_assert(strstr(slurp("r.err"), "run without it for the boot log"));
}

Test(exec, guest_stderr_to_our_stderr)
{
	write_file("s.sh", "echo from-script\n", 0644);
	cr_assert_eq(run("stderr", "r", in_dir("s.sh"), NULL), 0);
	cr_assert_str_eq(slurp("r.out"), "booting\nout1\nout2\nfrom-script\n");
	cr_assert_str_eq(slurp("r.err"), "err1\n\x10\n");
}

Test(exec, dump_without_a_dump_says_so)
{
	write_file("s.sh", "true\n", 0644);
	cr_assert_eq(run("ok", "r", "--dump", in_dir("dumps"), in_dir("s.sh"), NULL), 0);
	cr_assert(strstr(slurp("r.err"), "the guest dumped nothing"), "%s", slurp("r.err"));
}

Test(exec, scripts_run_in_order_and_last_status_is_ours)
{
	write_file("one.sh", "echo one\n", 0644);
	write_file("two.sh", "echo two; test -x bin/hello && echo has-hello; exit 3\n", 0644);
	cr_assert_eq(run("ok", "r", "--smp", "2", in_dir("one.sh"), in_dir("two.sh"), NULL), 3);
	cr_assert_str_eq(slurp("r.out"), "booting\none\ntwo\nhas-hello\n");
	cr_assert_str_eq(slurp("r.err"), "");
	cr_assert(strstr(slurp("args"), "\n-smp\n2\n"));
	cr_assert(strstr(slurp("args"), "\n-append\nspoor.exec=2\n"));
	cr_assert(strstr(slurp("args"), "\n-device\nisa-debug-exit,iobase=0xf4,iosize=0x04\n"));
}

Test(exec, files_and_append_reach_the_guest)
{
	char spec[300];

	snprintf(spec, sizeof(spec), "%s:/etc/renamed", in_dir("data.txt"));
	write_file("s.sh", "cat tmp/data.txt etc/renamed\n", 0644);
	cr_assert_eq(run("ok", "r", "--append", "quiet x=1", "--file", in_dir("data.txt"),
			 "--file", spec, in_dir("s.sh"), NULL), 0);
	cr_assert_str_eq(slurp("r.out"), "booting\npayload\npayload\n");
	cr_assert(strstr(slurp("args"), "\n-append\nspoor.exec=1 quiet x=1\n"));
}

Test(exec, iso_carries_scripts_and_command_line_through_grub)
{
	write_file("s.sh", "echo via-iso; exit 4\n", 0644);
	cr_assert_eq(run("ok", "r", "--iso", "--append", "a=b", in_dir("s.sh"), NULL), 4);
	cr_assert_str_eq(slurp("r.out"), "booting\nvia-iso\n");
	cr_assert(strstr(slurp("args"), "\n-cdrom\n"));
	cr_assert_null(strstr(slurp("args"), "\n-kernel\n"));
	cr_assert(strstr(slurp("iso/grub/grub.cfg"), "multiboot2 /boot/spoor.elf spoor.exec=1 a=b\n"));
	cr_assert_str_eq(slurp("iso/spoor.elf"), "not really a kernel");
}

Test(exec, panic_line_and_panic_exit_are_125)
{
	write_file("s.sh", "true\n", 0644);
	cr_assert_eq(run("panic", "r", in_dir("s.sh"), NULL), 125);
	cr_assert_str_eq(slurp("r.out"), "booting\n[ 0.1] Kernel panic - not syncing: fake\n");
	cr_assert(strstr(slurp("r.err"), "kernel panic"));
	cr_assert_eq(run("panic-exit", "r", in_dir("s.sh"), NULL), 125);
}

Test(exec, no_shell_is_125_whether_qemu_exits_or_hangs)
{
	write_file("s.sh", "true\n", 0644);
	cr_assert_eq(run("no-shell", "r", in_dir("s.sh"), NULL), 125);
	cr_assert(strstr(slurp("r.err"), "never reached the shell (QEMU exited with status 0)"));
	cr_assert_eq(run("hang-boot", "r", "--timeout", "0.5", in_dir("s.sh"), NULL), 125);
	cr_assert(strstr(slurp("r.err"), "never reached the shell (timed out after 0.5 s)"));
}

Test(exec, guest_dying_mid_script_is_125)
{
	write_file("s.sh", "echo before\n", 0644);
	cr_assert_eq(run("triple-fault", "r", in_dir("s.sh"), NULL), 125);
	cr_assert_str_eq(slurp("r.out"), "booting\nbefore\n");
	cr_assert(strstr(slurp("r.err"), "stopped before its status line (QEMU exited with status 0)"));
}

Test(exec, hung_script_is_124)
{
	write_file("s.sh", "echo before\n", 0644);
	cr_assert_eq(run("hang-script", "r", "--timeout", "0.5", in_dir("s.sh"), NULL), 124);
	cr_assert_str_eq(slurp("r.out"), "booting\nbefore\n");
	cr_assert(strstr(slurp("r.err"), "timed out after 0.5 s"));
}

Test(exec, clear_errors_before_booting)
{
	char spec[300];

	write_file("s.sh", "true\n", 0644);
	cr_assert_eq(run("ok", "r", in_dir("missing.sh"), NULL), 2);
	cr_assert(strstr(slurp("r.err"), "missing.sh: No such file or directory"));
	cr_assert_eq(run("ok", "r", in_dir("bin"), NULL), 2);
	cr_assert(strstr(slurp("r.err"), "not a regular file"));
	cr_assert_eq(run("ok", "r", NULL), 2);
	cr_assert_eq(run("ok", "r", "--timeout", "soon", in_dir("s.sh"), NULL), 2);
	cr_assert_eq(run("ok", "r", "--smp", "0", in_dir("s.sh"), NULL), 2);
	cr_assert_eq(run("ok", "r", "--file", in_dir("nope"), in_dir("s.sh"), NULL), 2);
	cr_assert(strstr(slurp("r.err"), "--file "));
	cr_assert(strstr(slurp("r.err"), "nope: No such file or directory"));
	cr_assert(strstr(slurp("r.err"), "usage: spoor exec"));
	snprintf(spec, sizeof(spec), "%s:/x", in_dir("data.txt"));
	cr_assert_eq(run("ok", "r", "--file", spec, in_dir("s.sh"), NULL), 0, "%s", slurp("r.err"));
	cr_assert_eq(run("ok", "r", "--bogus", in_dir("s.sh"), NULL), 2);
	cr_assert_eq(run("ok", "r", "--initrd", in_dir("data.txt"), in_dir("s.sh"), NULL), 125);
	cr_assert(strstr(slurp("r.err"), "not a cpio (newc) archive"));
}
