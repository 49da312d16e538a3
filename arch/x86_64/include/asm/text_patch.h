/* Writing to kernel text (arch/x86_64/text_patch.c). */
#ifndef ASM_TEXT_PATCH_H
#define ASM_TEXT_PATCH_H

#include <kernel/types.h>

/* A fixed page pair (unused otherwise) where text pages are aliased writable. */
#define POKE_ADDR 0xfffffffffe000000UL

/*
 * Write bytes into kernel text through a temporary alias. Not atomic for
 * other CPUs executing them: the int3 protocol (arch_jump_label_transform)
 * is built on this.
 */
void text_poke(void *addr, const void *src, size_t len);

#endif
