/*
 * /proc/kallsyms: the symbol table as Linux prints it, "ADDRESS TYPE NAME"
 * per line in address order, so tools that read it (perf, trace-cmd,
 * scripts resolving addresses from a trace) work unchanged. The table
 * keeps no nm type letters; the section an address falls in gives them
 * (all global: the table does not know which symbols are static).
 * Kernel only.
 */
#include <kernel/kallsyms.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/proc_internal.h>

extern char _text[], _etext[], _srodata[], _erodata[], _sdata[], _edata[], _sbss[], _ebss[];

static char symbol_type(unsigned long a)
{
	if (a >= (unsigned long)_text && a < (unsigned long)_etext)
		return 'T';
	if (a >= (unsigned long)_srodata && a < (unsigned long)_erodata)
		return 'R';
	if (a >= (unsigned long)_sdata && a < (unsigned long)_edata)
		return 'D';
	if (a >= (unsigned long)_sbss && a < (unsigned long)_ebss)
		return 'B';
	return 'A';
}

static void kallsyms_line(void *m, unsigned long start, unsigned long end, const char *name)
{
	seq_printf(m, "%016lx %c %s\n", start, symbol_type(start), name);
}

static int kallsyms_show(struct seq_file *m, void *v)
{
	kallsyms_for_each(kallsyms_line, m);
	return 0;
}

static int kallsyms_open(struct inode *inode, struct file *file)
{
	return single_open(file, kallsyms_show, NULL);
}

const struct file_operations kallsyms_fops = {
	.open = kallsyms_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
