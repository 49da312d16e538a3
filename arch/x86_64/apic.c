/*
 * Local APIC and I/O APIC. Spoor uses the xAPIC MMIO interface (QEMU's
 * TCG has no x2APIC before 8.x) in physical destination mode: an IPI
 * names its target by APIC id. The legacy 8259 PICs are masked; ISA
 * interrupts come through the I/O APIC.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/time.h>
#include <kernel/hrtimer.h>
#include <kernel/irq_work.h>
#include <asm/apic.h>
#include <asm/acpi.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/irq.h>
#include <asm/serial.h>

/* Local APIC registers (SDM table 10-1), byte offsets. */
#define APIC_ID		0x020
#define APIC_TPR	0x080
#define APIC_EOI	0x0b0
#define APIC_SVR	0x0f0
#define APIC_ESR	0x280
#define APIC_ICR_LO	0x300
#define APIC_ICR_HI	0x310
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define APIC_TMICT	0x380
#define APIC_TMCCT	0x390
#define APIC_TDCR	0x3e0

#define APIC_SVR_ENABLE		0x100
#define APIC_LVT_MASKED		0x10000
#define APIC_ICR_BUSY		0x1000
#define APIC_ICR_ASSERT		0x4000
#define APIC_DEST_SELF		0x40000
#define APIC_TDCR_DIV16		0x3

/* I/O APIC: an index/data register pair (82093AA datasheet). */
#define IOAPIC_REGSEL	0x00
#define IOAPIC_WIN	0x10
#define IOAPIC_VER	0x01
#define IOAPIC_REDTBL(n) (0x10 + 2 * (n))
#define IOAPIC_LOW_ACTIVE 0x2000
#define IOAPIC_LEVEL	0x8000
#define IOAPIC_MASKED	0x10000

static volatile u32 *lapic;
static volatile u32 *ioapic;
static unsigned int ioapic_nr_pins;
u32 lapic_timer_ticks_per_ms;

static inline u32 lapic_read(u32 reg) { return lapic[reg / 4]; }
static inline void lapic_write(u32 reg, u32 v) { lapic[reg / 4] = v; }

static u32 ioapic_read(u32 reg)
{
	ioapic[IOAPIC_REGSEL / 4] = reg;
	return ioapic[IOAPIC_WIN / 4];
}

static void ioapic_write(u32 reg, u32 v)
{
	ioapic[IOAPIC_REGSEL / 4] = reg;
	ioapic[IOAPIC_WIN / 4] = v;
}

static void local_timer_interrupt(struct pt_regs *regs)
{
	hrtimer_interrupt();
}

static void irq_work_interrupt(struct pt_regs *regs)
{
	irq_work_run();
}

static void error_interrupt(struct pt_regs *regs)
{
	u32 esr;

	lapic_write(APIC_ESR, 0);
	esr = lapic_read(APIC_ESR);
	printk(KERN_WARNING "APIC error on CPU%u: ESR %#x\n", lapic_id(), esr);
}

static void spurious_interrupt(struct pt_regs *regs)
{
}

void apic_init(void)
{
	/* Mask both 8259s: every interrupt comes through the APICs. */
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
	lapic = ioremap(acpi.lapic_phys ? acpi.lapic_phys : 0xfee00000, PAGE_SIZE);
	if (acpi.ioapic_phys) {
		ioapic = ioremap(acpi.ioapic_phys, PAGE_SIZE);
		ioapic_nr_pins = ((ioapic_read(IOAPIC_VER) >> 16) & 0xff) + 1;
		for (unsigned int i = 0; i < ioapic_nr_pins; i++)
			ioapic_write(IOAPIC_REDTBL(i), IOAPIC_MASKED);
	}
	/* COM1 to the boot CPU; the console driver registers the vector's handler. */
	ioapic_route_isa_irq(SERIAL_IRQ, ISA_IRQ_VECTOR(SERIAL_IRQ), lapic_id());
	irq_register_vector(LOCAL_TIMER_VECTOR, local_timer_interrupt);
	irq_register_vector(ERROR_APIC_VECTOR, error_interrupt);
	irq_register_vector(IRQ_WORK_VECTOR, irq_work_interrupt);
	irq_register_vector(SPURIOUS_APIC_VECTOR, spurious_interrupt);
}

