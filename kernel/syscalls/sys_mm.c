/* Memory system calls: thin wrappers over kernel/mm/mmap.c for current's address space. */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/mman.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fdtable.h>
#include <asm/page.h>

SYSCALL_DEFINE6(mmap, unsigned long, addr, unsigned long, len, unsigned long, prot,
		unsigned long, flags, int, fd, unsigned long, off)
{
	struct file *f = NULL;
	long r;

	if (off & ~PAGE_MASK)
		return -EINVAL;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		f = fget(fd);
		if (!f)
			return -EBADF;
	}
	r = do_mmap(current->mm, addr, len, prot, flags, f, off >> PAGE_SHIFT);
	if (f)
		fput(f);
	return r;
}

SYSCALL_DEFINE2(munmap, unsigned long, addr, size_t, len)
{
	return do_munmap(current->mm, addr, len);
}

SYSCALL_DEFINE3(mprotect, unsigned long, addr, size_t, len, unsigned long, prot)
{
	return do_mprotect(current->mm, addr, len, prot);
}

SYSCALL_DEFINE5(mremap, unsigned long, addr, unsigned long, old_len, unsigned long, new_len,
		unsigned long, flags, unsigned long, new_addr)
{
	return do_mremap(current->mm, addr, old_len, new_len, flags, new_addr);
}

SYSCALL_DEFINE3(madvise, unsigned long, addr, size_t, len, int, advice)
{
	if (advice == MADV_DONTNEED)
		return do_madvise_dontneed(current->mm, addr, len);
	/* Hints Spoor has nothing to do for (WILLNEED, NORMAL, FREE, ...) succeed, as they may. */
	return (addr & ~PAGE_MASK) ? -EINVAL : 0;
}

SYSCALL_DEFINE1(brk, unsigned long, brk)
{
	return (long)do_brk(current->mm, brk);
}
