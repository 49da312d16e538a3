/*
 * Kernel symbols on the host (tests/host/kshim.c): pure code that looks
 * symbols up (event filters' FIELD.function) sees the table a test
 * installs, or no symbol at all.
 */
#ifndef HOST_KALLSYMS_H
#define HOST_KALLSYMS_H

/* One function: [addr, addr + size). */
struct host_symbol {
	const char *name;
	unsigned long addr, size;
};

/* The table kallsyms_lookup{,_name} search, ended by a NULL name; NULL: none. */
extern const struct host_symbol *host_symbols;

#endif
