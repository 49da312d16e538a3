/*
 * ELF64 header and program header checks: realistic static executables
 * (musl ET_EXEC, static-PIE ET_DYN) are accepted with the right layout,
 * hostile ones built byte by byte are refused with the documented errno.
 */
/* uses: kernel/exec/elf_parse.c */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/exec/elf.h>

#define PT_GNU_RELRO	0x6474e552	/* ignored by the loader */
#define EHDR_SIZE	sizeof(Elf64_Ehdr)

/* The start of the "file": header and program headers as a kernel reads them. */
static u8 file[EHDR_SIZE + ELF_MAX_PHDRS_SIZE];

static Elf64_Ehdr ehdr(u16 type, u64 entry, u16 phnum)
{
	Elf64_Ehdr eh = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = type,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_entry = entry,
		.e_phoff = EHDR_SIZE,
		.e_ehsize = EHDR_SIZE,
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = phnum,
	};
	return eh;
}

static Elf64_Phdr seg(u32 type, u32 flags, u64 off, u64 vaddr, u64 filesz, u64 memsz, u64 align)
{
	Elf64_Phdr ph = {
		.p_type = type, .p_flags = flags, .p_offset = off, .p_vaddr = vaddr,
		.p_paddr = vaddr, .p_filesz = filesz, .p_memsz = memsz, .p_align = align,
	};
	return ph;
}

static Elf64_Phdr load(u32 flags, u64 off, u64 vaddr, u64 filesz, u64 memsz)
{
	return seg(PT_LOAD, flags, off, vaddr, filesz, memsz, 0x1000);
}

/* Writes the header and its e_phnum program headers at e_phoff. */
static void put(const Elf64_Ehdr *eh, const Elf64_Phdr *ph)
{
	memset(file, 0, sizeof(file));
	memcpy(file, eh, sizeof(*eh));
	cr_assert_leq(eh->e_phoff + eh->e_phnum * sizeof(*ph), sizeof(file));
	memcpy(file + eh->e_phoff, ph, eh->e_phnum * sizeof(*ph));
}

/* What the kernel half does: check the header, read the table, parse it. */
static int run(const Elf64_Ehdr *eh, const Elf64_Phdr *ph, u64 file_size, struct elf_info *info)
{
	u64 phoff;
	size_t phsize;
	int err;

	put(eh, ph);
	err = elf_check_header(file, EHDR_SIZE, file_size, &phoff, &phsize);
	if (err)
		return err;
	cr_assert_eq(phoff, eh->e_phoff);
	cr_assert_eq(phsize, eh->e_phnum * sizeof(Elf64_Phdr));
	return elf_parse(file, file + phoff, file_size, info);
}

static int check_header(const Elf64_Ehdr *eh, size_t len, u64 file_size)
{
	u64 phoff = 0;
	size_t phsize = 0;

	memset(file, 0, sizeof(file));
	memcpy(file, eh, sizeof(*eh));
	return elf_check_header(file, len, file_size, &phoff, &phsize);
}

/*
 * A musl static binary as ld (-z separate-code) lays it out: headers,
 * text, rodata, and data+bss starting mid-page behind RELRO.
 */
#define MUSL_FILE_SIZE	0x6108
static const Elf64_Phdr musl_ph[7] = {
	{ PT_LOAD, PF_R, 0x0, 0x400000, 0x400000, 0x1c8, 0x1c8, 0x1000 },
	{ PT_LOAD, PF_R | PF_X, 0x1000, 0x401000, 0x401000, 0x3b21, 0x3b21, 0x1000 },
	{ PT_LOAD, PF_R, 0x5000, 0x405000, 0x405000, 0x1a0, 0x1a0, 0x1000 },
	{ PT_LOAD, PF_R | PF_W, 0x5fe8, 0x406fe8, 0x406fe8, 0x120, 0x8f0, 0x1000 },
	{ PT_TLS, PF_R, 0x5fe8, 0x406fe8, 0x406fe8, 0x0, 0x8, 0x8 },
	{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 0x10 },
	{ PT_GNU_RELRO, PF_R, 0x5fe8, 0x406fe8, 0x406fe8, 0x18, 0x18, 0x1 },
};

