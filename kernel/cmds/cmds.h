/*
 * The commands the shell runs in tasks of their own. Each is a C main
 * over sh_os and sh_io, in a file of its own; cmds.c holds the table.
 */
#ifndef KERNEL_CMDS_CMDS_H
#define KERNEL_CMDS_CMDS_H

#include <kernel/types.h>

/* envp: NAME=value strings of the exported variables, NULL-terminated. */
typedef int (*sh_main_fn)(int argc, char **argv, char **envp);

struct sh_command {
	const char *name;
	sh_main_fn main;
	const char *usage;	/* for help */
};

const struct sh_command *sh_find_command(const char *name);
/* The table, for help; ends with a NULL name. */
extern const struct sh_command sh_commands[];

#define DECLARE_CMD(fn) int fn(int argc, char **argv, char **envp)

DECLARE_CMD(cmd_sh);
DECLARE_CMD(cmd_id);
DECLARE_CMD(cmd_mktemp);
DECLARE_CMD(cmd_which);
DECLARE_CMD(cmd_unlink);
DECLARE_CMD(cmd_true);
DECLARE_CMD(cmd_false);
DECLARE_CMD(cmd_echo);
DECLARE_CMD(cmd_ping);
DECLARE_CMD(cmd_printf);
DECLARE_CMD(cmd_test);
DECLARE_CMD(cmd_pwd);
DECLARE_CMD(cmd_clear);
DECLARE_CMD(cmd_ls);
DECLARE_CMD(cmd_cat);
DECLARE_CMD(cmd_grep);
DECLARE_CMD(cmd_wc);
DECLARE_CMD(cmd_head);
DECLARE_CMD(cmd_tail);
DECLARE_CMD(cmd_sort);
DECLARE_CMD(cmd_uniq);
DECLARE_CMD(cmd_cut);
DECLARE_CMD(cmd_awk);
DECLARE_CMD(cmd_expr);
DECLARE_CMD(cmd_tr);
DECLARE_CMD(cmd_sed);
DECLARE_CMD(cmd_seq);
DECLARE_CMD(cmd_diff);
DECLARE_CMD(cmd_tee);
DECLARE_CMD(cmd_sleep);
DECLARE_CMD(cmd_mkdir);
DECLARE_CMD(cmd_rmdir);
DECLARE_CMD(cmd_rm);
DECLARE_CMD(cmd_cp);
DECLARE_CMD(cmd_chmod);
DECLARE_CMD(cmd_ps);
DECLARE_CMD(cmd_kill);
DECLARE_CMD(cmd_nproc);
DECLARE_CMD(cmd_uptime);
DECLARE_CMD(cmd_dmesg);
DECLARE_CMD(cmd_help);
DECLARE_CMD(cmd_poweroff);
DECLARE_CMD(cmd_basename);
DECLARE_CMD(cmd_dirname);
DECLARE_CMD(cmd_uname);
DECLARE_CMD(cmd_cksum);
DECLARE_CMD(cmd_dd);
DECLARE_CMD(cmd_md5sum);
DECLARE_CMD(cmd_yes);
DECLARE_CMD(cmd_xargs);
DECLARE_CMD(cmd_find);
DECLARE_CMD(cmd_touch);
DECLARE_CMD(cmd_mv);
DECLARE_CMD(cmd_date);
DECLARE_CMD(cmd_stat);
DECLARE_CMD(cmd_ln);
DECLARE_CMD(cmd_readlink);
DECLARE_CMD(cmd_trace_dump);	/* trace/tracedat_dump.c */

#endif
