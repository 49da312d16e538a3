/* Writing to kernel text (arch/x86_64/text_patch.c). */
#ifndef ASM_TEXT_PATCH_H
#define ASM_TEXT_PATCH_H

#include <kernel/types.h>

/* A fixed page pair (unused otherwise) where text pages are aliased writable. */
#define POKE_ADDR 0xfffffffffe000000UL

/*
 * Write bytes into kernel text through a temporary alias. Not atomic for
 * other CPUs executing them: the int3 protocol (text_poke_bp_batch) is
 * built on this.
 */
void text_poke(void *addr, const void *src, size_t len);

/* Replace one instruction's first byte (kprobes' int3) and sync every CPU. Sleeps. */
void text_poke_byte(void *addr, u8 byte);

/* Every site the int3 protocol rewrites is one 5-byte instruction. */
#define TEXT_POKE_SITE_SIZE	5
/* The 5-byte NOP every site holds when off: nopl 0x0(%rax,%rax,1). */
extern const u8 x86_nop5[TEXT_POKE_SITE_SIZE];

struct pt_regs;

/*
 * n sites to rewrite in one run of the int3 protocol. site() gives site
 * i's address and its new instruction; resume() says where a CPU that
 * hit int3 at ip continues while the batch is patched (0: ip is none of
 * the batch's sites). Both run on any CPU, resume() in the int3 handler.
 */
struct text_poke_batch {
	unsigned int n;
	unsigned long (*site)(const struct text_poke_batch *b, unsigned int i,
			      u8 insn[TEXT_POKE_SITE_SIZE]);
	unsigned long (*resume)(const struct text_poke_batch *b, unsigned long ip);
};

/* Rewrite every site of the batch; other CPUs may run them meanwhile. Sleeps. */
void text_poke_bp_batch(const struct text_poke_batch *b);

#endif
