/*
 * What the kernel learns from the ACPI tables (arch/x86_64/acpi.c): the
 * CPUs and interrupt controllers from the MADT, and how to power off
 * from the FADT and the DSDT's \_S5 object.
 */
#ifndef ASM_ACPI_H
#define ASM_ACPI_H

#include <kernel/types.h>
#include <asm/percpu.h>

/* ISA IRQ -> I/O APIC input mapping, after the MADT's interrupt source overrides. */
struct isa_irq_route {
	u32 gsi;		/* global system interrupt the IRQ arrives on */
	bool active_low;	/* polarity from the override (ISA default: high) */
	bool level;		/* trigger mode from the override (ISA default: edge) */
};

/* The machine as the MADT and FADT describe it. */
struct acpi_info {
	u64 rsdp_phys;			/* where the RSDP was found (0: the loader's copy, or none) */
	u32 lapic_phys;			/* local APIC MMIO base */
	unsigned int nr_cpus;		/* enabled processors, boot CPU included */
	u8 cpu_apicid[NR_CPUS];		/* their local APIC ids, in MADT order */
	u32 ioapic_phys;		/* the first I/O APIC (0: none) */
	u32 ioapic_gsi_base;
	u8 ioapic_id;
	struct isa_irq_route isa_irq[16];
	/* Power off: write SLP_TYPa | SLP_EN to PM1a_CNT (ACPI 4.7.3.2.1). */
	u16 pm1a_cnt;			/* I/O port of PM1a_CNT_BLK (0: unknown) */
	u16 s5_slp_typa;		/* first element of the \_S5 package */
	bool s5_found;
	u32 smi_cmd;			/* port to write acpi_enable to, if SCI_EN is off */
	u8 acpi_enable;
};

extern struct acpi_info acpi;

/* Finds and parses the tables; rsdp_copy is the loader's copy of the RSDP (NULL: search the BIOS areas). */
int acpi_init(const void *rsdp_copy);
/* Enters S5. Returns only if ACPI gave no way to do it (-ENODEV). */
int acpi_poweroff(void);

#endif
