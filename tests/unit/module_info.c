/*
 * Module files' .modinfo (kernel/module_info.c): the name of a well-formed
 * x86_64 relocatable object is read; the module file the build makes for
 * the initrd is one; every hostile variation (short, wrong type or
 * machine, headers or sections out of the file, names running off their
 * table, no name, a name too long) is ENOEXEC, never a read outside.
 */
/* uses: kernel/module_info.c */
/* needs: guest */
#include <criterion/criterion.h>
#include <kernel/errno.h>
#include <kernel/exec/elf.h>
#include <kernel/module.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A module file laid out by hand: header, .modinfo, .shstrtab, three section headers. */
struct modfile {
	Elf64_Ehdr eh;
	char info[96];
	char strtab[32];
	Elf64_Shdr sh[3];
};

static const char strtab[] = "\0.modinfo\0.shstrtab";

static struct modfile good(const char *info, size_t info_len)
{
	struct modfile m;

	memset(&m, 0, sizeof(m));
	memcpy(m.eh.e_ident, ELFMAG, SELFMAG);
	m.eh.e_ident[EI_CLASS] = ELFCLASS64;
	m.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	m.eh.e_ident[EI_VERSION] = EV_CURRENT;
	m.eh.e_type = ET_REL;
	m.eh.e_machine = EM_X86_64;
	m.eh.e_version = EV_CURRENT;
	m.eh.e_shoff = offsetof(struct modfile, sh);
	m.eh.e_ehsize = sizeof(Elf64_Ehdr);
	m.eh.e_shentsize = sizeof(Elf64_Shdr);
	m.eh.e_shnum = 3;
	m.eh.e_shstrndx = 2;
	memcpy(m.info, info, info_len);
	memcpy(m.strtab, strtab, sizeof(strtab));
	m.sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = 1, .sh_offset = offsetof(struct modfile, info),
				.sh_size = info_len };
	m.sh[2] = (Elf64_Shdr){ .sh_name = 10, .sh_type = 3,
				.sh_offset = offsetof(struct modfile, strtab), .sh_size = sizeof(strtab) };
	return m;
}

#define INFO "license=GPL\0name=preemptirq_delay_test\0vermagic=x"

static int name_of(const struct modfile *m, size_t len, char *name)
{
	return module_info_name(m, len, name);
}

Test(module_info, reads_the_name)
{
	struct modfile m = good(INFO, sizeof(INFO));
	char name[MODULE_NAME_LEN];

	cr_assert_eq(name_of(&m, sizeof(m), name), 0);
	cr_assert_str_eq(name, "preemptirq_delay_test");
}

Test(module_info, the_built_module_file)
{
	/* Made by the build for the initrd's /lib/modules (from images/modules), next to the kernel image. */
	char path[4096], name[MODULE_NAME_LEN], *buf;
	const char *elf = getenv("SPOOR_ELF");
	size_t len;
	FILE *f;

	cr_assert(elf, "SPOOR_ELF names the build's kernel image");
	snprintf(path, sizeof(path), "%.*s/modules/preemptirq_delay_test.ko",
		 (int)(strrchr(elf, '/') - elf), elf);
	f = fopen(path, "rb");
	cr_assert(f, "%s", path);
	buf = malloc(1 << 16);
	len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	cr_assert_eq(module_info_name(buf, len, name), 0);
	cr_assert_str_eq(name, "preemptirq_delay_test");
	free(buf);
}

Test(module_info, hostile_files_are_enoexec)
{
	char name[MODULE_NAME_LEN];
	struct modfile m;

	/* every length short of the whole file */
	m = good(INFO, sizeof(INFO));
	for (size_t len = 0; len < sizeof(m); len++)
		cr_assert_eq(name_of(&m, len, name), -ENOEXEC, "length %zu", len);
	m.eh.e_ident[0] = 0;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "magic");
	m = good(INFO, sizeof(INFO));
	m.eh.e_type = ET_EXEC;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "an executable");
	m = good(INFO, sizeof(INFO));
	m.eh.e_machine = 3;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "i386");
	m = good(INFO, sizeof(INFO));
	m.eh.e_shoff = ~0ull - 8;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "headers past the end (wrapping)");
	m = good(INFO, sizeof(INFO));
	m.eh.e_shnum = 0xffff;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "too many headers");
	m = good(INFO, sizeof(INFO));
	m.eh.e_shstrndx = 3;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "no such name table");
	m = good(INFO, sizeof(INFO));
	m.sh[2].sh_size = ~0ull;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "name table past the end");
	m = good(INFO, sizeof(INFO));
	m.sh[1].sh_name = 1000;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "section name outside its table");
	m = good(INFO, sizeof(INFO));
	m.sh[1].sh_offset = sizeof(m) - 4;
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, ".modinfo past the end");
	m = good("license=GPL\0", 12);
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "no name=");
	m = good("name=", 5);
	cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "an empty name");
	{
		char longname[96] = "name=";

		memset(longname + 5, 'x', sizeof(longname) - 6);
		m = good(longname, sizeof(longname));
		cr_assert_eq(name_of(&m, sizeof(m), name), -ENOEXEC, "a name too long");
	}
	/* a name not NUL-terminated: read up to the section's end only */
	m = good("name=abc", 8);
	cr_assert_eq(name_of(&m, sizeof(m), name), 0);
	cr_assert_str_eq(name, "abc");
}
