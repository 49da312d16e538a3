/*
 * What the boot loader told us, in one loader-independent shape. Both
 * multiboot1 (QEMU -kernel) and multiboot2 (GRUB) info are parsed into a
 * struct boot_info early in boot, copying everything the kernel needs
 * later, so the loader's memory may be reused afterwards. Pure: the
 * parser reaches physical memory only through a caller-given mapper.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <kernel/types.h>
#include <kernel/cmdline.h>

#define MULTIBOOT_BOOTLOADER_MAGIC	0x2BADB002	/* in eax from a multiboot1 loader */
#define MULTIBOOT2_BOOTLOADER_MAGIC	0x36d76289	/* in eax from a multiboot2 loader */

/* Memory-map region types, the same numbers as the BIOS e820 map. */
#define BOOT_MEM_USABLE		1
#define BOOT_MEM_RESERVED	2
#define BOOT_MEM_ACPI		3	/* ACPI tables, reclaimable after parsing */
#define BOOT_MEM_NVS		4	/* ACPI non-volatile storage */
#define BOOT_MEM_BAD		5

#define BOOT_MAX_REGIONS	64
#define BOOT_MAX_MODULES	8
#define BOOT_MAX_DATA		8
#define BOOT_MODULE_NAME	64

/* A physical range [start, end). */
struct boot_range {
	u64 start;
	u64 end;
};

/* One entry of the loader's memory map. */
struct boot_mem_region {
	u64 start;
	u64 end;		/* exclusive */
	u32 type;		/* BOOT_MEM_* */
};

/* A file the loader put in memory; modules[0] is the initrd. */
struct boot_module {
	u64 start;		/* physical, page aligned (both headers ask for it) */
	u64 end;		/* exclusive */
	char name[BOOT_MODULE_NAME];	/* the loader's string for it, truncated */
};

struct boot_info {
	int protocol;				/* 1 or 2: multiboot version */
	char loader_name[64];
	char cmdline[COMMAND_LINE_SIZE];	/* "" when the loader gave none */
	bool cmdline_truncated;
	struct boot_mem_region mem[BOOT_MAX_REGIONS];
	unsigned int nr_mem;
	struct boot_module modules[BOOT_MAX_MODULES];
	unsigned int nr_modules;
	/* Copy of the ACPI RSDP from multiboot2 tag 14 (v1, 20 bytes) or 15 (v2, 36). */
	u8 rsdp[36];
	unsigned int rsdp_len;			/* 0: none given; find it by scanning */
	/* Memory the loader's info occupies, kept from the page allocator. */
	struct boot_range data[BOOT_MAX_DATA];
	unsigned int nr_data;
};

/*
 * Maps len bytes of physical memory at phys for reading, or returns NULL
 * when that range cannot be reached.
 */
typedef const void *(*boot_map_fn)(u64 phys, size_t len);

/*
 * Parses the info at info_phys left by the loader that put magic in eax.
 * Returns 0; -EINVAL for an unknown magic or a malformed structure (what
 * was read before the fault is kept); -EFAULT when map refused a range.
 */
int bootinfo_parse(struct boot_info *bi, u32 magic, u64 info_phys, boot_map_fn map);

/* Sum of the usable regions, in bytes. */
u64 bootinfo_usable_bytes(const struct boot_info *bi);

/* The info the kernel booted with (arch/x86_64/setup.c fills it). */
extern struct boot_info boot_info;

#endif
