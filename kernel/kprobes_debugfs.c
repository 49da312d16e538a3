/*
 * /sys/kernel/debug/kprobes/list: every registered kprobe, one a line in
 * Linux's layout,
 *
 *	<address>  <k|r>  <symbol>+0x<offset>    [OPTIMIZED]
 *
 * the address where the probe is in the text (past a function's entry
 * site for a probe asked at +0), `r` for a kretprobe's entry probe, and
 * [OPTIMIZED] while it is hit through a jmp (kernel/kprobes.h). Spoor's
 * probes are never disabled while registered nor ftrace-based, so
 * Linux's [DISABLED] and [FTRACE] do not occur. Kernel only.
 */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/kallsyms.h>
#include <kernel/kprobes.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>

static void kprobe_list_line(void *arg, const struct kprobe_info *info)
{
	unsigned long offset = 0, size;
	const char *name = "";

	kallsyms_lookup(info->addr, &name, &offset, &size);
	seq_printf(arg, "%016lx  %c  %s+0x%lx    %s\n", info->addr, info->is_return ? 'r' : 'k',
		   name, offset, info->optimized ? "[OPTIMIZED]" : "");
}

static int kprobes_list_show(struct seq_file *m, void *v)
{
	kprobes_list(kprobe_list_line, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kprobes_list);

int kprobes_debugfs_init(void)
{
	struct dentry *debug = pseudo_lookup("/sys/kernel/debug"), *dir, *f;

	if (IS_ERR(debug))
		return (int)PTR_ERR(debug);
	dir = pseudo_create_dir(debug, "kprobes");
	dput(debug);
	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	f = pseudo_create_file(dir, "list", 0400, &kprobes_list_fops, NULL);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
