/*
 * Local APIC (xAPIC, MMIO) and I/O APIC (arch/x86_64/apic.c), and the
 * interrupt vectors Spoor assigns. ISA IRQ n arrives on ISA_IRQ_VECTOR(n);
 * the system vectors sit at the top, where Linux puts them.
 */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <kernel/types.h>

#define ISA_IRQ_VECTOR(irq)		(0x20 + (irq))
#define LOCAL_TIMER_VECTOR		0xec
#define IRQ_WORK_VECTOR			0xf6
#define CALL_FUNCTION_VECTOR		0xfc
#define RESCHEDULE_VECTOR		0xfd
#define ERROR_APIC_VECTOR		0xfe
#define SPURIOUS_APIC_VECTOR		0xff

/* ICR delivery modes (SDM 10.6.1). */
#define APIC_DM_FIXED			0x000
#define APIC_DM_NMI			0x400
#define APIC_DM_INIT			0x500
#define APIC_DM_STARTUP			0x600

/* Maps the LAPIC and I/O APIC, masks the 8259s. Boot CPU, once, after acpi_init. */
void apic_init(void);
/* Enables this CPU's LAPIC (every CPU, the boot CPU included). */
void lapic_setup(void);
u32 lapic_id(void);
void lapic_eoi(void);
/* Sends an IPI: mode is APIC_DM_*, vector is ignored for NMI and INIT. */
void lapic_send_ipi(u32 apicid, u32 mode, u8 vector);
void lapic_send_init(u32 apicid);
void lapic_send_sipi(u32 apicid, u32 start_page);

/* LAPIC timer: calibrate it (with the TSC, arch/x86_64/tsc.c), then hrtimers program it. */
void lapic_timer_oneshot_max(void);
u32 lapic_timer_current(void);
extern u32 lapic_timer_ticks_per_ms;	/* bus-clock/16 ticks in one millisecond */
/* One-shot mode for the hrtimers (kernel/hrtimer.c); then each expiry ns from now. */
void lapic_timer_oneshot_init(void);
void lapic_timer_oneshot_ns(u64 ns);

/* Routes an ISA IRQ (after overrides) to a vector on a CPU; unmasked. */
int ioapic_route_isa_irq(unsigned int irq, u8 vector, u32 dest_apicid);

#endif
