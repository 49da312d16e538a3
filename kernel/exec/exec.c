/*
 * execve: replace the calling task's program with a static ELF
 * executable, or with the interpreter a '#!' script names (exec_script.c).
 * Everything that can fail (opening, checking, reading the
 * headers, building the new address space and its stack image) happens
 * before the point of no return; after it the old address space is gone
 * and the task leaves for the new program's entry point.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/random.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <kernel/sched/hooks.h>
#include <kernel/exec/elf.h>
#include <kernel/exec/exec.h>
#include <asm/uaccess.h>
#include <asm/switch_to.h>
#include <asm/page.h>
#include <asm/cpu.h>

#define AT_HWCAP2		26
#define AT_MINSIGSTKSZ		51
#define EXEC_HEADER_READ	1024		/* bytes read first: the ELF header, usually the phdrs too */
#define STACK_RANDOM_PAGES	256

static ssize_t read_at(struct file *f, void *buf, size_t len, loff_t pos)
{
	ssize_t n = f->f_op && f->f_op->read ? f->f_op->read(f, buf, len, &pos) : -EACCES;

	return n < 0 ? n : (size_t)n == len ? n : -EIO;
}

/*
 * The program headers of f, validated. A '#!' script instead gives 1 and
 * its first EXEC_SCRIPT_LINE bytes (NUL-terminated) in script.
 */
static int read_elf(struct file *f, struct elf_info *info, char *script)
{
	u64 size = (u64)f->f_inode->i_size, phoff;
	size_t phsize, hlen = size < EXEC_HEADER_READ ? (size_t)size : EXEC_HEADER_READ;
	char *hdr = kmalloc(EXEC_HEADER_READ, GFP_KERNEL), *ph = NULL;
	int err = -ENOMEM;

	if (!hdr)
		return -ENOMEM;
	err = read_at(f, hdr, hlen, 0);
	if (err < 0)
		goto out;
	if (hlen >= 2 && hdr[0] == '#' && hdr[1] == '!') {
		size_t n = min(hlen, (size_t)EXEC_SCRIPT_LINE - 1);

		memcpy(script, hdr, n);
		script[n] = '\0';
		err = 1;
		goto out;
	}
	err = elf_check_header(hdr, hlen, size, &phoff, &phsize);
	if (err)
		goto out;
	ph = kmalloc(phsize, GFP_KERNEL);
	err = -ENOMEM;
	if (!ph)
		goto out;
	err = read_at(f, ph, phsize, (loff_t)phoff);
	if (err >= 0)
		err = elf_parse(hdr, ph, size, info);
out:
	kfree(ph);
	kfree(hdr);
	return err;
}

/* The new address space: one vma per PT_LOAD, the heap's start, the stack's vma. */
static int map_elf(struct mm_struct *mm, struct file *f, const struct elf_info *info,
		   unsigned long bias, unsigned long stack_top)
{
	unsigned long prev_end = 0, stack_flags = VM_READ | VM_WRITE | VM_STACK | VM_GROWSDOWN;

	for (unsigned int i = 0; i < info->nr_load; i++) {
		const struct elf_load *l = &info->load[i];
		unsigned long va = l->vaddr + bias;
		unsigned long start = va & PAGE_MASK, end = ALIGN_UP(va + l->memsz, PAGE_SIZE);
		unsigned long pgoff = (l->offset - (l->vaddr & ~PAGE_MASK)) >> PAGE_SHIFT;
		int err;

		/* Two segments sharing a page would need one vma with two sources. */
		if (start < prev_end)
			return -EINVAL;
		err = mm_map_fixed(mm, start, end, l->prot, f, pgoff, va + l->filesz);
		if (err)
			return err;
		prev_end = end;
		if (l->prot & PROT_EXEC) {
			mm->start_code = start;
			mm->end_code = va + l->filesz;
		} else if (l->prot & PROT_WRITE) {
			if (!mm->start_data)
				mm->start_data = va;
			mm->end_data = va + l->filesz;
		}
	}
	mm->start_brk = mm->brk = prev_end;
	if (info->exec_stack)
		stack_flags |= VM_EXEC;
	return mm_map_fixed(mm, ALIGN_UP(stack_top, PAGE_SIZE) - STACK_SIZE_MAX,
			    ALIGN_UP(stack_top, PAGE_SIZE), stack_flags, NULL, 0, 0);
}

