/*
 * For unit tests that check the built kernel image ("needs: spoor.elf"):
 * the whole file ($SPOOR_ELF) in memory, its sections and symbols, and
 * the initial bytes at a virtual address. Header-only.
 */
#ifndef TESTS_UNIT_KERNEL_IMAGE_H
#define TESTS_UNIT_KERNEL_IMAGE_H

#include <criterion/criterion.h>
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole image and its section table (load_image). */
static unsigned char *img;
static size_t img_size;
static const Elf64_Ehdr *eh;
static const Elf64_Shdr *sh;

static inline const char *section_name(const Elf64_Shdr *s)
{
	return (const char *)img + sh[eh->e_shstrndx].sh_offset + s->sh_name;
}

static inline const Elf64_Shdr *section_by_name(const char *name)
{
	for (int i = 0; i < eh->e_shnum; i++)
		if (!strcmp(section_name(&sh[i]), name))
			return &sh[i];
	return NULL;
}

/* The allocated section holding [addr, addr + len), or NULL. */
static inline const Elf64_Shdr *section_at(uint64_t addr, uint64_t len)
{
	for (int i = 0; i < eh->e_shnum; i++)
		if ((sh[i].sh_flags & SHF_ALLOC) && addr >= sh[i].sh_addr &&
		    addr + len <= sh[i].sh_addr + sh[i].sh_size)
			return &sh[i];
	return NULL;
}

/* Initial bytes at a virtual address (zeros in .bss); false if not in the image. */
static inline bool read_at(uint64_t addr, void *out, size_t len)
{
	const Elf64_Shdr *s = section_at(addr, len);

	if (!s)
		return false;
	if (s->sh_type == SHT_NOBITS)
		memset(out, 0, len);
	else
		memcpy(out, img + s->sh_offset + (addr - s->sh_addr), len);
	return true;
}

/* .symtab's symbols and their names. */
static inline size_t symbols(const Elf64_Sym **sym, const char **str)
{
	const Elf64_Shdr *st = section_by_name(".symtab");

	if (!st)
		return 0;
	*sym = (const Elf64_Sym *)(img + st->sh_offset);
	*str = (const char *)img + sh[st->sh_link].sh_offset;
	return st->sh_size / sizeof(**sym);
}

/* The address of a symbol in .symtab, 0 if absent. */
static inline uint64_t symbol(const char *name)
{
	const Elf64_Sym *sym;
	const char *str;
	size_t n = symbols(&sym, &str);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(str + sym[i].st_name, name))
			return sym[i].st_value;
	return 0;
}

static inline void load_image(void)
{
	const char *path = getenv("SPOOR_ELF");
	FILE *f;

	cr_assert_not_null(path, "SPOOR_ELF names the kernel image (the test runner sets it)");
	f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	img_size = (size_t)ftell(f);
	rewind(f);
	img = malloc(img_size);
	cr_assert_eq(fread(img, 1, img_size, f), img_size);
	fclose(f);
	eh = (const Elf64_Ehdr *)img;
	cr_assert(img_size > sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG));
	cr_assert_eq(eh->e_machine, EM_X86_64);
	cr_assert(eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) <= img_size);
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
}

static inline void unload_image(void)
{
	free(img);
}

#endif