Test(elf_parse, musl_static_exec)
{
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401020, 7);
	struct elf_info info;

	cr_assert_eq(run(&eh, musl_ph, MUSL_FILE_SIZE, &info), 0);
	cr_assert_eq(info.type, ET_EXEC);
	cr_assert_eq(info.entry, 0x401020);
	cr_assert_eq(info.phnum, 7);
	/* No PT_PHDR: the table is in the first load's bytes, at offset 64. */
	cr_assert_eq(info.phdr_vaddr, 0x400040);
	cr_assert_eq(info.lo, 0x400000);
	cr_assert_eq(info.hi, 0x408000);	/* 0x406fe8 + 0x8f0 = 0x4078d8 */
	cr_assert_eq(info.nr_load, 4);
	cr_assert_eq(info.load[1].vaddr, 0x401000);
	cr_assert_eq(info.load[1].offset, 0x1000);
	cr_assert_eq(info.load[1].filesz, 0x3b21);
	cr_assert_eq(info.load[1].prot, PROT_READ | PROT_EXEC);
	cr_assert_eq(info.load[0].prot, PROT_READ);
	cr_assert_eq(info.load[3].prot, PROT_READ | PROT_WRITE);
	cr_assert_eq(info.load[3].filesz, 0x120);
	cr_assert_eq(info.load[3].memsz, 0x8f0);
	cr_assert_not(info.exec_stack);
	cr_assert(info.has_tls);
}

/* A static PIE: linked at 0, PT_PHDR present, data's vaddr a page past its offset. */
#define PIE_FILE_SIZE	0x5048
static const Elf64_Phdr pie_ph[9] = {
	{ PT_PHDR, PF_R, 0x40, 0x40, 0x40, 0x1f8, 0x1f8, 0x8 },
	{ PT_LOAD, PF_R, 0x0, 0x0, 0x0, 0x5e0, 0x5e0, 0x1000 },
	{ PT_LOAD, PF_R | PF_X, 0x1000, 0x1000, 0x1000, 0x2c4d, 0x2c4d, 0x1000 },
	{ PT_LOAD, PF_R, 0x4000, 0x4000, 0x4000, 0x1cc, 0x1cc, 0x1000 },
	{ PT_LOAD, PF_R | PF_W, 0x4e10, 0x5e10, 0x5e10, 0x238, 0x2a0, 0x1000 },
	{ PT_DYNAMIC, PF_R | PF_W, 0x4e20, 0x5e20, 0x5e20, 0x1a0, 0x1a0, 0x8 },
	{ PT_TLS, PF_R, 0x4e10, 0x5e10, 0x5e10, 0x4, 0x10, 0x8 },
	{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0, 0x10 },
	{ PT_GNU_RELRO, PF_R, 0x4e10, 0x5e10, 0x5e10, 0x1f0, 0x1f0, 0x1 },
};

Test(elf_parse, static_pie_dyn)
{
	Elf64_Ehdr eh = ehdr(ET_DYN, 0x1040, 9);
	struct elf_info info;

	cr_assert_eq(run(&eh, pie_ph, PIE_FILE_SIZE, &info), 0);
	cr_assert_eq(info.type, ET_DYN);
	cr_assert_eq(info.entry, 0x1040);
	cr_assert_eq(info.phdr_vaddr, 0x40);
	cr_assert_eq(info.lo, 0);
	cr_assert_eq(info.hi, 0x7000);
	cr_assert_eq(info.nr_load, 4);
	cr_assert_eq(info.load[3].vaddr, 0x5e10);
	cr_assert_eq(info.load[3].offset, 0x4e10);
	cr_assert(info.has_tls);
}

Test(elf_parse, pt_phdr_wins_and_unmapped_table_is_zero)
{
	Elf64_Phdr ph[3] = {
		seg(PT_PHDR, PF_R, 0x40, 0x123040, 0xa8, 0xa8, 8),
		load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x100),
		seg(PT_GNU_STACK, PF_R | PF_W | PF_X, 0, 0, 0, 0, 16),
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 3);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.phdr_vaddr, 0x123040);
	cr_assert(info.exec_stack);
	cr_assert_not(info.has_tls);

	/* Without PT_PHDR the table (file offset 0x40) is in no load. */
	ph[0] = seg(PT_NOTE, PF_R, 0x40, 0, 4, 4, 4);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.phdr_vaddr, 0);

	/* A load holding only the table's first bytes does not count. */
	ph[0] = load(PF_R, 0, 0x400000, 0x60, 0x60);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.phdr_vaddr, 0);
	ph[0] = load(PF_R, 0, 0x400000, 0x40 + 3 * sizeof(Elf64_Phdr), 0x1000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.phdr_vaddr, 0x400040);
}

