/*
 * The built kernel image ($SPOOR_ELF, set by the test runner) holds every
 * static branch site in the state its key starts in: for each
 * __jump_table entry, the 5 bytes at its code address are the NOP
 * 0f 1f 44 00 00 when the site must fall through at boot, and a JMP rel32
 * to its target otherwise (a site jumps exactly when key enabled != its
 * branch bit). Every tracepoint key starts off, so every tracepoint site
 * is a NOP: a disabled tracepoint costs that one instruction.
 */
/* needs: spoor.elf */
#include "kernel_image.h"

TestSuite(trace_core_jump_table, .init = load_image, .fini = unload_image);

/* One __jump_table entry resolved: struct jump_entry is { s32 code, s32 target, s64 key|branch }. */
struct site {
	uint64_t code, target, key;
	bool branch;
};

/* The table the linker script bounds with __start___jump_table and __stop___jump_table. */
static size_t read_sites(struct site **out)
{
	uint64_t start = symbol("__start___jump_table"), stop = symbol("__stop___jump_table");
	const Elf64_Shdr *sec = section_at(start, stop - start);
	size_t n;

	cr_assert(start && stop > start && sec && sec->sh_type == SHT_PROGBITS,
		  "the image has a __jump_table");
	cr_assert_eq((stop - start) % 16, 0, "entries are 16 bytes");
	n = (stop - start) / 16;
	*out = calloc(n, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		uint64_t at = start + i * 16;
		const unsigned char *e = img + sec->sh_offset + (at - sec->sh_addr);
		int32_t code, target;
		int64_t key;

		memcpy(&code, e, 4);
		memcpy(&target, e + 4, 4);
		memcpy(&key, e + 8, 8);
		(*out)[i].code = at + (int64_t)code;
		(*out)[i].target = at + 4 + (int64_t)target;
		(*out)[i].key = (at + 8 + (uint64_t)key) & ~1ULL;
		(*out)[i].branch = (at + 8 + (uint64_t)key) & 1;
	}
	return n;
}

Test(trace_core_jump_table, every_site_holds_its_initial_instruction)
{
	static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	struct site *s;
	size_t n = read_sites(&s), nops = 0;

	cr_assert_gt(n, 0, "there are static branch sites");
	for (size_t i = 0; i < n; i++) {
		const Elf64_Shdr *text = section_at(s[i].code, 5);
		unsigned char insn[5], want[5];
		int32_t enabled = 0;
		bool jumps;

		cr_assert(text && (text->sh_flags & SHF_EXECINSTR), "site %zu (%#lx) is in text", i,
			  (unsigned long)s[i].code);
		cr_assert(section_at(s[i].target, 1) == text, "site %zu's target is in its text", i);
		cr_assert(read_at(s[i].key, &enabled, sizeof(enabled)), "site %zu's key is in the image", i);
		cr_assert(read_at(s[i].code, insn, sizeof(insn)));
		jumps = (enabled > 0) != s[i].branch;
		if (jumps) {
			int32_t rel = (int32_t)(s[i].target - (s[i].code + 5));

			want[0] = 0xe9;
			memcpy(want + 1, &rel, 4);
		} else {
			memcpy(want, nop5, 5);
			nops++;
		}
		cr_assert(!memcmp(insn, want, 5),
			  "site %zu at %#lx: %02x %02x %02x %02x %02x, expected %s", i,
			  (unsigned long)s[i].code, insn[0], insn[1], insn[2], insn[3], insn[4],
			  jumps ? "a JMP to its target" : "the 5-byte NOP");
	}
	cr_log_info("%zu static branch sites, %zu of them NOPs at boot", n, nops);
	free(s);
}

Test(trace_core_jump_table, tracepoint_sites_are_nops)
{
	static const char *const expected[] = {
		"__tracepoint_sched_switch", "__tracepoint_sched_waking", "__tracepoint_kmalloc",
		"__tracepoint_kfree", "__tracepoint_mm_page_alloc", "__tracepoint_mm_page_free",
		"__tracepoint_irq_handler_entry", "__tracepoint_softirq_entry",
		"__tracepoint_nmi_handler", "__tracepoint_hrtimer_expire_entry",
	};
	uint64_t tps = symbol("__start___tracepoints"), tpe = symbol("__stop___tracepoints");
	struct site *s;
	size_t n = read_sites(&s), tp_sites = 0;

	cr_assert(tps && tpe > tps, "the image has tracepoints");
	for (size_t i = 0; i < n; i++) {
		unsigned char insn[5];

		if (s[i].key < tps || s[i].key >= tpe)
			continue;
		tp_sites++;
		cr_assert(!s[i].branch, "tracepoint sites are static_branch_unlikely");
		cr_assert(read_at(s[i].code, insn, 5));
		cr_assert(!memcmp(insn, "\x0f\x1f\x44\x00\x00", 5), "tracepoint site at %#lx is a NOP",
			  (unsigned long)s[i].code);
	}
	cr_assert_geq(tp_sites, sizeof(expected) / sizeof(expected[0]));
	for (size_t j = 0; j < sizeof(expected) / sizeof(expected[0]); j++) {
		uint64_t tp = symbol(expected[j]);
		size_t found = 0;

		cr_assert_neq(tp, 0, "%s exists", expected[j]);
		for (size_t i = 0; i < n; i++)
			found += s[i].key >= tp && s[i].key < tp + 24;
		cr_assert_gt(found, 0, "%s has a call site", expected[j]);
	}
	free(s);
}
