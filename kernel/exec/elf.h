/*
 * The pure half of the ELF64 loader: checking an x86_64 static executable's
 * headers (elf_parse.c) and laying out the initial process stack
 * (exec_stack.c). The kernel half (kernel/exec/exec.c) reads the file, maps
 * what elf_parse() describes and copies in what exec_stack_build() lays out.
 *
 * The structs and numbers are the ELF-64 object format and the System V
 * x86_64 psABI (the facts Linux's uapi <linux/elf.h> and <linux/auxvec.h>
 * also carry); all multi-byte fields are little-endian, as the header's
 * EI_DATA must say.
 */
#ifndef KERNEL_EXEC_ELF_H
#define KERNEL_EXEC_ELF_H

#include <kernel/types.h>

/* e_ident[]: the first 16 bytes of the file. */
#define EI_NIDENT	16
#define EI_CLASS	4	/* index of the word size */
#define EI_DATA		5	/* index of the byte order */
#define EI_VERSION	6	/* index of the ident version */
#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define ELFCLASS64	2
#define ELFDATA2LSB	1	/* little-endian */
#define EV_CURRENT	1

/* e_type */
#define ET_REL		1	/* a relocatable object: a module file */
#define ET_EXEC		2	/* fixed addresses */
#define ET_DYN		3	/* position independent: a static PIE here */

/* e_machine */
#define EM_X86_64	62

/* The file header, at offset 0. */
typedef struct {
	u8 e_ident[EI_NIDENT];
	u16 e_type;
	u16 e_machine;
	u32 e_version;
	u64 e_entry;		/* first instruction (a vaddr) */
	u64 e_phoff;		/* file offset of the program header table */
	u64 e_shoff;		/* section headers: the loader ignores them */
	u32 e_flags;
	u16 e_ehsize;
	u16 e_phentsize;	/* must be sizeof(Elf64_Phdr) */
	u16 e_phnum;
	u16 e_shentsize;
	u16 e_shnum;
	u16 e_shstrndx;
} Elf64_Ehdr;

/* p_type */
#define PT_NULL		0
#define PT_LOAD		1	/* a segment to map */
#define PT_DYNAMIC	2
#define PT_INTERP	3	/* names a dynamic linker: not a static program */
#define PT_NOTE		4
#define PT_PHDR		6	/* where the program headers themselves are mapped */
#define PT_TLS		7	/* the thread-local storage template */
#define PT_GNU_STACK	0x6474e551	/* p_flags says whether the stack is executable */

/* p_flags */
#define PF_X		0x1
#define PF_W		0x2
#define PF_R		0x4

/* One program header: a segment (PT_LOAD) or information about the image. */
typedef struct {
	u32 p_type;
	u32 p_flags;
	u64 p_offset;		/* file offset of the segment's bytes */
	u64 p_vaddr;		/* where they go */
	u64 p_paddr;		/* unused */
	u64 p_filesz;		/* bytes taken from the file */
	u64 p_memsz;		/* bytes in memory; past p_filesz is zero (.bss) */
	u64 p_align;
} Elf64_Phdr;

/* One section header (module files: kernel/module_info.c finds .modinfo). */
typedef struct {
	u32 sh_name;		/* offset of its name in the e_shstrndx section */
	u32 sh_type;
	u64 sh_flags;
	u64 sh_addr;
	u64 sh_offset;		/* file offset of its bytes */
	u64 sh_size;
	u32 sh_link;
	u32 sh_info;
	u64 sh_addralign;
	u64 sh_entsize;
} Elf64_Shdr;

#define SHT_NOBITS	8	/* no bytes in the file (.bss) */

/* Auxiliary vector keys (a_type of the pairs after envp[] NULL). */
#define AT_NULL		0	/* ends the vector */
#define AT_PHDR		3	/* program headers in memory */
#define AT_PHENT	4	/* sizeof(Elf64_Phdr) */
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7	/* interpreter base: 0 for a static program */
#define AT_FLAGS	8
#define AT_ENTRY	9	/* the program's entry (relocated) */
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15	/* pointer to "x86_64" */
#define AT_HWCAP	16
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25	/* pointer to 16 random bytes (libc's stack canary) */
#define AT_EXECFN	31	/* pointer to the path given to execve */

/*
 * mmap protection bits, which elf_load.prot uses. Guarded because a kernel
 * mman header may define the same values.
 */
#ifndef PROT_READ
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#endif

