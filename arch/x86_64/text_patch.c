/*
 * Patching kernel text while other CPUs may be executing it, by the int3
 * protocol: (1) write int3 over the first byte of every site, sync all
 * CPUs; (2) write the tails (bytes 1..4), sync; (3) write the first bytes,
 * sync. A CPU that hits a site mid-patch traps into the int3 handler,
 * which asks the batch's owner where to continue (static keys: the *new*
 * JMP or NOP; function-tracer sites: past the site), so no CPU ever runs
 * a torn instruction. Text stays read-only: the bytes are written through
 * a temporary writable alias of the page, mapped at POKE_ADDR for the
 * duration of one write.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/jump_label.h>
#include <asm/idt.h>
#include <asm/page.h>
#include <kernel/smp.h>
#include <asm/text_patch.h>
#include <asm/ftrace.h>

#define INT3_OPCODE	0xcc
#define JMP32_OPCODE	0xe9

const u8 x86_nop5[TEXT_POKE_SITE_SIZE] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The batch being patched, read by the int3 handler on any CPU (NULL: none). */
static const struct text_poke_batch *poke_batch;

static DEFINE_SPINLOCK(text_lock);
/* The alias at POKE_ADDR: one writer at a time (text_poke runs under text_lock or not). */
static DEFINE_SPINLOCK(poke_lock);

static bool site_jumps(const struct jump_entry *e, bool enabled)
{
	return enabled != jump_entry_is_branch(e);
}

static void site_insn(const struct jump_entry *e, bool jump, u8 insn[TEXT_POKE_SITE_SIZE])
{
	unsigned long code = jump_entry_code(e);
	s32 rel = (s32)(long)(jump_entry_target(e) - (code + TEXT_POKE_SITE_SIZE));

	if (!jump) {
		memcpy(insn, x86_nop5, sizeof(x86_nop5));
		return;
	}
	insn[0] = JMP32_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

int arch_jump_label_site_state(const struct jump_entry *e)
{
	u8 jmp[TEXT_POKE_SITE_SIZE];
	const u8 *code = (const u8 *)jump_entry_code(e);

	site_insn(e, true, jmp);
	if (!memcmp(code, jmp, sizeof(jmp)))
		return 1;
	if (!memcmp(code, x86_nop5, sizeof(x86_nop5)))
		return 0;
	return -1;
}

/* Write len bytes at kernel text address addr through a writable alias. */
void text_poke(void *addr, const void *src, size_t len)
{
	unsigned long a = (unsigned long)addr;
	unsigned long page = a & ~(PAGE_SIZE - 1);
	unsigned long flags;

	spin_lock_irqsave(&poke_lock, flags);
	map_page(POKE_ADDR, kernel_virt_to_phys(page), PAGE_KERNEL);
	map_page(POKE_ADDR + PAGE_SIZE, kernel_virt_to_phys(page + PAGE_SIZE), PAGE_KERNEL);
	memcpy((void *)(POKE_ADDR + (a - page)), src, len);
	unmap_page(POKE_ADDR);
	unmap_page(POKE_ADDR + PAGE_SIZE);
	spin_unlock_irqrestore(&poke_lock, flags);
}

static void do_sync_core(void *unused)
{
	/* The IPI's iret serializes; cpuid makes it explicit for the local CPU. */
	unsigned int a = 0, b, c = 0, d;

	__asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) :: "memory");
}

/* Every CPU executes a serializing instruction before this returns. */
static void text_poke_sync(void)
{
	on_each_cpu(do_sync_core, NULL, true);
}

/*
 * One byte that is an instruction's first on its own (a kprobe's int3, or
 * the byte it covered): a single byte store is seen whole by every CPU;
 * after the sync none runs the old byte. Serialized with the batches.
 */
void text_poke_byte(void *addr, u8 byte)
{
	spin_lock(&text_lock);
	text_poke(addr, &byte, 1);
	text_poke_sync();
	spin_unlock(&text_lock);
}

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

