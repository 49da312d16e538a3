/* The table of commands the shell runs in tasks of their own. */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>

const struct sh_command sh_commands[] = {
	{ "[", cmd_test, "[ EXPR ]" },
	{ "awk", cmd_awk, "awk [-F FS] [-v VAR=VALUE]... ['PROGRAM' | -f FILE] [ARGUMENT]..." },
	{ "basename", cmd_basename, "basename PATH [SUFFIX]" },
	{ "cat", cmd_cat, "cat [FILE]..." },
	{ "cksum", cmd_cksum, "cksum [FILE]..." },
	{ "clear", cmd_clear, "clear" },
	{ "cp", cmd_cp, "cp SRC... DEST" },
	{ "cut", cmd_cut, "cut -d C -f LIST | -c LIST [FILE]..." },
	{ "date", cmd_date, "date [-u] [+FORMAT] (the clock starts at the epoch at boot)" },
	{ "diff", cmd_diff, "diff FILE1 FILE2" },
	{ "dd", cmd_dd, "dd [if=FILE] [of=FILE] [bs=N] [count=N]" },
	{ "dirname", cmd_dirname, "dirname PATH" },
	{ "dmesg", cmd_dmesg, "dmesg" },
	{ "echo", cmd_echo, "echo [-neE] [ARG]..." },
	{ "expr", cmd_expr, "expr ARG... (| & = != < <= > >= + - * / % : ( ))" },
	{ "false", cmd_false, "false" },
	{ "find", cmd_find, "find [PATH]... [-maxdepth N] [-mindepth N] [-type f|d] [-name PATTERN]" },
	{ "grep", cmd_grep, "grep [-qcvEwoinlhF] [-A N] [-B N] [-C N] [-e PATTERN]... [PATTERN] [FILE]..." },
	{ "head", cmd_head, "head [-n N] [FILE]..." },
	{ "help", cmd_help, "help" },
	{ "id", cmd_id, "id [-u|-g|-G] [-n]" },
	{ "kill", cmd_kill, "kill [-s SIGNAL | -SIGNAL] PID... | -l" },
	{ "ln", cmd_ln, "ln -s [-f] TARGET LINK" },
	{ "ls", cmd_ls, "ls [-la1C] [PATH]..." },
	{ "md5sum", cmd_md5sum, "md5sum [FILE]..." },
	{ "mkdir", cmd_mkdir, "mkdir [-p] DIR..." },
	{ "mktemp", cmd_mktemp, "mktemp [-d] [-p DIR] [TEMPLATE]" },
	{ "mv", cmd_mv, "mv SRC... DEST" },
	{ "nproc", cmd_nproc, "nproc" },
	{ "ping", cmd_ping, "ping [-c COUNT] [-i SECONDS] [-q] HOST: loopback only (a wake-up source)" },
	{ "poweroff", cmd_poweroff, "poweroff" },
	{ "printf", cmd_printf, "printf FORMAT [ARG]..." },
	{ "ps", cmd_ps, "ps" },
	{ "pwd", cmd_pwd, "pwd" },
	{ "readlink", cmd_readlink, "readlink [-f|-e] [-nqsv] FILE..." },
	{ "reboot", cmd_poweroff, "reboot" },
	{ "rm", cmd_rm, "rm [-rf] PATH..." },
	{ "rmdir", cmd_rmdir, "rmdir DIR..." },
	{ "sed", cmd_sed, "sed [-n] [-e] 's/RE/REPL/[gp]' [FILE]..." },
	{ "seq", cmd_seq, "seq [FIRST [INCR]] LAST" },
	{ "sh", cmd_sh, "sh [-ex] [-c TEXT | FILE] [ARG]..." },
	{ "sleep", cmd_sleep, "sleep SECONDS" },
	{ "sort", cmd_sort, "sort [-nru] [-k N] [FILE]..." },
	{ "stat", cmd_stat, "stat [-c FORMAT] FILE..." },
	{ "tail", cmd_tail, "tail [-n N] [FILE]..." },
	{ "tee", cmd_tee, "tee [-a] [FILE]..." },
	{ "test", cmd_test, "test EXPR" },
	{ "touch", cmd_touch, "touch FILE..." },
	{ "tr", cmd_tr, "tr [-cds] SET1 [SET2]" },
	{ "trace-dump", cmd_trace_dump, "trace-dump [-o FILE] [-d TRACEFS]: the trace as trace.dat" },
	{ "true", cmd_true, "true" },
	{ "uname", cmd_uname, "uname [-asnrvmo]" },
	{ "uniq", cmd_uniq, "uniq [-c] [FILE]" },
	{ "unlink", cmd_unlink, "unlink FILE" },
	{ "uptime", cmd_uptime, "uptime" },
	{ "wc", cmd_wc, "wc [-lwc] [FILE]..." },
	{ "which", cmd_which, "which NAME..." },
	{ "xargs", cmd_xargs, "xargs [-n MAX] [-I REPL] [COMMAND [ARG]...]" },
	{ "yes", cmd_yes, "yes [STRING]..." },
	{ NULL, NULL, NULL },
};

const struct sh_command *sh_find_command(const char *name)
{
	for (const struct sh_command *c = sh_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
