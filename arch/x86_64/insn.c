/*
 * x86-64 instruction lengths, from the opcode maps of the Intel SDM
 * volume 2, appendix A. See asm/insn.h. Pure.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <asm/insn.h>

/* Operand kinds after the opcode, per opcode: ModRM and the immediate's size. */
#define M	0x10	/* has a ModRM byte */
#define I1	0x01	/* imm8 / rel8 */
#define I2	0x02	/* imm16 */
#define IZ	0x04	/* imm32, imm16 with the 0x66 prefix */
#define IV	0x08	/* imm32, imm64 with REX.W (mov r, imm) */
#define I3	0x20	/* imm16 + imm8 (enter) */
#define MO	0x40	/* moffs: 8 bytes, 4 with 0x67 */
#define BAD	0x80	/* invalid in 64-bit mode, or not decoded (VEX/EVEX) */

/* One-byte opcode map. */
static const u8 op1[256] = {
	/* 00 */ M, M, M, M, I1, IZ, BAD, BAD, M, M, M, M, I1, IZ, BAD, 0,
	/* 10 */ M, M, M, M, I1, IZ, BAD, BAD, M, M, M, M, I1, IZ, BAD, BAD,
	/* 20 */ M, M, M, M, I1, IZ, 0, BAD, M, M, M, M, I1, IZ, 0, BAD,
	/* 30 */ M, M, M, M, I1, IZ, 0, BAD, M, M, M, M, I1, IZ, 0, BAD,
	/* 40 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 60 */ BAD, BAD, BAD, M, 0, 0, 0, 0, IZ, M | IZ, I1, M | I1, 0, 0, 0, 0,
	/* 70 */ I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1, I1,
	/* 80 */ M | I1, M | IZ, BAD, M | I1, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 90 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, BAD, 0, 0, 0, 0, 0,
	/* a0 */ MO, MO, MO, MO, 0, 0, 0, 0, I1, IZ, 0, 0, 0, 0, 0, 0,
	/* b0 */ I1, I1, I1, I1, I1, I1, I1, I1, IV, IV, IV, IV, IV, IV, IV, IV,
	/* c0 */ M | I1, M | I1, I2, 0, BAD, BAD, M | I1, M | IZ, I3, 0, I2, 0, 0, I1, BAD, 0,
	/* d0 */ M, M, M, M, BAD, BAD, BAD, 0, M, M, M, M, M, M, M, M,
	/* e0 */ I1, I1, I1, I1, I1, I1, I1, I1, IZ, IZ, BAD, I1, 0, 0, 0, 0,
	/* f0 */ 0, 0, 0, 0, 0, 0, M, M, 0, 0, 0, 0, 0, 0, M, M,
};

/* Two-byte (0x0f xx) opcode map: which have no ModRM, which take an imm8. */
static u8 op2(u8 b)
{
	if (b == 0x0f)				/* 3DNow!: ModRM, suffix byte */
		return M | I1;
	if ((b >= 0x05 && b <= 0x09) || b == 0x0b || b == 0x0e || (b >= 0x30 && b <= 0x37) ||
	    b == 0x77 || b == 0xa0 || b == 0xa1 || b == 0xa2 || b == 0xa8 || b == 0xa9 ||
	    b == 0xaa || (b >= 0xc8 && b <= 0xcf))
		return 0;
	if (b >= 0x80 && b <= 0x8f)		/* jcc rel32 */
		return IZ;
	if ((b >= 0x70 && b <= 0x73) || b == 0xa4 || b == 0xac || b == 0xba ||
	    (b >= 0xc2 && b <= 0xc6))
		return M | I1;
	if (b == 0x04 || b == 0x0a || b == 0x0c || (b >= 0x24 && b <= 0x27) ||
	    b == 0x36 || b == 0x39 || b == 0x3b || (b >= 0x3c && b <= 0x3f) || b == 0x7a ||
	    b == 0x7b || b == 0xff)
		return BAD;
	return M;
}

static bool is_legacy_prefix(u8 b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e ||
	       b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65;
}

/* Bytes of ModRM, SIB and displacement at code[i]; sets disp_off for RIP-relative. */
static int modrm_len(struct insn *insn, const u8 *code, unsigned int i, unsigned int max)
{
	u8 modrm, mod, rm;
	int n = 1;

	if (i >= max)
		return -1;
	modrm = code[i];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (i + 1 >= max)
			return -1;
		n++;
		if (mod == 0 && (code[i + 1] & 7) == 5)
			return n + 4;
	}
	if (mod == 0 && rm == 5) {
		insn->disp_off = (s8)(i + 1);
		return n + 4;
	}
	return n + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

