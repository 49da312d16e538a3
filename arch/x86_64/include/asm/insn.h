/*
 * Decoding the length of one x86-64 instruction (arch/x86_64/insn.c):
 * enough of the encoding (prefixes, REX, one-, two- and three-byte
 * opcodes, ModRM, SIB, displacement, immediate) for kprobes to find
 * instruction boundaries and to know what a probed instruction does with
 * the instruction pointer. VEX/EVEX encodings are not decoded (the kernel
 * is built without vector code). Pure.
 */
#ifndef ASM_INSN_H
#define ASM_INSN_H

#include <kernel/types.h>

#define INSN_MAX_LEN	15

/* What the instruction does with RIP, which decides how a probe may run it. */
enum insn_flow {
	INSN_FLOW_NONE,		/* falls through: may run anywhere (a copy) */
	INSN_FLOW_JMP,		/* jmp rel8/rel32: target = next + rel */
	INSN_FLOW_JCC,		/* jcc rel8/rel32: cond in insn.cond */
	INSN_FLOW_RET,		/* near ret without immediate */
	INSN_FLOW_OTHER,	/* call, indirect branch, int, iret, loop, ...: not run from a copy */
};

/* One decoded instruction. */
struct insn {
	u8 len;
	u8 opcode_off;		/* where the opcode starts (after prefixes and REX) */
	s8 disp_off;		/* offset of a RIP-relative disp32, or -1 */
	u8 cond;		/* INSN_FLOW_JCC: the condition nibble (0 = o ... 15 = g) */
	enum insn_flow flow;
	s32 rel;		/* JMP/JCC: the displacement */
};

/*
 * Decode the instruction at code (at most max bytes readable). Returns
 * its length, or -1 when it is not an instruction this decoder knows.
 */
int insn_decode(struct insn *insn, const u8 *code, unsigned int max);

/* Does a jcc with condition cond jump under these RFLAGS? */
bool insn_cond_taken(unsigned int cond, unsigned long rflags);

#endif
