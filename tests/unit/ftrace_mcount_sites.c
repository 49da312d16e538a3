/*
 * The function tracer's call sites in the built kernel image ($SPOOR_ELF):
 * every address the build recorded in __mcount_loc (between
 * __start_mcount_loc and __stop_mcount_loc) is the first instruction of a
 * function symbol and holds the 5-byte NOP 0f 1f 44 00 00, so a site
 * costs one NOP until the tracer patches it; the functions that must
 * never be traced have no site at all.
 */
/* needs: spoor.elf */
#include "kernel_image.h"

TestSuite(ftrace_mcount_sites, .init = load_image, .fini = unload_image);

/* The recorded sites (absolute addresses, 8 bytes each). */
static size_t read_sites(uint64_t **out)
{
	uint64_t start = symbol("__start_mcount_loc"), stop = symbol("__stop_mcount_loc");
	size_t n;

	cr_assert(start && stop > start, "the image has an __mcount_loc table");
	cr_assert_eq((stop - start) % 8, 0);
	n = (stop - start) / 8;
	*out = calloc(n, sizeof(**out));
	cr_assert(read_at(start, *out, n * 8), "the table is in the image");
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Is there a function symbol starting at addr? Its name, or NULL. */
static const char *function_at(uint64_t addr)
{
	const Elf64_Sym *sym;
	const char *str;
	size_t n = symbols(&sym, &str);

	for (size_t i = 0; i < n; i++)
		if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_value == addr)
			return str + sym[i].st_name;
	return NULL;
}

Test(ftrace_mcount_sites, every_site_is_a_nop_at_a_function_entry)
{
	uint64_t *s;
	size_t n = read_sites(&s);

	cr_assert_gt(n, 500, "most of the kernel has sites (%zu)", n);
	qsort(s, n, sizeof(*s), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		const Elf64_Shdr *text = section_at(s[i], 5);
		unsigned char insn[5];

		cr_assert(!i || s[i] != s[i - 1], "site %#lx recorded twice", (unsigned long)s[i]);
		cr_assert(text && (text->sh_flags & SHF_EXECINSTR), "site %#lx is in text",
			  (unsigned long)s[i]);
		cr_assert(read_at(s[i], insn, 5));
		cr_assert(!memcmp(insn, "\x0f\x1f\x44\x00\x00", 5),
			  "site %#lx: %02x %02x %02x %02x %02x, not the 5-byte NOP",
			  (unsigned long)s[i], insn[0], insn[1], insn[2], insn[3], insn[4]);
		cr_assert_not_null(function_at(s[i]), "site %#lx starts a function",
				   (unsigned long)s[i]);
	}
	cr_log_info("%zu function-tracer sites", n);
	free(s);
}

/* Has the function called name a site? It must exist either way. */
static bool traced(const uint64_t *s, size_t n, const char *name)
{
	uint64_t addr = symbol(name);

	cr_assert_neq(addr, 0, "%s is in the image", name);
	for (size_t i = 0; i < n; i++)
		if (s[i] == addr)
			return true;
	return false;
}

Test(ftrace_mcount_sites, notrace_functions_have_no_site)
{
	/* Each with why it must not call the tracer. */
	static const char *const never[] = {
		"ftrace_ops_list_func",	/* the dispatch: trace/ is built without sites */
		"ftrace_caller",	/* the trampoline (assembly) */
		"function_trace_call",	/* the function tracer's callback */
		"ring_buffer_lock_reserve", "ring_buffer_unlock_commit",	/* its writes */
		"tracing_gen_ctx",
		"ktime_get_ns", "trace_clock_local",	/* the record's clock */
		"memcpy", "memset",	/* what everything above copies with */
		"text_poke", "text_poke_bp_batch", "poke_int3_handler",	/* the patcher */
		"ftrace_arch_patch_sites", "ftrace_arch_stale_int3",
		"map_page", "unmap_page",	/* text_poke's alias */
		"on_each_cpu",		/* the patcher's cross-CPU sync */
		"do_trap", "do_interrupt",	/* exception and interrupt entry */
		"do_nmi",		/* NMI path */
		"irq_exit",		/* returns below its context: the graph guard is taken */
		"ftrace_return_to_handler", "return_to_handler",	/* function_graph's return */
		"start_kernel", "setup_arch", "setup_per_cpu_areas",	/* early boot */
		"gdt_init_cpu", "idt_init",
		"stack_trace_save",	/* func_stack_trace's walker */
		"kprobe_int3_handler", "kretprobe_trampoline_handler",	/* kprobes */
		"kprobe_opt_handler", "kprobe_site_run_handlers", "kprobe_site_lookup",
		"kprobe_fixup_interrupted",	/* optimized kprobes' hits and interrupt returns */
		"insn_decode", "copy_from_kernel_nofault",	/* what they run on */
	};
	static const char *const always[] = {
		"schedule", "kmalloc", "kfree", "kernel_clone", "vfs_read", "sh_exec_script",
	};
	uint64_t *s;
	size_t n = read_sites(&s);

	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		cr_expect(!traced(s, n, never[i]), "%s must be notrace", never[i]);
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		cr_expect(traced(s, n, always[i]), "%s must be traceable", always[i]);
	free(s);
}
