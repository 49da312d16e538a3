/*
 * Name tables for the shell's variables and functions: a hash table that
 * doubles as it fills, so a lookup costs the same with 5 names or 5,000
 * (test suites define hundreds, and every $name in a loop looks one up).
 * Intrusive: the entry embeds a struct sh_name; the table owns no memory
 * but its buckets.
 */
#ifndef KERNEL_SHELL_SH_TABLE_H
#define KERNEL_SHELL_SH_TABLE_H

#include <kernel/types.h>

struct sh_name {
	struct sh_name *hnext;	/* bucket chain */
	u32 hash;
	char *name;
};

struct sh_table {
	struct sh_name **buckets;	/* NULL until the first add */
	u32 nbuckets;			/* a power of two */
	u32 count;
};

struct sh_name *sh_table_find(const struct sh_table *t, const char *name);
/* Adds n (n->name set, not in the table yet); -ENOMEM leaves it out. */
int sh_table_add(struct sh_table *t, struct sh_name *n);
void sh_table_del(struct sh_table *t, struct sh_name *n);
/* Frees the buckets only: the entries are their owner's. */
void sh_table_free(struct sh_table *t);

#endif
