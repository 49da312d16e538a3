/*
 * x86_64 static branch sites: a 5-byte NOP (0f 1f 44 00 00) or a 5-byte
 * JMP rel32 (e9) to the "yes" label, each recorded in __jump_table as a
 * struct jump_entry (kernel/jump_label.h).
 */
#ifndef ASM_JUMP_LABEL_H
#define ASM_JUMP_LABEL_H

#include <kernel/types.h>

#define JUMP_LABEL_NOP_SIZE 5

#define JUMP_TABLE_ENTRY(key, branch, label)				\
	".pushsection __jump_table, \"aw\"\n\t"				\
	".balign 8\n\t"							\
	".long 1b - ., %l[" #label "] - .\n\t"				\
	".quad %c0 + %c1 - .\n\t"					\
	".popsection\n\t"

static __always_inline bool arch_static_branch(struct static_key *key, bool branch)
{
	__asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		     JUMP_TABLE_ENTRY(key, branch, l_yes)
		     : : "i"(key), "i"(branch) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool arch_static_branch_jump(struct static_key *key, bool branch)
{
	__asm__ goto("1: .byte 0xe9\n\t .long %l[l_yes] - 2f\n2:\n\t"
		     JUMP_TABLE_ENTRY(key, branch, l_yes)
		     : : "i"(key), "i"(branch) : : l_yes);
	return false;
l_yes:
	return true;
}

/*
 * Patch n consecutive sites of one key for its new state (each becomes a
 * JMP iff enabled != its branch bit), safely while other CPUs run them.
 */
void arch_jump_label_transform(struct jump_entry *entries, unsigned int n, bool enabled);
/* What a site holds now: 1 JMP to its target, 0 NOP, -1 neither (corrupt). */
int arch_jump_label_site_state(const struct jump_entry *e);

#endif
