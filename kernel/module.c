/*
 * Linux's module system calls and /proc/modules, for ring-3 modprobe and
 * rmmod. A module image is read (init_module: from memory, finit_module:
 * from a file), its .modinfo names the module (module_info.c), and the
 * built-in module of that name is loaded with the parameter string split
 * into its PARAM=VALUE words. Errors as Linux's: EEXIST when loaded
 * already, ENOEXEC for a file that is no module, ENOENT for a module this
 * kernel does not have, EFAULT for bad pointers.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/vmalloc.h>
#include <kernel/printk.h>
#include <kernel/syscalls.h>
#include <kernel/module.h>
#include <kernel/test_modules.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/proc_internal.h>
#include <asm/uaccess.h>

#define MODULE_MAX_IMAGE	(16UL << 20)	/* bigger than any module Spoor could name */
#define MODULE_MAX_ARGS		4096		/* the parameter string, with its NUL */
#define MODULE_MAX_PARAMS	32

/* finit_module's flags (Linux's values). */
#define MODULE_INIT_IGNORE_MODVERSIONS	1
#define MODULE_INIT_IGNORE_VERMAGIC	2
#define MODULE_INIT_COMPRESSED_FILE	4

/* delete_module's flags: O_NONBLOCK and O_TRUNC (forced) are the ones Linux takes. */
#define DELETE_MODULE_FLAGS	(04000 | 01000)

/* Load the module image names, with the user's parameter string. */
static long load_module(const void *image, size_t len, const char *uargs)
{
	char name[MODULE_NAME_LEN], *args, *argv[MODULE_MAX_PARAMS];
	long n, ret = module_info_name(image, len, name);
	int argc = 0;

	if (ret)
		return ret;
	args = kmalloc(MODULE_MAX_ARGS, GFP_KERNEL);
	if (!args)
		return -ENOMEM;
	n = uargs ? strncpy_from_user(args, uargs, MODULE_MAX_ARGS) : -EFAULT;
	ret = n < 0 ? -EFAULT : n >= MODULE_MAX_ARGS ? -E2BIG : 0;
	for (char *p = args; !ret && *p; ) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == MODULE_MAX_PARAMS) {
			ret = -E2BIG;
			break;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
	}
	if (!ret) {
		ret = test_module_load(name, argc, argv);
		if (ret == -ENOENT)
			pr_warn("%s: not built into this kernel (Spoor links no module code)\n", name);
	}
	kfree(args);
	return ret;
}

SYSCALL_DEFINE3(init_module, const void *, umod, unsigned long, len, const char *, uargs)
{
	void *image;
	long ret;

	if (len > MODULE_MAX_IMAGE)
		return -EFBIG;
	if (len < sizeof(u64))
		return -ENOEXEC;
	image = vmalloc(len);
	if (!image)
		return -ENOMEM;
	ret = copy_from_user(image, umod, len) ? -EFAULT : load_module(image, len, uargs);
	vfree(image);
	return ret;
}

SYSCALL_DEFINE3(finit_module, int, fd, const char *, uargs, int, flags)
{
	struct file *f;
	void *image = NULL;
	loff_t pos = 0;
	size_t len;
	long ret;

	if (flags & ~(MODULE_INIT_IGNORE_MODVERSIONS | MODULE_INIT_IGNORE_VERMAGIC |
		      MODULE_INIT_COMPRESSED_FILE))
		return -EINVAL;
	f = files_fget(current->files, fd);
	if (!f)
		return -EBADF;
	ret = -EBADF;
	if (!(f->f_mode & FMODE_READ) || !f->f_op || !f->f_op->read)
		goto out;
	ret = -EINVAL;
	if (!S_ISREG(f->f_inode->i_mode))
		goto out;
	len = (size_t)f->f_inode->i_size;
	ret = -EFBIG;
	if (len > MODULE_MAX_IMAGE)
		goto out;
	/* Compressed module files are not something Spoor's tools make. */
	ret = -EOPNOTSUPP;
	if (flags & MODULE_INIT_COMPRESSED_FILE)
		goto out;
	ret = -ENOEXEC;
	if (len < sizeof(u64))
		goto out;
	ret = -ENOMEM;
	image = vmalloc(len);
	if (!image)
		goto out;
	ret = f->f_op->read(f, image, len, &pos);
	if (ret >= 0)
		ret = (size_t)ret == len ? load_module(image, len, uargs) : -EIO;
out:
	vfree(image);
	fput(f);
	return ret;
}

SYSCALL_DEFINE2(delete_module, const char *, uname, unsigned int, flags)
{
	char name[MODULE_NAME_LEN];
	long n = strncpy_from_user(name, uname, sizeof(name));

	if (n < 0)
		return -EFAULT;
	if ((size_t)n >= sizeof(name))
		return -ENOENT;
	if (flags & ~DELETE_MODULE_FLAGS)
		return -EINVAL;
	return test_module_unload(name);
}

/* Linux's line: name, size, use count, users, state, address (0 to the unprivileged, as here). */
static int modules_show(struct seq_file *m, void *v)
{
	const char *name;

	for (size_t i = 0; (name = test_module_loaded(i)); i++)
		if (*name)
			seq_printf(m, "%s 16384 0 - Live 0x0000000000000000\n", name);
	return 0;
}

static int modules_open(struct inode *inode, struct file *file)
{
	return single_open(file, modules_show, NULL);
}

const struct file_operations modules_fops = {
	.open = modules_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