/*
 * An int3 at a site outside the batch, or after it: memory no longer
 * holds the int3 the CPU ran, a translation that outlived its patch (the
 * QEMU race the last pass of text_poke_bp_batch closes). Do what memory
 * holds now; an int3 that is not at a site stays fatal.
 */
static bool stale_site_int3(struct pt_regs *regs, unsigned long ip)
{
	for (const struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++) {
		int state;

		if (jump_entry_code(e) != ip)
			continue;
		state = arch_jump_label_site_state(e);
		if (state < 0)
			return false;
		regs->rip = state ? jump_entry_target(e) : ip + TEXT_POKE_SITE_SIZE;
		return true;
	}
	return ftrace_arch_stale_int3(regs, ip);
}

static bool poke_int3_handler(struct pt_regs *regs)
{
	unsigned long ip = regs->rip - 1;	/* int3 is one byte */
	const struct text_poke_batch *b = smp_load_acquire(&poke_batch);
	unsigned long resume = b ? b->resume(b, ip) : 0;

	if (resume) {
		regs->rip = resume;
		return true;
	}
	return stale_site_int3(regs, ip);
}

void text_poke_bp_batch(const struct text_poke_batch *b)
{
	static const u8 int3 = INT3_OPCODE;
	u8 insn[TEXT_POKE_SITE_SIZE];
	unsigned long addr;

	spin_lock(&text_lock);
	smp_store_release(&poke_batch, b);
	traps_set_int3_handler(poke_int3_handler);

	for (unsigned int i = 0; i < b->n; i++)
		text_poke((void *)b->site(b, i, insn), &int3, 1);
	text_poke_sync();
	for (unsigned int i = 0; i < b->n; i++) {
		addr = b->site(b, i, insn);
		text_poke((u8 *)addr + 1, insn + 1, sizeof(insn) - 1);
	}
	text_poke_sync();
	for (unsigned int i = 0; i < b->n; i++) {
		addr = b->site(b, i, insn);
		text_poke((void *)addr, insn, 1);
	}
	text_poke_sync();
	/*
	 * Under QEMU's multi-threaded TCG a vCPU that translated a site while
	 * it held int3 can race the write that removed it: the write misses
	 * the code-page check and the translation holding int3 outlives the
	 * patch (seen: every CPU trapping at a site whose memory says JMP).
	 * Writing the final bytes once more, now that no int3 is left to
	 * translate, invalidates any such translation: one more write and sync.
	 */
	for (unsigned int i = 0; i < b->n; i++) {
		addr = b->site(b, i, insn);
		text_poke((void *)addr, insn, 1);
	}
	text_poke_sync();

	smp_store_release(&poke_batch, NULL);
	spin_unlock(&text_lock);
}

/* The static keys' batch: ctx is the key's run of jump entries. */
struct jump_label_batch {
	struct text_poke_batch b;
	struct jump_entry *entries;
	bool enabled;
};

static unsigned long jump_label_site(const struct text_poke_batch *b, unsigned int i,
				     u8 insn[TEXT_POKE_SITE_SIZE])
{
	const struct jump_label_batch *jb = container_of(b, struct jump_label_batch, b);
	const struct jump_entry *e = &jb->entries[i];

	site_insn(e, site_jumps(e, jb->enabled), insn);
	return jump_entry_code(e);
}

static unsigned long jump_label_resume(const struct text_poke_batch *b, unsigned long ip)
{
	const struct jump_label_batch *jb = container_of(b, struct jump_label_batch, b);

	for (unsigned int i = 0; i < b->n; i++) {
		const struct jump_entry *e = &jb->entries[i];

		if (jump_entry_code(e) == ip)
			return site_jumps(e, jb->enabled) ? jump_entry_target(e)
							  : ip + TEXT_POKE_SITE_SIZE;
	}
	return 0;
}

void arch_jump_label_transform(struct jump_entry *entries, unsigned int n, bool enabled)
{
	struct jump_label_batch jb = {
		.b = { .n = n, .site = jump_label_site, .resume = jump_label_resume },
		.entries = entries,
		.enabled = enabled,
	};

	text_poke_bp_batch(&jb.b);
}