/* The argument and environment strings' extent, for /proc/PID/cmdline and environ. */
static void note_args(struct mm_struct *mm, const char *img, unsigned long sp, int argc, int envc)
{
	const u64 *v = (const u64 *)img;	/* img is the stack image from sp up */
	unsigned long last;

	if (argc) {
		mm->arg_start = v[1];
		last = v[argc];
		mm->arg_end = last + strlen(img + (last - sp)) + 1;
	}
	if (envc) {
		mm->env_start = v[argc + 2];
		last = v[argc + 1 + envc];
		mm->env_end = last + strlen(img + (last - sp)) + 1;
	}
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Run the program at path; shown is the name execve was given (the script's
 * own for an interpreter), which comm, AT_EXECFN and the exec event carry,
 * as Linux's bprm->filename. depth counts the '#!' interpreters followed.
 */
int exec_file(const char *path, const char *shown, const struct exec_args *args, int depth)
{
	struct task_struct *t = current;
	struct elf_info info;
	struct mm_struct *mm = NULL, *old;
	struct dentry *cwd = t->fs ? fs_get_pwd(t->fs) : NULL;
	struct file *f = vfs_open(cwd, path, O_RDONLY, 0);
	char script[EXEC_SCRIPT_LINE];
	unsigned long bias = 0, stack_top, sp;
	size_t img_size;
	char *img = NULL;
	u8 random16[16];
	pid_t old_pid = t->pid;
	/* A kernel thread's own frames are still at the top of its stack, where pt_regs go. */
	bool from_kernel = t->flags & PF_KTHREAD;
	long ret;

	dput(cwd);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	ret = -EACCES;
	if (!S_ISREG(f->f_inode->i_mode) || !(f->f_inode->i_mode & 0111))
		goto out;
	ret = read_elf(f, &info, script);
	if (ret == 1) {
		fput(f);
		return exec_script(script, path, shown, args, depth);
	}
	if (ret)
		goto out;
	if (info.type == ET_DYN)
		bias = PIE_BASE + ((get_random_u64() % 1024) << PAGE_SHIFT) - info.lo;
	stack_top = STACK_TOP - ((get_random_u64() % STACK_RANDOM_PAGES) << PAGE_SHIFT);
	ret = -ENOMEM;
	mm = mm_alloc();
	if (!mm)
		goto out;
	ret = map_elf(mm, f, &info, bias, stack_top);
	if (ret)
		goto out;

	/* The stack image: strings, pointers and the auxiliary vector, built here, copied at once. */
	img_size = args->strings_size + (size_t)(args->argc + args->envc) * 8 + 4096;
	img = kmalloc(img_size, GFP_KERNEL);
	ret = -ENOMEM;
	if (!img)
		goto out;
	get_random_bytes(random16, sizeof(random16));
	{
		const u64 auxv[][2] = {
			{ AT_HWCAP, 0x178bfbff }, { AT_PAGESZ, PAGE_SIZE }, { AT_CLKTCK, 100 },
			{ AT_PHDR, info.phdr_vaddr ? info.phdr_vaddr + bias : 0 },
			{ AT_PHENT, sizeof(Elf64_Phdr) }, { AT_PHNUM, info.phnum }, { AT_BASE, 0 },
			{ AT_FLAGS, 0 }, { AT_ENTRY, info.entry + bias }, { AT_UID, 0 }, { AT_EUID, 0 },
			{ AT_GID, 0 }, { AT_EGID, 0 }, { AT_SECURE, 0 }, { AT_HWCAP2, 0 },
			{ AT_MINSIGSTKSZ, MINSIGSTKSZ },
		};
		struct exec_stack_args sa = {
			.argc = args->argc, .argv = args->argv, .envc = args->envc, .envp = args->envp,
			.execfn = shown, .platform = "x86_64", .random16 = random16,
			.auxv = auxv, .nr_auxv = ARRAY_SIZE(auxv),
		};
		long r = exec_stack_build(img, img_size, stack_top, &sa);

		ret = -E2BIG;
		if (r < 0)
			goto out;
		sp = (unsigned long)r;
	}
	note_args(mm, img + img_size - (stack_top - sp), sp, args->argc, args->envc);
	mm->start_stack = sp;
	/* The absolute path, as /proc/PID/exe shows it whatever the caller's cwd was. */
	if (d_path(f->f_dentry, mm->exe_path, sizeof(mm->exe_path)) < 0)
		strscpy(mm->exe_path, path, sizeof(mm->exe_path));
	ret = signal_init_process(t);
	if (ret)
		goto out;
	/* The last thing that may fail: the other threads of the process end now. */
	if (READ_ONCE(t->signal->live) > 1) {
		ret = de_thread(t);
		if (ret)
			goto out;
	}
	if (!t->thread.fpu) {
		t->thread.fpu = fpu_alloc();
		ret = -ENOMEM;
		if (!t->thread.fpu)
			goto out;
	}

	/* --- point of no return: the old program is gone from here on --- */
	old = t->mm;
	t->mm = mm;
	arch_activate_mm(mm);
	if (old)
		mmput(old);
	vfork_release(t);
	mm = NULL;
	if (copy_to_user((void *)sp, img + img_size - (stack_top - sp), stack_top - sp)) {
		kfree(img);
		fput(f);
		do_group_exit(SIGSEGV);
	}
	t->flags &= ~PF_KTHREAD;
	set_task_comm(t, basename_of(shown));
	flush_signal_handlers(t);
	if (t->files)
		do_close_on_exec(t->files);
	t->thread.fsbase = 0;
	t->thread.gsbase = 0;
	load_fsgs_base(0, 0);
	fpu_reset_live();
	t->clear_child_tid = 0;
	t->set_child_tid = 0;
	t->robust_list = 0;
	t->thread.entry_ip = info.entry + bias;
	t->thread.entry_sp = sp;
	if (!from_kernel)
		arch_setup_user_regs(task_pt_regs(t), info.entry + bias, sp);
	trace_sched_process_exec(t, old_pid, shown);
	/* The program's own mappings, for observers that name code by file (perf's MMAP records). */
	{
		struct vm_area_struct *vma;

		list_for_each_entry(vma, &t->mm->vmas, node)
			if (vma->file)
				mm_notify_mmap(t->mm, vma);
	}
	ret = 0;
out:
	kfree(img);
	if (mm)
		mmput(mm);
	fput(f);
	return (int)ret;
}

int do_execve(const char *filename, const struct exec_args *args)
{
	return exec_file(filename, filename, args, 0);
}
