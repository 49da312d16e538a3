/*
 * ACPI table discovery: RSDP -> RSDT/XSDT -> MADT (CPUs, I/O APIC,
 * interrupt source overrides) and FADT (PM1a control port, DSDT). The
 * sleep type for S5 lives in AML, in the DSDT's \_S5 package; a full AML
 * interpreter is out of scope, so the package is found by its byte
 * pattern, which is how small kernels have always done it.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/delay.h>
#include <asm/acpi.h>
#include <asm/io.h>
#include <asm/page.h>

struct acpi_info acpi;

/* Root System Description Pointer (ACPI 5.2.5). */
struct rsdp {
	char signature[8];		/* "RSD PTR " */
	u8 checksum;			/* of the first 20 bytes */
	char oem_id[6];
	u8 revision;			/* 0: ACPI 1.0 (RSDT only), 2+: XSDT */
	u32 rsdt_phys;
	u32 length;
	u64 xsdt_phys;
	u8 ext_checksum;		/* of the whole structure */
	u8 reserved[3];
} __packed;

/* Every table starts with this header (ACPI 5.2.6). */
struct sdt_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

#define MADT_LOCAL_APIC		0
#define MADT_IO_APIC		1
#define MADT_INT_OVERRIDE	2
#define MADT_LAPIC_OVERRIDE	5

/* FADT field offsets (ACPI 5.2.9) that Spoor reads. */
#define FADT_DSDT		40
#define FADT_SMI_CMD		48
#define FADT_ACPI_ENABLE	52
#define FADT_PM1A_CNT_BLK	64
#define FADT_X_DSDT		140

/* AML opcodes around the \_S5 package (ACPI 20.2). */
#define AML_ZERO_OP		0x00
#define AML_ONE_OP		0x01
#define AML_NAME_OP		0x08
#define AML_BYTE_PREFIX		0x0a
#define AML_PACKAGE_OP		0x12

#define ACPI_SCI_EN		0x0001
#define ACPI_SLP_EN		0x2000

/* Tables live in RAM the firmware reserved, all inside the direct map. */
static void *acpi_map(u64 phys)
{
	return phys_to_virt(phys);
}

static bool checksum_ok(const void *p, size_t n)
{
	const u8 *b = p;
	u8 sum = 0;

	while (n--)
		sum += *b++;
	return sum == 0;
}

static struct rsdp *rsdp_scan(u64 start, u64 len)
{
	for (u64 a = start; a + sizeof(struct rsdp) <= start + len; a += 16) {
		struct rsdp *r = acpi_map(a);

		if (!memcmp(r->signature, "RSD PTR ", 8) && checksum_ok(r, 20)) {
			acpi.rsdp_phys = a;
			return r;
		}
	}
	return NULL;
}

/* The loader's copy if valid, else ACPI 5.2.5.1: the first KiB of the EBDA, then the BIOS ROM area. */
static struct rsdp *rsdp_find(const void *copy)
{
	static struct rsdp loader_copy;
	struct rsdp *r;
	u64 ebda = (u64)*(u16 *)acpi_map(0x40e) << 4;

	if (copy) {
		memcpy(&loader_copy, copy, sizeof(loader_copy));
		r = &loader_copy;
		if (!memcmp(r->signature, "RSD PTR ", 8) && checksum_ok(r, 20))
			return r;
		pr_warn("ACPI: the loader's RSDP is invalid, searching\n");
	}
	if (ebda >= 0x80000 && ebda < 0xa0000 && (r = rsdp_scan(ebda, 1024)))
		return r;
	return rsdp_scan(0xe0000, 0x20000);
}

static struct sdt_header *sdt_map(u64 phys, const char *want)
{
	struct sdt_header *h;

	if (!phys)
		return NULL;
	h = acpi_map(phys);
	if (want && memcmp(h->signature, want, 4))
		return NULL;
	if (h->length < sizeof(*h) || !checksum_ok(h, h->length)) {
		pr_warn("ACPI: %.4s at %#lx has a bad checksum, ignored\n", h->signature,
			(unsigned long)phys);
		return NULL;
	}
	return h;
}

/* The table with this signature, through the XSDT (64-bit entries) or the RSDT. */
static struct sdt_header *acpi_find_table(struct rsdp *r, const char *sig)
{
	bool x = r->revision >= 2 && r->xsdt_phys;
	struct sdt_header *root = x ? sdt_map(r->xsdt_phys, "XSDT") : sdt_map(r->rsdt_phys, "RSDT");
	size_t esize = x ? 8 : 4;
	size_t n;
	u8 *ent;

	if (!root)
		return NULL;
	n = (root->length - sizeof(*root)) / esize;
	ent = (u8 *)(root + 1);
	for (size_t i = 0; i < n; i++) {
		u64 phys = 0;
		struct sdt_header *h;

		memcpy(&phys, ent + i * esize, esize);
		h = acpi_map(phys);
		if (phys && !memcmp(h->signature, sig, 4))
			return sdt_map(phys, sig);
	}
	return NULL;
}

