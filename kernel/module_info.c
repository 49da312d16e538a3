/*
 * Reading a module file's .modinfo: the ELF header, the section headers
 * and the section-name table, each checked against the file's length
 * before it is read, as a loader must treat a file from ring 3. Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/exec/elf.h>
#include <kernel/module.h>

/* Does [off, off + size) lie within a len-byte image? */
static bool in_image(u64 off, u64 size, size_t len)
{
	return off <= len && size <= len - off;
}

/* The "name=" value among .modinfo's NUL-separated key=value strings. */
static int modinfo_find_name(const char *info, size_t size, char *name)
{
	for (size_t i = 0; i < size; ) {
		const char *s = info + i;
		size_t n = strnlen(s, size - i);

		if (n > 5 && !memcmp(s, "name=", 5)) {
			if (n - 5 >= MODULE_NAME_LEN)
				return -ENOEXEC;
			memcpy(name, s + 5, n - 5);
			name[n - 5] = '\0';
			return 0;
		}
		i += n + 1;
	}
	return -ENOEXEC;
}

int module_info_name(const void *image, size_t len, char *name)
{
	const u8 *img = image;
	Elf64_Ehdr eh;
	Elf64_Shdr strtab, sh;

	if (len < sizeof(eh))
		return -ENOEXEC;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_REL ||
	    eh.e_machine != EM_X86_64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shstrndx >= eh.e_shnum ||
	    !in_image(eh.e_shoff, (u64)eh.e_shnum * sizeof(Elf64_Shdr), len))
		return -ENOEXEC;
	memcpy(&strtab, img + eh.e_shoff + (u64)eh.e_shstrndx * sizeof(sh), sizeof(sh));
	if (strtab.sh_type == SHT_NOBITS || !in_image(strtab.sh_offset, strtab.sh_size, len))
		return -ENOEXEC;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		const char *sname;

		memcpy(&sh, img + eh.e_shoff + (u64)i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= strtab.sh_size)
			continue;
		sname = (const char *)img + strtab.sh_offset + sh.sh_name;
		if (strnlen(sname, strtab.sh_size - sh.sh_name) != 8 || memcmp(sname, ".modinfo", 8))
			continue;
		if (sh.sh_type == SHT_NOBITS || !in_image(sh.sh_offset, sh.sh_size, len))
			return -ENOEXEC;
		return modinfo_find_name((const char *)img + sh.sh_offset, sh.sh_size, name);
	}
	return -ENOEXEC;
}
