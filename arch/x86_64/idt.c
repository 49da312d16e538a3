/* IDT: every vector goes through entry.S to do_interrupt. */
/* ftrace: notrace */
#include <kernel/types.h>
#include <asm/idt.h>
#include <asm/segment.h>
#include <asm/ptrace.h>
#include <kernel/syscalls.h>

struct idt_gate {
	u16 offset0;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset1;
	u32 offset2;
	u32 reserved;
} __packed;

#define GATE_INTERRUPT 0x8E	/* present, DPL 0, 64-bit interrupt gate: IF cleared on entry */
#define GATE_USER	0x60	/* DPL 3: ring 3 may raise it with int3/into (Linux's breakpoint and overflow gates) */

static struct idt_gate idt[NR_VECTORS] __aligned(16);
extern const unsigned long vector_stubs[NR_VECTORS];

static u8 vector_ist(int v)
{
	switch (v) {
	case 2:  return IST_NMI;
	case 8:  return IST_DOUBLE_FAULT;
	case 18: return IST_MCE;
	default: return 0;
	}
}

void idt_init(void)
{
	for (int v = 0; v < NR_VECTORS; v++) {
		unsigned long a = vector_stubs[v];

		idt[v] = (struct idt_gate){
			.offset0 = a & 0xffff,
			.selector = GDT_KERNEL_CS,
			.ist = vector_ist(v),
			.type_attr = GATE_INTERRUPT | (v == 3 || v == 4 ? GATE_USER : 0),
			.offset1 = (a >> 16) & 0xffff,
			.offset2 = a >> 32,
		};
	}
	idt_load();
}

void idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __packed idtr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" :: "m"(idtr));
}

void do_interrupt(struct pt_regs *regs)
{
	if (regs->vector == 2)
		do_nmi(regs);
	else if (regs->vector < FIRST_EXTERNAL_VECTOR)
		do_trap(regs);
	else {
		do_irq(regs);
		/* Back to ring 3: a signal may have come (Ctrl-C to a busy loop). */
		if (user_mode(regs))
			syscall_exit_to_user_mode(regs);
	}
}
