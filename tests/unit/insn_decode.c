/*
 * The x86-64 instruction-length decoder kprobes find boundaries with
 * (arch/x86_64/insn.c): encodings with known lengths and control flow,
 * condition codes, and the whole built kernel ($SPOOR_ELF): decoding every
 * traceable function (one with a function-tracer site) from its first
 * byte must land exactly on its end, since a probe may go on any
 * boundary the decoder finds.
 */
/* needs: spoor.elf */
/* uses: arch/x86_64/insn.c */
#include "kernel_image.h"
#include <asm/insn.h>

TestSuite(insn_decode, .init = load_image, .fini = unload_image);

struct vector {
	const char *what;
	unsigned char bytes[15];
	int len;
	enum insn_flow flow;
};

static const struct vector vectors[] = {
	{ "push %rbp", { 0x55 }, 1, INSN_FLOW_NONE },
	{ "mov %rsp,%rbp", { 0x48, 0x89, 0xe5 }, 3, INSN_FLOW_NONE },
	{ "nopl 0x0(%rax,%rax,1)", { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 5, INSN_FLOW_NONE },
	{ "sub $0x18,%rsp", { 0x48, 0x83, 0xec, 0x18 }, 4, INSN_FLOW_NONE },
	{ "mov 0x10(%rip),%rax", { 0x48, 0x8b, 0x05, 0x10, 0, 0, 0 }, 7, INSN_FLOW_NONE },
	{ "movabs $imm64,%rax", { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, INSN_FLOW_NONE },
	{ "mov $imm32,%eax", { 0xb8, 1, 2, 3, 4 }, 5, INSN_FLOW_NONE },
	{ "movw $imm16,(%rax)", { 0x66, 0xc7, 0x00, 1, 2 }, 5, INSN_FLOW_NONE },
	{ "testb $1,(%rdi)", { 0xf6, 0x07, 0x01 }, 3, INSN_FLOW_NONE },
	{ "notl (%rdi)", { 0xf7, 0x17 }, 2, INSN_FLOW_NONE },
	{ "testl $imm32,%eax", { 0xf7, 0xc0, 1, 2, 3, 4 }, 6, INSN_FLOW_NONE },
	{ "lea 0x8(%rsp,%rbx,4),%rax", { 0x48, 0x8d, 0x44, 0x9c, 0x08 }, 5, INSN_FLOW_NONE },
	{ "mov %gs:0x10,%rax (SIB, no base)", { 0x65, 0x48, 0x8b, 0x04, 0x25, 0x10, 0, 0, 0 }, 9,
	  INSN_FLOW_NONE },
	{ "lock cmpxchg %ecx,(%rdx)", { 0xf0, 0x0f, 0xb1, 0x0a }, 4, INSN_FLOW_NONE },
	{ "pshufd-like 0f 3a imm8", { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08 }, 6, INSN_FLOW_NONE },
	{ "jmp rel8", { 0xeb, 0xfe }, 2, INSN_FLOW_JMP },
	{ "jmp rel32", { 0xe9, 0x10, 0, 0, 0 }, 5, INSN_FLOW_JMP },
	{ "je rel8", { 0x74, 0x05 }, 2, INSN_FLOW_JCC },
	{ "jne rel32", { 0x0f, 0x85, 0x00, 0x01, 0, 0 }, 6, INSN_FLOW_JCC },
	{ "ret", { 0xc3 }, 1, INSN_FLOW_RET },
	{ "call rel32", { 0xe8, 0, 0, 0, 0 }, 5, INSN_FLOW_OTHER },
	{ "call *%rax", { 0xff, 0xd0 }, 2, INSN_FLOW_OTHER },
	{ "jmp *0x8(%rax)", { 0xff, 0x60, 0x08 }, 3, INSN_FLOW_OTHER },
	{ "ud2", { 0x0f, 0x0b }, 2, INSN_FLOW_OTHER },
	{ "pushf", { 0x9c }, 1, INSN_FLOW_OTHER },
	{ "iretq", { 0x48, 0xcf }, 2, INSN_FLOW_OTHER },
	{ "incl (%rax) (ff /0)", { 0xff, 0x00 }, 2, INSN_FLOW_NONE },
};

Test(insn_decode, known_encodings)
{
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const struct vector *v = &vectors[i];
		struct insn insn;

		cr_expect_eq(insn_decode(&insn, v->bytes, sizeof(v->bytes)), v->len, "%s: length",
			     v->what);
		cr_expect_eq(insn.flow, v->flow, "%s: flow", v->what);
	}
}

Test(insn_decode, rip_relative_and_branch_fields)
{
	static const unsigned char mov[] = { 0x48, 0x8b, 0x05, 0x10, 0x20, 0x30, 0x40 };
	static const unsigned char jne[] = { 0x0f, 0x85, 0xfc, 0xff, 0xff, 0xff };
	static const unsigned char jmp8[] = { 0xeb, 0x80 };
	struct insn insn;

	insn_decode(&insn, mov, sizeof(mov));
	cr_expect_eq(insn.disp_off, 3, "the disp32 of a RIP-relative operand is found");
	insn_decode(&insn, jne, sizeof(jne));
	cr_expect_eq(insn.cond, 5);
	cr_expect_eq(insn.rel, -4);
	insn_decode(&insn, jmp8, sizeof(jmp8));
	cr_expect_eq(insn.rel, -128);
	cr_expect_eq(insn_decode(&insn, jne, 3), -1, "a truncated instruction is refused");
	cr_expect_eq(insn_decode(&insn, (const unsigned char[]){ 0x06 }, 1), -1,
		     "push %es is invalid in 64-bit mode");
}

Test(insn_decode, condition_codes)
{
	const unsigned long zf = 0x40, cf = 0x1, sf = 0x80, of = 0x800;

	cr_expect(insn_cond_taken(0x4, zf), "je with ZF");
	cr_expect(!insn_cond_taken(0x5, zf), "jne with ZF");
	cr_expect(insn_cond_taken(0x2, cf), "jb with CF");
	cr_expect(insn_cond_taken(0x6, zf) && !insn_cond_taken(0x7, cf), "jbe / ja");
	cr_expect(insn_cond_taken(0xc, sf) && !insn_cond_taken(0xc, sf | of), "jl: SF != OF");
	cr_expect(insn_cond_taken(0xf, 0) && !insn_cond_taken(0xf, zf), "jg");
}

Test(insn_decode, every_traceable_function_decodes_to_its_end)
{
	uint64_t start = symbol("__start_mcount_loc"), stop = symbol("__stop_mcount_loc");
	const Elf64_Sym *sym;
	const char *str;
	size_t nsym = symbols(&sym, &str), nsites = (stop - start) / 8, funcs = 0, insns = 0;
	uint64_t *sites = calloc(nsites, 8);

	cr_assert(read_at(start, sites, nsites * 8));
	for (size_t i = 0; i < nsym; i++) {
		uint64_t a = sym[i].st_value, end = a + sym[i].st_size;
		bool site = false;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || !sym[i].st_size)
			continue;
		for (size_t k = 0; k < nsites && !site; k++)
			site = sites[k] == a;
		if (!site)
			continue;
		funcs++;
		while (a < end) {
			unsigned char buf[15] = { 0 };
			struct insn insn;
			int len;

			read_at(a, buf, end - a < 15 ? end - a : 15);
			len = insn_decode(&insn, buf, (unsigned int)(end - a < 15 ? end - a : 15));
			cr_assert_gt(len, 0, "%s+%#lx: %02x %02x %02x %02x does not decode",
				     str + sym[i].st_name, (unsigned long)(a - sym[i].st_value),
				     buf[0], buf[1], buf[2], buf[3]);
			a += (uint64_t)len;
			insns++;
		}
		cr_assert_eq(a, end, "%s: decoding runs past its end", str + sym[i].st_name);
	}
	cr_assert_gt(funcs, 500, "most functions are traceable (%zu)", funcs);
	cr_log_info("%zu functions, %zu instructions decoded", funcs, insns);
	free(sites);
}
