/*
 * ELF64 header and program header checks for ring-3 static executables.
 *
 * Everything here reads bytes that came from a user-supplied file, so every
 * sum of two file fields is checked for overflow before it is compared, and
 * structs are copied out with memcpy (the buffers need not be aligned).
 * Nothing is mapped here: the result is a struct elf_info the kernel half
 * maps without further checks.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/exec/elf.h>

int elf_check_header(const void *buf, size_t len, u64 file_size, u64 *phoff, size_t *phsize)
{
	Elf64_Ehdr eh;
	u64 size;

	if (len < sizeof(eh) || file_size < sizeof(eh))
		return -ENOEXEC;
	memcpy(&eh, buf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_ident[EI_VERSION] != EV_CURRENT ||
	    eh.e_version != EV_CURRENT)
		return -ENOEXEC;
	if (eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return -ENOEXEC;
	/* Another entry size would mean another struct layout than ours. */
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum < 1)
		return -ENOEXEC;
	/*
	 * Cap the table as Linux does: the kernel half allocates phsize bytes
	 * on the file's word, so it must stay small.
	 */
	size = (u64)eh.e_phnum * sizeof(Elf64_Phdr);
	if (size > ELF_MAX_PHDRS_SIZE)
		return -ENOEXEC;
	if (eh.e_phoff > file_size || size > file_size - eh.e_phoff)
		return -ENOEXEC;
	*phoff = eh.e_phoff;
	*phsize = size;
	return 0;
}

/* PF_R/PF_W/PF_X to PROT_READ/PROT_WRITE/PROT_EXEC. */
static unsigned int pf_to_prot(u32 flags)
{
	return (flags & PF_R ? PROT_READ : 0) |
	       (flags & PF_W ? PROT_WRITE : 0) |
	       (flags & PF_X ? PROT_EXEC : 0);
}

/*
 * One PT_LOAD on its own: sizes, file range, address range, and page
 * congruence (a page of the file maps to a page of memory, so vaddr and
 * offset must sit at the same place within their pages).
 */
static int check_load(const Elf64_Phdr *ph, u64 file_size)
{
	if (ph->p_filesz > ph->p_memsz)
		return -EINVAL;
	if (ph->p_offset > file_size || ph->p_filesz > file_size - ph->p_offset)
		return -EINVAL;
	/*
	 * The end must not wrap and must stay in user space. This holds for
	 * ET_DYN too, although it gets relocated: its link-time addresses are
	 * small (a static PIE starts at 0), and bounding them keeps the
	 * page rounding of hi from overflowing.
	 */
	if (ph->p_vaddr > TASK_SIZE_MAX || ph->p_memsz > TASK_SIZE_MAX - ph->p_vaddr)
		return -EINVAL;
	if ((ph->p_vaddr - ph->p_offset) % ELF_PAGE_SIZE != 0)
		return -EINVAL;
	return 0;
}

/*
 * Adds a checked PT_LOAD after the ones before it. The ELF spec has loads
 * sorted by p_vaddr; given that order, not overlapping the previous load
 * means not overlapping any (each earlier one ends before the previous
 * starts). Two loads may share a page (text ending and data starting mid
 * page is the usual layout); only their bytes must not collide.
 */
static int add_load(struct elf_info *info, const Elf64_Phdr *ph)
{
	struct elf_load *l;

	if (info->nr_load) {
		const struct elf_load *prev = &info->load[info->nr_load - 1];

		if (ph->p_vaddr < prev->vaddr)
			return -EINVAL;
		if (ph->p_vaddr < prev->vaddr + prev->memsz)
			return -EINVAL;
	}
	if (info->nr_load == ELF_MAX_LOADS)
		return -ENOMEM;
	l = &info->load[info->nr_load++];
	l->vaddr = ph->p_vaddr;
	l->memsz = ph->p_memsz;
	l->offset = ph->p_offset;
	l->filesz = ph->p_filesz;
	l->prot = pf_to_prot(ph->p_flags);
	return 0;
}