static void madt_parse(struct sdt_header *madt)
{
	u8 *p = (u8 *)madt + sizeof(*madt) + 8;	/* local APIC address, flags */
	u8 *end = (u8 *)madt + madt->length;

	acpi.lapic_phys = *(u32 *)((u8 *)madt + sizeof(*madt));
	for (int i = 0; i < 16; i++)
		acpi.isa_irq[i] = (struct isa_irq_route){ .gsi = (u32)i };

	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		switch (p[0]) {
		case MADT_LOCAL_APIC:
			/* flags bit 0: enabled; disabled entries are hot-plug slots */
			if ((*(u32 *)(p + 4) & 1) && acpi.nr_cpus < NR_CPUS)
				acpi.cpu_apicid[acpi.nr_cpus++] = p[3];
			break;
		case MADT_IO_APIC:
			if (!acpi.ioapic_phys) {
				acpi.ioapic_id = p[2];
				acpi.ioapic_phys = *(u32 *)(p + 4);
				acpi.ioapic_gsi_base = *(u32 *)(p + 8);
			}
			break;
		case MADT_INT_OVERRIDE: {
			u8 src = p[3];
			u16 flags = *(u16 *)(p + 8);

			/* flags: polarity bits 1:0 (3 = low), trigger bits 3:2 (3 = level) */
			if (p[2] == 0 && src < 16)
				acpi.isa_irq[src] = (struct isa_irq_route){
					.gsi = *(u32 *)(p + 4),
					.active_low = (flags & 3) == 3,
					.level = ((flags >> 2) & 3) == 3,
				};
			break;
		}
		case MADT_LAPIC_OVERRIDE:
			acpi.lapic_phys = (u32)*(u64 *)(p + 4);
			break;
		}
		p += p[1];
	}
}

/*
 * Finds "NameOp _S5_ PackageOp PkgLength NumElements SLP_TYPa ..." in AML
 * and returns SLP_TYPa, or -1. The name may carry a root prefix '\'.
 */
static int aml_find_s5(const u8 *aml, size_t len)
{
	for (size_t i = 1; i + 8 < len; i++) {
		const u8 *p;
		int lead_extra;

		if (memcmp(aml + i, "_S5_", 4))
			continue;
		if (aml[i - 1] != AML_NAME_OP && !(aml[i - 1] == '\\' && i >= 2 && aml[i - 2] == AML_NAME_OP))
			continue;
		p = aml + i + 4;
		if (*p++ != AML_PACKAGE_OP)
			continue;
		lead_extra = *p >> 6;		/* PkgLength: bytes after the lead byte */
		p += 1 + lead_extra + 1;	/* PkgLength, NumElements */
		if (p + 2 > aml + len)
			return -1;
		switch (p[0]) {
		case AML_ZERO_OP: return 0;
		case AML_ONE_OP: return 1;
		case AML_BYTE_PREFIX: return p[1];
		default: return -1;
		}
	}
	return -1;
}

static void fadt_parse(struct sdt_header *fadt)
{
	u8 *f = (u8 *)fadt;
	u64 dsdt_phys = *(u32 *)(f + FADT_DSDT);
	struct sdt_header *dsdt;
	int typ;

	acpi.pm1a_cnt = (u16)*(u32 *)(f + FADT_PM1A_CNT_BLK);
	acpi.smi_cmd = *(u32 *)(f + FADT_SMI_CMD);
	acpi.acpi_enable = f[FADT_ACPI_ENABLE];
	if (fadt->length >= FADT_X_DSDT + 8 && *(u64 *)(f + FADT_X_DSDT))
		dsdt_phys = *(u64 *)(f + FADT_X_DSDT);
	dsdt = sdt_map(dsdt_phys, "DSDT");
	if (!dsdt)
		return;
	typ = aml_find_s5((u8 *)(dsdt + 1), dsdt->length - sizeof(*dsdt));
	if (typ >= 0) {
		acpi.s5_slp_typa = (u16)typ;
		acpi.s5_found = true;
	}
}

int acpi_init(const void *rsdp_copy)
{
	struct rsdp *r = rsdp_find(rsdp_copy);
	struct sdt_header *madt, *fadt;

	if (!r) {
		pr_warn("ACPI: no RSDP, assuming one CPU\n");
		return -ENODEV;
	}
	madt = acpi_find_table(r, "APIC");
	fadt = acpi_find_table(r, "FACP");
	if (madt)
		madt_parse(madt);
	if (fadt)
		fadt_parse(fadt);
	pr_info("ACPI: RSDP %s%#lx rev %u, %u CPUs, LAPIC %#x, IOAPIC %#x (id %u, gsi %u), "
		"S5 %s (SLP_TYPa %u, PM1a_CNT %#x)\n",
		acpi.rsdp_phys ? "at " : "from the loader ", (unsigned long)acpi.rsdp_phys, r->revision, acpi.nr_cpus, acpi.lapic_phys,
		acpi.ioapic_phys, acpi.ioapic_id, acpi.ioapic_gsi_base,
		acpi.s5_found ? "found" : "missing", acpi.s5_slp_typa, acpi.pm1a_cnt);
	return madt ? 0 : -ENODEV;
}

int acpi_poweroff(void)
{
	if (!acpi.pm1a_cnt || !acpi.s5_found)
		return -ENODEV;
	/* The firmware may have left the OS in legacy mode: ask for ACPI mode first. */
	if (!(inw(acpi.pm1a_cnt) & ACPI_SCI_EN) && acpi.smi_cmd && acpi.acpi_enable) {
		outb((u16)acpi.smi_cmd, acpi.acpi_enable);
		for (int i = 0; i < 100000 && !(inw(acpi.pm1a_cnt) & ACPI_SCI_EN); i++)
			__builtin_ia32_pause();
	}
	outw(acpi.pm1a_cnt, (u16)((acpi.s5_slp_typa & 7) << 10) | ACPI_SLP_EN);
	/* The machine goes down asynchronously: give it a second before calling it a failure. */
	mdelay(1000);
	return -ETIMEDOUT;
}
