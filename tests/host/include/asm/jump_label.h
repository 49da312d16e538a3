/*
 * Host build: a static branch is a plain read of its key, and there are
 * no patchable sites (the kernel's __jump_table is empty here), so the
 * site functions kernel/jump_label.c needs are never reached.
 */
#ifndef ASM_JUMP_LABEL_H
#define ASM_JUMP_LABEL_H

#include <kernel/types.h>

static inline bool arch_static_branch(struct static_key *key, bool branch)
{
	return (atomic_read(&key->enabled) > 0) != branch;
}
#define arch_static_branch_jump arch_static_branch

static inline void arch_jump_label_transform(struct jump_entry *entries, unsigned int n,
					     bool enabled)
{
}
static inline int arch_jump_label_site_state(const struct jump_entry *e)
{
	return 0;
}

#endif