/*
 * PT_TLS is only the template libc copies for each thread; the file bytes
 * must exist and the alignment must be usable (0 and 1 both mean none).
 */
static int check_tls(const Elf64_Phdr *ph, u64 file_size)
{
	if (ph->p_memsz < ph->p_filesz)
		return -EINVAL;
	if (ph->p_offset > file_size || ph->p_filesz > file_size - ph->p_offset)
		return -EINVAL;
	if (ph->p_align & (ph->p_align - 1))
		return -EINVAL;
	return 0;
}

/*
 * Where the program header table lands in memory when no PT_PHDR says:
 * the load whose file bytes hold all of it (libc walks the whole table
 * through AT_PHDR, so a table only partly mapped counts as not loaded).
 */
static u64 phdr_in_loads(const struct elf_info *info, u64 phoff, u64 phsize)
{
	unsigned int i;

	for (i = 0; i < info->nr_load; i++) {
		const struct elf_load *l = &info->load[i];

		if (phoff >= l->offset && phsize <= l->filesz &&
		    phoff - l->offset <= l->filesz - phsize)
			return l->vaddr + (phoff - l->offset);
	}
	return 0;
}

static bool entry_executable(const struct elf_info *info)
{
	unsigned int i;

	for (i = 0; i < info->nr_load; i++) {
		const struct elf_load *l = &info->load[i];

		if ((l->prot & PROT_EXEC) && info->entry >= l->vaddr &&
		    info->entry - l->vaddr < l->memsz)
			return true;
	}
	return false;
}

int elf_parse(const void *ehdr_buf, const void *phdrs, u64 file_size, struct elf_info *info)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	u64 phoff, phdr_vaddr = 0;
	size_t phsize;
	bool has_phdr = false;
	unsigned int i;
	int err;

	/* Cheap, and keeps a caller that skipped the check from trusting e_phnum. */
	err = elf_check_header(ehdr_buf, sizeof(eh), file_size, &phoff, &phsize);
	if (err)
		return err;
	memcpy(&eh, ehdr_buf, sizeof(eh));
	memset(info, 0, sizeof(*info));
	info->type = eh.e_type;
	info->entry = eh.e_entry;
	info->phnum = eh.e_phnum;

	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, (const u8 *)phdrs + i * sizeof(ph), sizeof(ph));
		switch (ph.p_type) {
		case PT_INTERP:
			return -ENOEXEC;	/* needs a dynamic linker: not ours */
		case PT_LOAD:
			if (ph.p_memsz == 0)
				break;		/* maps nothing */
			err = check_load(&ph, file_size);
			if (!err)
				err = add_load(info, &ph);
			if (err)
				return err;
			break;
		case PT_PHDR:
			has_phdr = true;
			phdr_vaddr = ph.p_vaddr;
			break;
		case PT_TLS:
			err = check_tls(&ph, file_size);
			if (err)
				return err;
			info->has_tls = true;
			break;
		case PT_GNU_STACK:
			info->exec_stack = ph.p_flags & PF_X;
			break;
		}
	}
	if (!info->nr_load)
		return -ENOEXEC;
	/* Sorted and non-overlapping: the last load has the highest end. */
	info->lo = ALIGN_DOWN(info->load[0].vaddr, ELF_PAGE_SIZE);
	info->hi = ALIGN_UP(info->load[info->nr_load - 1].vaddr +
			    info->load[info->nr_load - 1].memsz, ELF_PAGE_SIZE);
	/*
	 * A static PIE is placed by the kernel half, which needs room for
	 * it between the low pages and the stack; an image spanning half
	 * the user space or more cannot be placed sensibly, so refuse it
	 * here rather than fail a search for a base there.
	 */
	if (info->type == ET_DYN && info->hi - info->lo >= TASK_SIZE_MAX / 2)
		return -EINVAL;
	if (!entry_executable(info))
		return -ENOEXEC;
	info->phdr_vaddr = has_phdr ? phdr_vaddr : phdr_in_loads(info, phoff, phsize);
	return 0;
}