Test(elf_parse, header_ident_machine_type)
{
	Elf64_Ehdr good = ehdr(ET_EXEC, 0x401000, 1), eh;

	cr_assert_eq(check_header(&good, EHDR_SIZE, 0x2000), 0);
	/* Truncated: the read was short, or the file is. */
	cr_assert_eq(check_header(&good, EHDR_SIZE - 1, 0x2000), -ENOEXEC);
	cr_assert_eq(check_header(&good, EHDR_SIZE, EHDR_SIZE - 1), -ENOEXEC);
	cr_assert_eq(check_header(&good, 0, 0), -ENOEXEC);

	eh = good; eh.e_ident[0] = 0x7e;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_ident[3] = 'f';
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_ident[EI_CLASS] = 1;	/* ELFCLASS32 */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_ident[EI_DATA] = 2;	/* big-endian */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_ident[EI_VERSION] = 0;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_version = 2;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_machine = 3;		/* EM_386 */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_machine = 183;		/* EM_AARCH64 */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_type = 1;		/* ET_REL */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_type = 4;		/* ET_CORE */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh = good; eh.e_type = ET_DYN;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), 0);
	eh = good; eh.e_phentsize = 32;		/* an ELF32 phdr size */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
}

Test(elf_parse, header_phdr_table_bounds)
{
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 0);
	u64 phoff;
	size_t phsize;
	u64 max_phnum = ELF_MAX_PHDRS_SIZE / sizeof(Elf64_Phdr);	/* 1170 */

	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x100000), -ENOEXEC);	/* phnum 0 */
	eh.e_phnum = 0xffff;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x1000000), -ENOEXEC);
	eh.e_phnum = max_phnum + 1;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x1000000), -ENOEXEC);
	eh.e_phnum = max_phnum;
	memcpy(file, &eh, sizeof(eh));
	cr_assert_eq(elf_check_header(file, EHDR_SIZE, 0x1000000, &phoff, &phsize), 0);
	cr_assert_eq(phoff, EHDR_SIZE);
	cr_assert_eq(phsize, max_phnum * 56);

	/* The table must end inside the file: exactly at its end is fine. */
	eh.e_phnum = 2;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, EHDR_SIZE + 112), 0);
	cr_assert_eq(check_header(&eh, EHDR_SIZE, EHDR_SIZE + 111), -ENOEXEC);
	eh.e_phoff = 0x3000;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);	/* past the end */
	eh.e_phoff = ~0UL - 50;		/* phoff + size wraps to a small number */
	cr_assert_eq(check_header(&eh, EHDR_SIZE, 0x2000), -ENOEXEC);
	eh.e_phoff = ~0UL;
	cr_assert_eq(check_header(&eh, EHDR_SIZE, ~0UL), -ENOEXEC);
}

Test(elf_parse, parse_rechecks_header)
{
	Elf64_Phdr ph = load(PF_R | PF_X, 0, 0x400000, 0x100, 0x100);
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x400000, 1);
	struct elf_info info;

	put(&eh, &ph);
	file[EI_CLASS] = 1;
	cr_assert_eq(elf_parse(file, file + EHDR_SIZE, 0x1000, &info), -ENOEXEC);
}

Test(elf_parse, needs_a_load_and_no_interp)
{
	Elf64_Phdr ph[2] = {
		seg(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 16),
		load(PF_R | PF_X, 0x1000, 0x401000, 0, 0),	/* empty: skipped */
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 2);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
	ph[1] = load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	ph[0] = seg(PT_INTERP, PF_R, 0x200, 0x400200, 0x1c, 0x1c, 1);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
}

