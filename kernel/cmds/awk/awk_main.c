/*
 * awk [-F FS] [-v VAR=VALUE]... [--] 'PROGRAM' [ARGUMENT]...
 * awk [-F FS] [-v VAR=VALUE]... -f PROGFILE [--] [ARGUMENT]...
 * The POSIX awk language (awk.h lists the parts and the limits of its
 * numbers). A syntax error names its line and column and exits 2, as does
 * a run-time error; `exit N` sets the status.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_os.h>
#include <kernel/shell/sh_util.h>
#include <kernel/cmds/cmds.h>
#include <kernel/cmds/awk/awk.h>

static void set_text(struct awk *a, int slot, const char *s)
{
	awk_set_str(a, slot, str_make(a, s, strlen(s)));
}

/* arr[key] = value as input. */
static void put_elem(struct awk *a, struct awk_array *arr, const char *key, size_t klen, const char *value)
{
	struct awk_str *k = str_make(a, key, klen);
	struct awk_val *v = arr_lookup(a, arr, k, true);

	if (v)
		val_input(v, str_make(a, value, strlen(value)));
	str_put(k);
}

/* The special variables' first values, ARGV from the n operands and ENVIRON from envp. */
static void init_globals(struct awk *a, int n, char **operands, const char *fs, char **envp)
{
	struct sh_buf b = { 0 };
	struct awk_array *arr;
	char key[24];

	awk_unescape(&b, fs, strlen(fs));
	set_text(a, V_FS, b.s ? b.s : "");
	sh_buf_free(&b);
	set_text(a, V_OFS, " ");
	set_text(a, V_ORS, "\n");
	set_text(a, V_RS, "\n");
	set_text(a, V_SUBSEP, "\034");
	set_text(a, V_CONVFMT, "%.6g");
	set_text(a, V_OFMT, "%.6g");
	awk_set_num(a, V_NR, 0);
	awk_set_num(a, V_NF, 0);
	awk_set_num(a, V_FNR, 0);
	awk_set_num(a, V_RSTART, 0);
	awk_set_num(a, V_RLENGTH, -AWK_ONE);
	awk_set_num(a, V_ARGC, awk_num_from_int(n + 1));
	if ((arr = a->globals[V_ARGV].arr = arr_new(a))) {
		put_elem(a, arr, "0", 1, "awk");
		for (int i = 0; i < n; i++)
			put_elem(a, arr, key, (size_t)snprintf(key, sizeof(key), "%d", i + 1), operands[i]);
	}
	if ((arr = a->globals[V_ENVIRON].arr = arr_new(a)))
		for (char **e = envp; e && *e; e++) {
			const char *eq = strchr(*e, '=');

			if (eq)
				put_elem(a, arr, *e, (size_t)(eq - *e), eq + 1);
		}
}

static void awk_free(struct awk *a)
{
	fields_free(a);
	val_free(&a->retval);
	for (int i = 0; a->globals && i < a->prog->nglobals; i++) {
		val_free(&a->globals[i].val);
		arr_put(a->globals[i].arr);
	}
	kfree(a->globals);
	awk_prog_free(a->prog);
	kfree(a);
}

static int usage(void)
{
	sh_eprintf("awk: usage: awk [-F FS] [-v VAR=VALUE]... ['PROGRAM' | -f FILE] [ARGUMENT]...\n");
	return 2;
}

int cmd_awk(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { 0 };
	struct sh_buf progfile = { 0 };
	const char *fs = " ", *text = NULL;
	int opt, nassign = 0, status;
	struct awk_prog *prog;
	struct awk *a;
	char **assigns = kmalloc(sizeof(char *) * (size_t)argc, GFP_KERNEL);

	if (!assigns)
		return 2;
	while ((opt = sh_getopt(&g, argc, argv, "F:v:f:")) != -1) {
		if (opt == 'F') {
			fs = g.arg;
		} else if (opt == 'v' && strchr(g.arg, '=') && g.arg[0] != '=') {
			assigns[nassign++] = (char *)g.arg;
		} else if (opt == 'f' && !text) {
			int fd = sh_open_input("awk", g.arg);

			if (fd < 0 || sh_read_all(fd, &progfile) || progfile.oom) {
				if (fd > 0)
					sh_os->close(fd);
				sh_buf_free(&progfile);
				kfree(assigns);
				return 2;
			}
			if (fd > 0)
				sh_os->close(fd);
			text = progfile.s ? progfile.s : "";
		} else {
			kfree(assigns);
			sh_buf_free(&progfile);
			return usage();
		}
	}
	if (!text && g.ind < argc)
		text = argv[g.ind++];
	if (!text) {
		kfree(assigns);
		return usage();
	}
	prog = awk_compile(text);
	sh_buf_free(&progfile);
	a = prog ? kzalloc(sizeof(*a), GFP_KERNEL) : NULL;
	if (a)
		a->globals = kzalloc(sizeof(*a->globals) * (size_t)prog->nglobals, GFP_KERNEL);
	if (!a || !a->globals) {
		if (prog)
			sh_eprintf("awk: out of memory\n");
		if (prog)
			awk_prog_free(prog);
		kfree(a);
		kfree(assigns);
		return 2;
	}
	a->prog = prog;
	a->envp = envp;
	a->argi = 1;
	out_init(&a->out, 1);
	init_globals(a, argc - g.ind, argv + g.ind, fs, envp);
	for (int i = 0; i < nassign && !a->unwind; i++)
		awk_assign_operand(a, assigns[i]);
	kfree(assigns);
	if (!a->unwind)
		awk_run(a);
	out_flush(&a->out);
	awk_streams_free(a);
	/* A write error met by print was reported there. */
	status = a->unwind == X_ERROR ? a->status : out_finish(&a->out, "awk", a->status);
	awk_free(a);
	return status;
}