#define ELF_PAGE_SIZE	4096UL	/* the granule segments are mapped in */
#define TASK_SIZE_MAX	0x00007ffffffff000UL   /* user addresses are below this (Linux's TASK_SIZE on 4-level) */
#define ELF_MAX_LOADS	16
/* Linux's cap on the program header table (load_elf_phdrs). */
#define ELF_MAX_PHDRS_SIZE	65536

/* One PT_LOAD as the loader maps it: file bytes [offset, offset+filesz) at vaddr, zeros up to vaddr+memsz. */
struct elf_load {
	u64 vaddr, memsz, offset, filesz;
	unsigned int prot;	/* PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4 (from p_flags PF_R/PF_W/PF_X) */
};

/*
 * What elf_parse() found, all addresses as the file gives them. For ET_DYN
 * the kernel half picks a base and adds (base - lo) to every vaddr, entry
 * and phdr_vaddr.
 */
struct elf_info {
	u16 type;		/* ET_EXEC or ET_DYN (static PIE) */
	u64 entry;		/* e_entry, not relocated */
	u64 phdr_vaddr;		/* where the program headers are in memory (PT_PHDR, else the PT_LOAD holding e_phoff), not relocated; 0 if not loaded */
	u16 phnum;
	u64 lo, hi;		/* page-aligned span of all PT_LOADs: lo = min vaddr rounded down, hi = max end rounded up */
	struct elf_load load[ELF_MAX_LOADS];	/* in ascending vaddr order */
	unsigned int nr_load;
	bool exec_stack;	/* PT_GNU_STACK with PF_X (absent: false, as x86_64 Linux) */
	bool has_tls;		/* PT_TLS present (musl/glibc set it up themselves; the loader only validates it) */
};

/*
 * Checks the ELF header in buf (len bytes read from the file's start,
 * file_size the file's size) and returns in *phoff and *phsize the file range of
 * the program header table.
 * Returns 0, or -ENOEXEC for anything that is not an x86_64 ELF64
 * executable we run: short header, bad ident, other machine or type, odd
 * e_phentsize, no or too many (> 64 KiB) program headers, or a table not
 * inside the file.
 */
int elf_check_header(const void *buf, size_t len, u64 file_size, u64 *phoff, size_t *phsize);

/*
 * Validates the program headers (phdrs: phsize bytes read from offset phoff, as
 * elf_check_header() gave them; ehdr_buf the header it accepted, which is
 * checked again) and fills *info. Returns
 *   0         the image can be mapped as *info says;
 *   -ENOEXEC  not something we run: bad header, no PT_LOAD, a PT_INTERP
 *             (dynamically linked), entry not in an executable segment;
 *   -ENOMEM   more than ELF_MAX_LOADS non-empty PT_LOADs;
 *   -EINVAL   a malformed segment: filesz > memsz, file bytes outside the
 *             file, addresses overflowing or not below TASK_SIZE_MAX (or an
 *             ET_DYN span of TASK_SIZE_MAX/2 or more), vaddr and offset not
 *             congruent modulo the page size, loads out of vaddr order or
 *             overlapping, a bad PT_TLS.
 */
int elf_parse(const void *ehdr_buf, const void *phdrs, u64 file_size, struct elf_info *info);

/* Input of exec_stack_build(). */
struct exec_stack_args {
	int argc; char *const *argv;	/* kernel copies of the strings */
	int envc; char *const *envp;
	const char *execfn;		/* AT_EXECFN string (the path given to execve) */
	const char *platform;		/* AT_PLATFORM string, "x86_64" */
	const u8 *random16;		/* AT_RANDOM: 16 bytes */
	const u64 (*auxv)[2]; int nr_auxv;	/* other AT_* pairs (AT_PHDR, AT_PHENT, ...), in this order; the builder adds AT_RANDOM, AT_EXECFN, AT_PLATFORM and the terminating AT_NULL */
};

/*
 * Lays out the stack in buf, which stands for user addresses
 * [stack_top - size, stack_top): strings at the top (execfn, envp and argv
 * strings, platform, random bytes), then 16-byte aligned: argc, argv[] NULL,
 * envp[] NULL, auxv pairs ending with AT_NULL. Bytes of buf below the
 * returned pointer are left as they were: copy [sp, stack_top) out.
 * Returns the user stack pointer (pointing at argc, 16-byte aligned as the
 * x86_64 psABI requires at process entry), -E2BIG if it does not fit, or
 * -EINVAL for negative counts.
 */
long exec_stack_build(void *buf, size_t size, unsigned long stack_top, const struct exec_stack_args *a);

#endif