Test(elf_parse, empty_loads_are_skipped)
{
	/* An empty load, even a nonsensical one, neither counts nor breaks the order. */
	Elf64_Phdr ph[3] = {
		load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x100),
		load(PF_R, 0x7777, 0x10, 0, 0),
		load(PF_R | PF_W, 0x1100, 0x402100, 0x10, 0x20),
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 3);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.nr_load, 2);
	cr_assert_eq(info.load[1].vaddr, 0x402100);
	cr_assert_eq(info.hi, 0x403000);
}

/* n one-page loads in a row, the first executable. */
static void many_loads(Elf64_Phdr *ph, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ph[i] = load(i ? PF_R : PF_R | PF_X, i * 0x1000, 0x400000 + i * 0x1000, 0x1000, 0x1000);
}

Test(elf_parse, at_most_max_loads)
{
	Elf64_Phdr ph[ELF_MAX_LOADS + 1];
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x400000, ELF_MAX_LOADS);
	struct elf_info info;

	many_loads(ph, ELF_MAX_LOADS + 1);
	cr_assert_eq(run(&eh, ph, 0x20000, &info), 0);
	cr_assert_eq(info.nr_load, ELF_MAX_LOADS);
	cr_assert_eq(info.hi, 0x400000 + ELF_MAX_LOADS * 0x1000);
	eh.e_phnum = ELF_MAX_LOADS + 1;
	cr_assert_eq(run(&eh, ph, 0x20000, &info), -ENOMEM);
}

Test(elf_parse, segment_sizes_and_file_range)
{
	Elf64_Phdr ph[1];
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 1);
	struct elf_info info;

	ph[0] = load(PF_R | PF_X, 0x1000, 0x401000, 0x201, 0x200);	/* filesz > memsz */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[0] = load(PF_R | PF_X, 0x1000, 0x401000, 0x1000, 0x1000);	/* ends at EOF */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	ph[0] = load(PF_R | PF_X, 0x1000, 0x401000, 0x1001, 0x1001);	/* one byte past */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[0] = load(PF_R | PF_X, 0x3000, 0x403000, 0x10, 0x10);	/* offset past EOF */
	eh.e_entry = 0x403000;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* offset + filesz wraps around to inside the file. */
	ph[0] = load(PF_R | PF_X, 0xfffffffffffff000, 0x403000, 0x2000, 0x2000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* Only file bytes must be in the file: bss may be far larger. */
	ph[0] = load(PF_R | PF_X, 0x1000, 0x403000, 0x100, 0x10000000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.hi, 0x10403000);
}

