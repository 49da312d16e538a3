/*
 * Whether a probe's site may be jump-optimized, as far as its function's
 * code decides (arch/x86_64/optprobe_region.c): the region a 5-byte jmp
 * at the site would cover must be whole instructions that fall through
 * (no branch, call, return, int3), inside the function, away from the
 * 5-byte sites others patch, and no jump of the function may land inside
 * it (after its first byte); a function with an indirect jmp (a jump
 * table) has no such region. Pure: the kernel reads its text without
 * probes, the unit test optprobe_region reads made-up functions and the
 * built image.
 */
#ifndef ASM_OPTPROBE_REGION_H
#define ASM_OPTPROBE_REGION_H

#include <kernel/types.h>

#define OPTPROBE_JMP_SIZE	5

/* One function, as the check sees it. */
struct optprobe_func {
	unsigned long start, end;	/* [start, end): the function */
	/* INSN_MAX_LEN bytes of the text at ip (ip < end; may read past end) */
	void (*read)(const struct optprobe_func *f, unsigned long ip, u8 *buf);
	const unsigned long *sites;	/* 5-byte sites patched by others (entry, static keys) */
	unsigned int nsites;
	const void *ctx;		/* the reader's */
};

/* The region's length (>= OPTPROBE_JMP_SIZE) at addr, or 0: not optimizable. */
unsigned int optprobe_region(const struct optprobe_func *f, unsigned long addr);

#endif