static s32 read_rel(const u8 *p, unsigned int size)
{
	if (size == 1)
		return (s8)p[0];
	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

/* Sort the instruction by what it does with RIP; imm: its last imm bytes (rel for jumps). */
static void classify(struct insn *insn, const u8 *code, unsigned int imm)
{
	const u8 *op = code + insn->opcode_off;
	u8 b = op[0], reg = (u8)((op[1] >> 3) & 7);

	insn->flow = INSN_FLOW_NONE;
	if (b == 0xeb || b == 0xe9) {
		insn->flow = INSN_FLOW_JMP;
	} else if (b >= 0x70 && b <= 0x7f) {
		insn->flow = INSN_FLOW_JCC;
		insn->cond = b & 0xf;
	} else if (b == 0x0f && op[1] >= 0x80 && op[1] <= 0x8f) {
		insn->flow = INSN_FLOW_JCC;
		insn->cond = op[1] & 0xf;
	} else if (b == 0xc3) {
		insn->flow = INSN_FLOW_RET;
	} else if (b == 0xe8 || b == 0xc2 || (b >= 0xca && b <= 0xcf) ||
		   (b >= 0xe0 && b <= 0xe3) || b == 0xf4 || b == 0x9c || b == 0x9d ||
		   (b == 0xff && reg >= 2 && reg <= 5) ||
		   (b == 0x0f && (op[1] == 0x01 || op[1] == 0x05 || op[1] == 0x07 ||
				  op[1] == 0x0b || op[1] == 0x34 || op[1] == 0x35))) {
		/*
		 * Calls push the copy's address, far/indirect branches and
		 * system instructions go elsewhere, ud2 (BUG) must trap at its
		 * own address, pushf/popf would see or set the trap's flags.
		 */
		insn->flow = INSN_FLOW_OTHER;
	}
	if (insn->flow == INSN_FLOW_JMP || insn->flow == INSN_FLOW_JCC)
		insn->rel = read_rel(code + insn->len - imm, imm);
}

int insn_decode(struct insn *insn, const u8 *code, unsigned int max)
{
	unsigned int i = 0, imm = 0;
	bool opsize16 = false, addr32 = false, rexw = false;
	u8 kind, b;
	int m;

	if (max > INSN_MAX_LEN)
		max = INSN_MAX_LEN;
	insn->disp_off = -1;
	while (i < max && is_legacy_prefix(code[i])) {
		opsize16 |= code[i] == 0x66;
		addr32 |= code[i] == 0x67;
		i++;
	}
	if (i < max && (code[i] & 0xf0) == 0x40)
		rexw = code[i++] & 8;
	if (i >= max)
		return -1;
	insn->opcode_off = (u8)i;
	b = code[i++];
	kind = op1[b];
	if (b == 0x0f) {
		if (i >= max)
			return -1;
		b = code[i++];
		if (b == 0x38 || b == 0x3a) {
			kind = b == 0x38 ? M : M | I1;
			i++;
		} else {
			kind = op2(b);
		}
	}
	/* f6/f7 /0 and /1 (test) carry an immediate; the other forms do not */
	if ((b == 0xf6 || b == 0xf7) && insn->opcode_off + 1u == i && i < max &&
	    ((code[i] >> 3) & 7) < 2)
		kind |= b == 0xf6 ? I1 : IZ;
	if (kind & BAD)
		return -1;
	if (kind & M) {
		m = modrm_len(insn, code, i, max);
		if (m < 0)
			return -1;
		i += (unsigned int)m;
	}
	if (kind & I1)
		imm = 1;
	else if (kind & I2)
		imm = 2;
	else if (kind & I3)
		imm = 3;
	else if (kind & IZ)
		imm = opsize16 ? 2 : 4;
	else if (kind & IV)
		imm = rexw ? 8 : opsize16 ? 2 : 4;
	else if (kind & MO)
		imm = addr32 ? 4 : 8;
	i += imm;
	if (i > max)
		return -1;
	insn->len = (u8)i;
	classify(insn, code, imm);
	return (int)i;
}

bool insn_cond_taken(unsigned int cond, unsigned long rflags)
{
	bool cf = rflags & 0x001, pf = rflags & 0x004, zf = rflags & 0x040;
	bool sf = rflags & 0x080, of = rflags & 0x800;
	bool r;

	switch (cond >> 1) {
	case 0: r = of; break;
	case 1: r = cf; break;
	case 2: r = zf; break;
	case 3: r = cf || zf; break;
	case 4: r = sf; break;
	case 5: r = pf; break;
	case 6: r = sf != of; break;
	default: r = zf || sf != of; break;
	}
	return (cond & 1) ? !r : r;
}
