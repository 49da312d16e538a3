/*
 * /sys/kernel/debug/kprobes/enabled: 1, or 0 while every probe is taken
 * out of the text (still registered and listed); takes what Linux's
 * kstrtobool takes (1/0, y/n, on/off by their first letters), EINVAL
 * otherwise.
 *
 * /sys/kernel/debug/kprobes/list: every registered kprobe, one a line in
 * Linux's layout,
 *
 *	<address>  <k|r>  <symbol>+0x<offset>    [OPTIMIZED]
 *
 * the address where the probe is in the text (past a function's entry
 * site for a probe asked at +0), `r` for a kretprobe's entry probe, and
 * [OPTIMIZED] while it is hit through a jmp (kernel/kprobes.h). Spoor's
 * probes are never disabled while registered nor ftrace-based, so
 * Linux's [DISABLED] and [FTRACE] do not occur.
 *
 * /sys/kernel/debug/kprobes/blacklist: the functions no probe may enter,
 * "0x<start>-0x<end>\t<symbol>" in address order as Linux lists them;
 * on Spoor those the function tracer cannot trace either (no entry site).
 * Kernel only.
 */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/errno.h>
#include <kernel/kallsyms.h>
#include <kernel/kprobes.h>
#include <kernel/stacktrace.h>
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

/* A function no probe may enter: Linux's "0xSTART-0xEND<tab>name". */
static void kprobe_blacklist_line(void *m, unsigned long start, unsigned long end,
				  const char *name)
{
	if (kernel_text_address(start) && kprobe_blacklisted(start))
		seq_printf(m, "0x%016lx-0x%016lx\t%s\n", start, end, name);
}

static int kprobes_blacklist_show(struct seq_file *m, void *v)
{
	kallsyms_for_each(kprobe_blacklist_line, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kprobes_blacklist);

static int kprobes_enabled_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", kprobes_get_armed());
	return 0;
}

static int kprobes_enabled_open(struct inode *inode, struct file *file)
{
	return single_open(file, kprobes_enabled_show, NULL);
}

/* Linux's kstrtobool: the first character (or "on"/"of"), 1 or 0; -EINVAL. */
static int parse_bool(const char *buf, size_t count)
{
	char c0 = count > 0 ? buf[0] : 0, c1 = count > 1 ? buf[1] : 0;

	bool o = c0 == 'o' || c0 == 'O';

	if (c0 == '1' || c0 == 'y' || c0 == 'Y' || (o && (c1 == 'n' || c1 == 'N')))
		return 1;
	if (c0 == '0' || c0 == 'n' || c0 == 'N' || (o && (c1 == 'f' || c1 == 'F')))
		return 0;
	return -EINVAL;
}

static ssize_t kprobes_enabled_write(struct file *file, const char *buf, size_t count,
				     loff_t *pos)
{
	int on = parse_bool(buf, count);

	if (on < 0)
		return on;
	kprobes_set_armed(on);
	return (ssize_t)count;
}

static const struct file_operations kprobes_enabled_fops = {
	.open = kprobes_enabled_open,
	.read = seq_read,
	.write = kprobes_enabled_write,
	.llseek = seq_lseek,
	.release = single_release,
};

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
	if (!IS_ERR(f))
		f = pseudo_create_file(dir, "enabled", 0600, &kprobes_enabled_fops, NULL);
	if (!IS_ERR(f))
		f = pseudo_create_file(dir, "blacklist", 0400, &kprobes_blacklist_fops, NULL);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