Test(elf_parse, addresses_stay_in_user_space)
{
	Elf64_Phdr ph[2] = { load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x100) };
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 2);
	struct elf_info info;

	/* Ending exactly at TASK_SIZE_MAX is allowed, one byte more is not. */
	ph[1] = load(PF_R, 0x0, TASK_SIZE_MAX - 0x1000, 0x100, 0x1000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.hi, TASK_SIZE_MAX);
	ph[1] = load(PF_R, 0x0, TASK_SIZE_MAX - 0x1000, 0x100, 0x1001);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = load(PF_R, 0x0, TASK_SIZE_MAX, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* In the kernel half, and crossing into it. */
	ph[1] = load(PF_R, 0x0, 0xffff800000000000, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = load(PF_R, 0x0, 0xffffffff80000000, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = load(PF_R, 0x0, 0x7ffff0000000, 0x100, 0xffff800000000000 - 0x7ffff0000000 + 0x1000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* vaddr + memsz wraps past 2^64. */
	ph[1] = load(PF_R, 0x0, 0xfffffffffffff000, 0x100, 0x2000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = load(PF_R, 0x0, 0x402000, 0x100, ~0UL - 0x1000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
}

Test(elf_parse, dyn_span_limit)
{
	Elf64_Phdr ph[2] = { load(PF_R | PF_X, 0x0, 0x0, 0x100, 0x100) };
	Elf64_Ehdr eh = ehdr(ET_DYN, 0x10, 2);
	struct elf_info info;

	/* TASK_SIZE_MAX / 2 is 0x3ffffffff800: a page-aligned span must stay below. */
	ph[1] = load(PF_R | PF_W, 0x1000, 0x3fffffffe000, 0x100, 0x1000);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.hi, 0x3ffffffff000);
	ph[1] = load(PF_R | PF_W, 0x1000, 0x3ffffffff000, 0x100, 0x101);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* The same layout is a fine ET_EXEC: it is not relocated. */
	eh.e_type = ET_EXEC;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
}

Test(elf_parse, offset_page_congruence)
{
	Elf64_Phdr ph[1] = { load(PF_R | PF_X, 0x1010, 0x401000, 0x100, 0x100) };
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 1);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[0] = load(PF_R | PF_X, 0x1010, 0x401010, 0x100, 0x100);
	eh.e_entry = 0x401010;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	ph[0] = load(PF_R | PF_X, 0x1010, 0x400010, 0x100, 0x100);	/* other page, same slot */
	eh.e_entry = 0x400010;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.lo, 0x400000);
}

Test(elf_parse, overlap_and_order)
{
	Elf64_Phdr ph[3] = {
		load(PF_R | PF_X, 0x1000, 0x401000, 0x800, 0x800),
		load(PF_R | PF_W, 0x1800, 0x401800, 0x100, 0x100),	/* same page, next byte */
		load(PF_R, 0x1900, 0x405900, 0x100, 0x100),
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 3);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.nr_load, 3);
	/* One byte of overlap. */
	ph[1] = load(PF_R | PF_W, 0x17ff, 0x4017ff, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* Overlap through the bss only. */
	ph[1] = load(PF_R | PF_W, 0x1800, 0x401800, 0x100, 0x4101);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* Same start. */
	ph[1] = load(PF_R | PF_W, 0x1000, 0x401000, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* Disjoint but descending. */
	ph[1] = load(PF_R | PF_W, 0x1000, 0x301000, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	/* A load inside an earlier, larger one (checked against the previous only). */
	ph[0] = load(PF_R | PF_X, 0x1000, 0x401000, 0x800, 0x10000);
	ph[1] = load(PF_R | PF_W, 0x1800, 0x402800, 0x100, 0x100);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
}

Test(elf_parse, entry_in_executable_load)
{
	Elf64_Phdr ph[2] = {
		load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x200),
		load(PF_R | PF_W, 0x1800, 0x402800, 0x100, 0x100),
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x4011ff, 2);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	eh.e_entry = 0x401200;		/* one past the end */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
	eh.e_entry = 0x400fff;		/* one before */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
	eh.e_entry = 0x402800;		/* data, not executable */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
	eh.e_entry = 0;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
	eh.e_entry = 0xffffffff81000000;
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -ENOEXEC);
}

Test(elf_parse, tls_checks)
{
	Elf64_Phdr ph[2] = { load(PF_R | PF_X, 0x1000, 0x401000, 0x100, 0x100) };
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 2);
	struct elf_info info;

	ph[1] = seg(PT_TLS, PF_R, 0x1080, 0x401080, 0x10, 0x8, 8);	/* memsz < filesz */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = seg(PT_TLS, PF_R, 0x1080, 0x401080, 0x8, 0x10, 24);	/* align not 2^n */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = seg(PT_TLS, PF_R, 0x1ff8, 0x401080, 0x10, 0x10, 8);	/* bytes past EOF */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), -EINVAL);
	ph[1] = seg(PT_TLS, PF_R, 0x1080, 0x401080, 0x8, 0x10, 0);	/* 0: no alignment */
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert(info.has_tls);
	ph[1] = seg(PT_TLS, PF_R, 0x1080, 0x401080, 0x8, 0x10, 64);
	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
}

Test(elf_parse, prot_from_flags)
{
	Elf64_Phdr ph[4] = {
		load(PF_X, 0x1000, 0x401000, 0x10, 0x10),
		load(PF_W, 0x1010, 0x402010, 0x10, 0x10),
		load(0, 0x1020, 0x403020, 0x10, 0x10),
		load(PF_R | PF_W | PF_X | 0xf0000000, 0x1030, 0x404030, 0x10, 0x10),
	};
	Elf64_Ehdr eh = ehdr(ET_EXEC, 0x401000, 4);
	struct elf_info info;

	cr_assert_eq(run(&eh, ph, 0x2000, &info), 0);
	cr_assert_eq(info.load[0].prot, PROT_EXEC);
	cr_assert_eq(info.load[1].prot, PROT_WRITE);
	cr_assert_eq(info.load[2].prot, 0);
	cr_assert_eq(info.load[3].prot, PROT_READ | PROT_WRITE | PROT_EXEC);
}
