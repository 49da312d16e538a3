/* The running kernel's symbol table (see host-tools/kallsyms.c for how it is made). */
#include <kernel/kallsyms.h>
#include <kernel/string.h>

extern const u64 kallsyms_num;
extern const u64 kallsyms_addrs[];
extern const u32 kallsyms_name_off[];
extern const char kallsyms_names[];
extern char _text[], _end[];

static const struct kallsyms_table kernel_table = {
	.addrs = kallsyms_addrs,
	.name_off = kallsyms_name_off,
	.names = kallsyms_names,
};

bool kallsyms_lookup(unsigned long addr, const char **name,
		     unsigned long *offset, unsigned long *size)
{
	struct kallsyms_table t = kernel_table;
	unsigned long start;

	t.num = kallsyms_num;
	if (!kallsyms_table_lookup(&t, addr, (unsigned long)_end, name, &start, size))
		return false;
	*offset = addr - start;
	return true;
}

int sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	const char *name;
	unsigned long off, sz;

	if (!kallsyms_lookup(addr, &name, &off, &sz))
		return snprintf(buf, size, "0x%lx", addr);
	return snprintf(buf, size, "%s+0x%lx/0x%lx", name, off, sz);
}

int sprint_symbol_no_offset(char *buf, size_t size, unsigned long addr)
{
	const char *name;
	unsigned long off, sz;

	if (!kallsyms_lookup(addr, &name, &off, &sz))
		return snprintf(buf, size, "0x%lx", addr);
	return snprintf(buf, size, "%s", name);
}

void kallsyms_for_each(void (*fn)(void *arg, unsigned long start, unsigned long end,
				  const char *name), void *arg)
{
	for (u64 i = 0; i < kallsyms_num; i++)
		fn(arg, kallsyms_addrs[i], i + 1 < kallsyms_num ? kallsyms_addrs[i + 1] :
		   (unsigned long)_end, kallsyms_names + kallsyms_name_off[i]);
}

unsigned long kallsyms_lookup_name(const char *name)
{
	for (u64 i = 0; i < kallsyms_num; i++)
		if (!strcmp(kallsyms_names + kallsyms_name_off[i], name))
			return kallsyms_addrs[i];
	return 0;
}
