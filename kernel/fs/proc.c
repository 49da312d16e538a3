/*
 * /proc: system state as text in Linux's layouts. Kernel only: it reads
 * the scheduler, the page allocator, the CPU and the log.
 *
 * /proc/<pid> (proc_pid.c) and /proc/self exist only when looked up
 * (proc_root_iops), so an exited task's directory is simply gone. As in
 * Linux, a listing shows thread-group leaders only; a thread's id still
 * looks up. /proc/kmsg prints the whole log buffer on each open; unlike
 * Linux's it does not consume it.
 */
#include <kernel/fs/dev.h>
#include <kernel/sysrq.h>
#include <kernel/cmdline.h>
#include <kernel/utsname.h>
#include <asm/irq.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/proc_internal.h>
#include <kernel/fs/seq_file.h>
#include <kernel/sched.h>
#include <kernel/mm.h>
#include <kernel/mm/slab.h>
#include <kernel/console.h>
#include <kernel/interrupt.h>
#include <kernel/time.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <asm/tsc.h>
#include <asm/page.h>

static void cpuid(u32 leaf, u32 r[4])
{
	__asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			     : "a"(leaf), "c"(0));
}

static int cpuinfo_show(struct seq_file *m, void *v)
{
	u32 r[4], sig;
	char vendor[13], brand[49] = "";
	unsigned int family, model;

	cpuid(0, r);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = '\0';
	cpuid(1, r);
	sig = r[0];
	family = (sig >> 8) & 0xf;
	model = (sig >> 4) & 0xf;
	if (family == 0xf)
		family += (sig >> 20) & 0xff;
	if (family >= 6)
		model += ((sig >> 16) & 0xf) << 4;
	cpuid(0x80000000, r);
	if (r[0] >= 0x80000004) {
		for (u32 i = 0; i < 3; i++) {
			cpuid(0x80000002 + i, r);
			memcpy(brand + 16 * i, r, 16);
		}
		brand[48] = '\0';
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		seq_printf(m, "processor\t: %u\n", cpu);
		seq_printf(m, "vendor_id\t: %s\n", vendor);
		seq_printf(m, "cpu family\t: %u\n", family);
		seq_printf(m, "model\t\t: %u\n", model);
		seq_printf(m, "model name\t: %s\n", brand);
		seq_printf(m, "stepping\t: %u\n", sig & 0xf);
		seq_printf(m, "cpu MHz\t\t: %lu.%03lu\n", tsc_khz / 1000, tsc_khz % 1000);
		seq_printf(m, "\n");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cpuinfo);

static void meminfo_line(struct seq_file *m, const char *name, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

static int meminfo_show(struct seq_file *m, void *v)
{
	meminfo_line(m, "MemTotal:", totalram_pages());
	meminfo_line(m, "MemFree:", nr_free_pages());
	meminfo_line(m, "MemAvailable:", nr_free_pages());
	meminfo_line(m, "Slab:", nr_slab_pages());
	meminfo_line(m, "PageTables:", nr_page_table_pages());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(meminfo);

/*
 * Linux's slabinfo 2.1 layout, every cache newest first (kmalloc's size
 * classes last); objsize is the object's size, as Linux's, not its stride. Objects in use times their size is what a leak check
 * wants: Slab in meminfo moves only by whole pages. No per-CPU caches, so
 * the tunables are zero. The list lock is held throughout, so a listed
 * cache cannot be destroyed under us; growing the seq_file buffer may
 * kmalloc meanwhile, which is fine: slab_caches_lock nests outside every
 * cache's lock, never inside.
 */
static int slabinfo_show(struct seq_file *m, void *v)
{
	struct kmem_cache *s;
	unsigned long irqflags;

	seq_puts(m, "slabinfo - version: 2.1\n"
		    "# name            <active_objs> <num_objs> <objsize> <objperslab> "
		    "<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
		    "slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	spin_lock_irqsave(&slab_caches_lock, irqflags);
	list_for_each_entry(s, &slab_caches, list) {
		unsigned long slabs = READ_ONCE(s->nr_slabs);

		seq_printf(m, "%-17s %6lu %6lu %6u %4u %4u : tunables %4u %4u %4u : "
			   "slabdata %6lu %6lu %6u\n", s->name, READ_ONCE(s->active_objs),
			   slabs * s->objects, s->object_size, s->objects, 1u << s->order,
			   0u, 0u, 0u, slabs, slabs, 0u);
	}
	spin_unlock_irqrestore(&slab_caches_lock, irqflags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(slabinfo);

static int uptime_show(struct seq_file *m, void *v)
{
	struct sched_cpu_stats st;
	u64 up = ktime_get_ns(), idle = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		sched_cpu_stats((int)cpu, &st);
		idle += st.idle_ns;
	}
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(up / NSEC_PER_SEC),
		   (unsigned long)(up % NSEC_PER_SEC / 10000000), (unsigned long)(idle / NSEC_PER_SEC),
		   (unsigned long)(idle % NSEC_PER_SEC / 10000000));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uptime);

static int version_show(struct seq_file *m, void *v)
{
	seq_printf(m, linux_proc_banner, UTS_SYSNAME, UTS_RELEASE, UTS_VERSION);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

static int cmdline_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", boot_cmdline.raw);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cmdline);

/* One tree, but scripts find tracefs the Linux way: grep tracefs /proc/mounts. */
static int mounts_show(struct seq_file *m, void *v)
{
	seq_puts(m, "rootfs / rootfs rw 0 0\n"
		    "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
		    "tracefs /sys/kernel/tracing tracefs rw,nosuid,nodev,noexec,relatime 0 0\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mounts);

static int softirqs_show(struct seq_file *m, void *v)
{
	seq_puts(m, "                    ");
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		seq_printf(m, "CPU%-8u", cpu);
	seq_putc(m, '\n');
	for (unsigned int nr = 0; nr < NR_SOFTIRQS; nr++) {
		seq_printf(m, "%12s:", softirq_to_name[nr]);
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
			seq_printf(m, " %10lu", (unsigned long)softirq_count_of((int)cpu, nr));
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(softirqs);

static int kmsg_show(struct seq_file *m, void *v)
{
	u64 pos = printk_log_tail(), head = printk_log_head();
	char chunk[256];
	size_t n;

	while (pos < head && (n = printk_log_read(pos, chunk, min(sizeof(chunk), head - pos))) > 0) {
		seq_write(m, chunk, n);
		pos += n;
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kmsg);

static int interrupts_show(struct seq_file *m, void *v)
{
	return arch_show_interrupts(m);
}
DEFINE_SHOW_ATTRIBUTE(interrupts);

static struct dentry *proc_root_lookup(struct dentry *dir, const char *name)
{
	char self[16];

	if (!strcmp(name, "self")) {
		if (!current)
			return NULL;
		snprintf(self, sizeof(self), "%d", current->pid);
		return pseudo_new_symlink(dir, name, self);
	}
	return proc_pid_dir(dir, name);
}

/* Entry 0 is "self", then one per thread group in the task list. */
static int proc_root_iterate(struct dentry *dir, struct dir_context *ctx)
{
	struct task_struct *p;
	char name[16];
	pid_t pid;

	if (ctx->pos == 0) {
		if (!dir_emit(ctx, "self", 4, dir->d_inode->i_ino + 1, DT_LNK))
			return 0;
		ctx->pos++;
	}
	for (;;) {
		loff_t i = 1;

		pid = 0;
		spin_lock(&tasklist_lock);
		list_for_each_entry(p, &task_list, tasks) {
			if (p->tgid == p->pid && i++ == ctx->pos) {
				pid = p->pid;
				break;
			}
		}
		spin_unlock(&tasklist_lock);
		if (!pid)
			return 0;
		if (!dir_emit(ctx, name, snprintf(name, sizeof(name), "%d", pid),
			      dir->d_inode->i_ino + 2 + (u64)pid, DT_DIR))
			return 0;
		ctx->pos++;
	}
}

static const struct inode_operations proc_root_iops = {
	.lookup = proc_root_lookup,
	.iterate = proc_root_iterate,
};

int proc_init(void)
{
	static const struct pseudo_entry files[] = {
		{ "cpuinfo", 0444, &cpuinfo_fops },
		{ "meminfo", 0444, &meminfo_fops },
		{ "slabinfo", 0444, &slabinfo_fops },
		{ "uptime", 0444, &uptime_fops },
		{ "version", 0444, &version_fops },
		{ "cmdline", 0444, &cmdline_fops },
		{ "mounts", 0444, &mounts_fops },
		{ "softirqs", 0444, &softirqs_fops },
		{ "kmsg", 0400, &kmsg_fops },
		{ "interrupts", 0444, &interrupts_fops },
		{ "kallsyms", 0444, &kallsyms_fops },
		{ "modules", 0444, &modules_fops },
		{ "sysrq-trigger", 0200, &sysrq_trigger_fops },
	};
	struct dentry *proc = pseudo_create_dir_ops(NULL, "proc", &proc_root_iops, NULL);

	if (IS_ERR(proc))
		return (int)PTR_ERR(proc);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct dentry *d = pseudo_create_file(proc, files[i].name, files[i].mode,
						      files[i].fops, NULL);

		if (IS_ERR(d))
			return (int)PTR_ERR(d);
	}
	return proc_sys_init(proc);
}
