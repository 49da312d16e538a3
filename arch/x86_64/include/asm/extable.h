/*
 * The exception table: pairs (instruction, fixup) emitted next to each
 * instruction that may fault on a user address. A kernel-mode fault at
 * such an instruction that the fault handler cannot resolve resumes at
 * the fixup instead of oopsing.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#ifdef __ASSEMBLER__
#define _ASM_EXTABLE(insn, fixup)		\
	.pushsection __ex_table, "a";		\
	.balign 8;				\
	.quad insn, fixup;			\
	.popsection
#else
#include <kernel/types.h>

struct exception_table_entry {
	unsigned long insn, fixup;
};

/* The fixup address for a faulting rip, or 0. */
unsigned long search_exception_tables(unsigned long rip);
#endif

#endif