void lapic_setup(void)
{
	lapic_write(APIC_TPR, 0);
	lapic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
	lapic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	lapic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	lapic_write(APIC_LVT_ERROR, ERROR_APIC_VECTOR);
	/* ESR is latched: a write arms it, the next read returns the errors. */
	lapic_write(APIC_ESR, 0);
	lapic_write(APIC_ESR, 0);
	lapic_eoi();
}

u32 lapic_id(void)
{
	return lapic_read(APIC_ID) >> 24;
}

void lapic_eoi(void)
{
	lapic_write(APIC_EOI, 0);
}

static void lapic_icr_wait(void)
{
	while (lapic_read(APIC_ICR_LO) & APIC_ICR_BUSY)
		__builtin_ia32_pause();
}

/*
 * One write of the ICR's low half with the "self" shorthand: no
 * destination in the high half, so an NMI sending this between the two
 * writes of an interrupted lapic_send_ipi leaves that IPI's destination
 * alone (and each sender waits for the ICR to be idle before it writes).
 */
void arch_irq_work_raise(void)
{
	lapic_icr_wait();
	lapic_write(APIC_ICR_LO, APIC_DEST_SELF | APIC_ICR_ASSERT | APIC_DM_FIXED | IRQ_WORK_VECTOR);
}

/*
 * The ICR is two registers: an interrupt arriving between the two writes
 * could send its own IPI and clobber the destination, so interrupts are
 * off for the pair. (The one IPI an NMI may send, arch_irq_work_raise,
 * writes the low half alone.) No wait after the write: the next sender
 * waits, and under TCG each APIC read can wait for QEMU's big lock.
 */
void lapic_send_ipi(u32 apicid, u32 mode, u8 vector)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
	lapic_icr_wait();
	lapic_write(APIC_ICR_HI, apicid << 24);
	lapic_write(APIC_ICR_LO, mode | APIC_ICR_ASSERT | (mode == APIC_DM_FIXED ? vector : 0));
	if (flags & 0x200)
		__asm__ __volatile__("sti" ::: "memory");
}

void lapic_send_init(u32 apicid)
{
	lapic_send_ipi(apicid, APIC_DM_INIT, 0);
}

/* A STARTUP IPI starts the AP in real mode at start_page << 12. */
void lapic_send_sipi(u32 apicid, u32 start_page)
{
	lapic_icr_wait();
	lapic_write(APIC_ICR_HI, apicid << 24);
	lapic_write(APIC_ICR_LO, APIC_DM_STARTUP | (start_page & 0xff));
	lapic_icr_wait();
}

void lapic_timer_oneshot_max(void)
{
	lapic_write(APIC_TDCR, APIC_TDCR_DIV16);
	lapic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	lapic_write(APIC_TMICT, 0xffffffff);
}

u32 lapic_timer_current(void)
{
	return lapic_read(APIC_TMCCT);
}

void lapic_timer_oneshot_init(void)
{
	lapic_write(APIC_TDCR, APIC_TDCR_DIV16);
	lapic_write(APIC_LVT_TIMER, LOCAL_TIMER_VECTOR);
}

/* The count was measured by tsc_calibrate; a zero count would stop the timer. */
void lapic_timer_oneshot_ns(u64 ns)
{
	u64 count = ns * lapic_timer_ticks_per_ms / NSEC_PER_MSEC;

	lapic_write(APIC_TMICT, count > 0xffffffffull ? 0xffffffffu : count ? (u32)count : 1);
}

int ioapic_route_isa_irq(unsigned int irq, u8 vector, u32 dest_apicid)
{
	struct isa_irq_route *r;
	u32 pin, low;

	if (irq >= 16 || !ioapic)
		return -EINVAL;
	r = &acpi.isa_irq[irq];
	pin = r->gsi - acpi.ioapic_gsi_base;
	if (r->gsi < acpi.ioapic_gsi_base || pin >= ioapic_nr_pins)
		return -ENODEV;
	low = vector | (r->active_low ? IOAPIC_LOW_ACTIVE : 0) | (r->level ? IOAPIC_LEVEL : 0);
	ioapic_write(IOAPIC_REDTBL(pin) + 1, dest_apicid << 24);
	ioapic_write(IOAPIC_REDTBL(pin), low);
	return 0;
}
