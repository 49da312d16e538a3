/*
 * /sys/kernel/debug/static_keys: every static branch site and what it
 * holds now, so tests (and people) can watch sites flip. One line a site,
 * in key order:
 *
 *	<code address> <nop|jmp|bad> <site symbol+off> <key symbol+off>
 *
 * e.g. "ffffffff80123456 nop __schedule+0x1f4/0x5c0 __tracepoint_sched_switch+0x8/0x20"
 * (a tracepoint's key sits inside its struct tracepoint). "bad" would be a
 * site holding neither instruction, which boot refuses to get past.
 * Kernel only (kallsyms, debugfs).
 */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/printk.h>
#include <kernel/jump_label.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>

static void static_keys_site(void *arg, const struct jump_entry *e, int state)
{
	seq_printf(arg, "%016lx %s %pS %pS\n", jump_entry_code(e),
		   state > 0 ? "jmp" : state == 0 ? "nop" : "bad",
		   (void *)jump_entry_code(e), jump_entry_key(e));
}

static int static_keys_show(struct seq_file *m, void *v)
{
	jump_label_for_each_site(static_keys_site, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(static_keys);

int jump_label_debugfs_init(void)
{
	struct dentry *debug = pseudo_lookup("/sys/kernel/debug"), *f;

	if (IS_ERR(debug))
		return (int)PTR_ERR(debug);
	f = pseudo_create_file(debug, "static_keys", 0444, &static_keys_fops, NULL);
	dput(debug);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
