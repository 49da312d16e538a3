/*
 * Patching kernel text while other CPUs may be executing it, by the int3
 * protocol: (1) write int3 over the first byte of every site, sync all
 * CPUs; (2) write the tails (bytes 1..4), sync; (3) write the first bytes,
 * sync. A CPU that hits a site mid-patch traps into the int3 handler,
 * which emulates the *new* instruction (a JMP to the target, or a NOP),
 * so no CPU ever runs a torn instruction. Text stays read-only: the bytes
 * are written through a temporary writable alias of the page, mapped at
 * POKE_ADDR for the duration of one write.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/jump_label.h>
#include <asm/idt.h>
#include <asm/page.h>
#include <kernel/smp.h>
#include <asm/text_patch.h>

#define INT3_OPCODE	0xcc
#define JMP32_OPCODE	0xe9

static const u8 nop5[JUMP_LABEL_NOP_SIZE] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* The batch being patched, read by the int3 handler on any CPU. */
static struct {
	struct jump_entry *entries;
	unsigned int n;
	bool enabled;
} poke_batch;

static DEFINE_SPINLOCK(text_lock);

static bool site_jumps(const struct jump_entry *e, bool enabled)
{
	return enabled != jump_entry_is_branch(e);
}

static void site_insn(const struct jump_entry *e, bool jump, u8 insn[JUMP_LABEL_NOP_SIZE])
{
	unsigned long code = jump_entry_code(e);
	s32 rel = (s32)(long)(jump_entry_target(e) - (code + JUMP_LABEL_NOP_SIZE));

	if (!jump) {
		memcpy(insn, nop5, sizeof(nop5));
		return;
	}
	insn[0] = JMP32_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

int arch_jump_label_site_state(const struct jump_entry *e)
{
	u8 jmp[JUMP_LABEL_NOP_SIZE];
	const u8 *code = (const u8 *)jump_entry_code(e);

	site_insn(e, true, jmp);
	if (!memcmp(code, jmp, sizeof(jmp)))
		return 1;
	if (!memcmp(code, nop5, sizeof(nop5)))
		return 0;
	return -1;
}

/* Write len bytes at kernel text address addr through a writable alias. */
void text_poke(void *addr, const void *src, size_t len)
{
	unsigned long a = (unsigned long)addr;
	unsigned long page = a & ~(PAGE_SIZE - 1);
	unsigned long flags;

	local_irq_save(flags);
	map_page(POKE_ADDR, kernel_virt_to_phys(page), PAGE_KERNEL);
	map_page(POKE_ADDR + PAGE_SIZE, kernel_virt_to_phys(page + PAGE_SIZE), PAGE_KERNEL);
	memcpy((void *)(POKE_ADDR + (a - page)), src, len);
	unmap_page(POKE_ADDR);
	unmap_page(POKE_ADDR + PAGE_SIZE);
	local_irq_restore(flags);
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

extern struct jump_entry __start___jump_table[], __stop___jump_table[];

/*
 * An int3 at a site outside the batch, or after it: memory no longer
 * holds the int3 the CPU ran, a translation that outlived its patch (the
 * QEMU race the second pass in arch_jump_label_transform closes). Do what
 * memory holds now; an int3 that is not at a site stays fatal.
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
		regs->rip = state ? jump_entry_target(e) : ip + JUMP_LABEL_NOP_SIZE;
		return true;
	}
	return false;
}

static bool poke_int3_handler(struct pt_regs *regs)
{
	unsigned long ip = regs->rip - 1;	/* int3 is one byte */

	for (unsigned int i = 0; i < READ_ONCE(poke_batch.n); i++) {
		const struct jump_entry *e = &poke_batch.entries[i];

		if (jump_entry_code(e) != ip)
			continue;
		regs->rip = site_jumps(e, poke_batch.enabled) ? jump_entry_target(e)
							      : ip + JUMP_LABEL_NOP_SIZE;
		return true;
	}
	return stale_site_int3(regs, ip);
}

void arch_jump_label_transform(struct jump_entry *entries, unsigned int n, bool enabled)
{
	static const u8 int3 = INT3_OPCODE;
	u8 insn[JUMP_LABEL_NOP_SIZE];

	spin_lock(&text_lock);
	poke_batch.entries = entries;
	poke_batch.enabled = enabled;
	smp_store_release(&poke_batch.n, n);
	traps_set_int3_handler(poke_int3_handler);

	for (unsigned int i = 0; i < n; i++)
		text_poke((void *)jump_entry_code(&entries[i]), &int3, 1);
	text_poke_sync();
	for (unsigned int i = 0; i < n; i++) {
		site_insn(&entries[i], site_jumps(&entries[i], enabled), insn);
		text_poke((u8 *)jump_entry_code(&entries[i]) + 1, insn + 1, sizeof(insn) - 1);
	}
	text_poke_sync();
	for (unsigned int i = 0; i < n; i++) {
		site_insn(&entries[i], site_jumps(&entries[i], enabled), insn);
		text_poke((void *)jump_entry_code(&entries[i]), insn, 1);
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
	for (unsigned int i = 0; i < n; i++) {
		site_insn(&entries[i], site_jumps(&entries[i], enabled), insn);
		text_poke((void *)jump_entry_code(&entries[i]), insn, 1);
	}
	text_poke_sync();

	WRITE_ONCE(poke_batch.n, 0);
	spin_unlock(&text_lock);
}
