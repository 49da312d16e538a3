/*
 * The code side of a kprobe's jump optimization (asm/optprobe_region.h).
 * Pure.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <asm/insn.h>
#include <asm/optprobe_region.h>

static bool is_site(const struct optprobe_func *f, unsigned long ip)
{
	for (unsigned int i = 0; i < f->nsites; i++)
		if (f->sites[i] == ip)
			return true;
	return false;
}

/* An indirect jmp (ff /4, ff /5): a jump table may go anywhere. */
static bool indirect_jmp(const struct insn *insn, const u8 *buf)
{
	unsigned int reg = (buf[insn->opcode_off + 1] >> 3) & 7;

	return buf[insn->opcode_off] == 0xff && (reg == 4 || reg == 5);
}

/* Does a jump of the function land in (addr, addr + len)? Or is it undecodable? */
static bool jump_into(const struct optprobe_func *f, unsigned long addr, unsigned int len)
{
	u8 buf[INSN_MAX_LEN];
	struct insn insn;
	unsigned long ip, target;

	for (ip = f->start; ip < f->end; ip += insn.len) {
		/* others' sites may be mid-patch: known 5-byte instructions */
		if (is_site(f, ip)) {
			insn.len = OPTPROBE_JMP_SIZE;
			continue;
		}
		f->read(f, ip, buf);
		if (insn_decode(&insn, buf, sizeof(buf)) < 0 || indirect_jmp(&insn, buf))
			return true;
		if (insn.flow != INSN_FLOW_JMP && insn.flow != INSN_FLOW_JCC)
			continue;
		target = ip + insn.len + (unsigned long)(long)insn.rel;
		if (target > addr && target < addr + len)
			return true;
	}
	return ip != f->end;
}

unsigned int optprobe_region(const struct optprobe_func *f, unsigned long addr)
{
	u8 buf[INSN_MAX_LEN];
	struct insn insn;
	unsigned int len = 0;

	if (addr < f->start)
		return 0;
	while (len < OPTPROBE_JMP_SIZE) {
		if (addr + len >= f->end)
			return 0;
		f->read(f, addr + len, buf);
		if (insn_decode(&insn, buf, sizeof(buf)) < 0 || insn.flow != INSN_FLOW_NONE ||
		    buf[0] == 0xcc)
			return 0;
		len += insn.len;
	}
	if (addr + len > f->end)
		return 0;
	for (unsigned int i = 0; i < f->nsites; i++)
		if (f->sites[i] < addr + len && addr < f->sites[i] + OPTPROBE_JMP_SIZE)
			return 0;
	return jump_into(f, addr, len) ? 0 : len;
}
