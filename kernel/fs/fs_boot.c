/*
 * Building the file tree at boot (kernel only): the ramfs root and /tmp,
 * the initrd unpacked into it, then /dev, /proc and the tracefs skeleton.
 * Runs after memory and SMP bring-up (per_cpu/cpuN follows nr_cpu_ids)
 * and before init opens /dev/console.
 */
#include <kernel/fs/fs.h>
#include <kernel/fs/dev.h>
#include <kernel/fs/initramfs.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/fs_boot.h>
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <asm/page.h>

static void unpack_initrd(void)
{
	struct initramfs_result res;
	const struct boot_module *mod = &boot_info.modules[0];

	if (!boot_info.nr_modules) {
		pr_info("initrd: none given\n");
		return;
	}
	if (unpack_initramfs(__va(mod->start), (size_t)(mod->end - mod->start), &res))
		pr_err("initrd: %s at byte %lu; kept %u entries before it\n", res.error,
		       (unsigned long)res.error_offset, res.entries);
	else
		pr_info("initrd: unpacked %u entries (%lu bytes)\n", res.entries,
			(unsigned long)(mod->end - mod->start));
}

void fs_init(void)
{
	int err = vfs_init();

	if (err) {
		pr_err("fs: no root file system: %s\n", errno_text(err));
		return;
	}
	err = vfs_mkdir(NULL, "/tmp", 01777);
	if (err)
		pr_err("fs: /tmp: %s\n", errno_text(err));
	unpack_initrd();
	if ((err = dev_init()) || (err = proc_init()) || (err = tracefs_init()))
		pr_err("fs: pseudo file systems incomplete: %s\n", errno_text(err));
}
