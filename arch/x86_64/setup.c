/*
 * setup_arch: from the loader's info to working memory management, on
 * the boot CPU, after the GDT and IDT (so a fault here is reported) and
 * before anything allocates. Order matters: the loader's info is copied
 * while boot.S's map of the first GiB still reaches it; memblock learns
 * RAM and what to keep out of it; paging_init builds the final tables
 * from memblock pages; then mem_map, the buddy allocator and kmalloc.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/console.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/memblock.h>
#include <kernel/mm.h>
#include <kernel/mm/slab.h>
#include <kernel/caches.h>
#include <asm/page.h>
#include <asm/setup.h>
#include <asm/tsc.h>

extern char _boot_start[], _end[];

struct boot_info boot_info;
struct cmdline boot_cmdline;

/* boot.S maps physical [0, 1 GiB) at __START_KERNEL_map until paging_init. */
#define BOOT_MAP_LIMIT	(1UL << 30)

static const void *boot_map(u64 phys, size_t len)
{
	if (phys > BOOT_MAP_LIMIT || len > BOOT_MAP_LIMIT - phys)
		return NULL;
	return (const void *)(__START_KERNEL_map + phys);
}

static void parse_cmdline(void)
{
	int err = cmdline_parse(&boot_cmdline, boot_info.cmdline), level;

	if (err || boot_info.cmdline_truncated)
		pr_warn("command line truncated to %d bytes\n", COMMAND_LINE_SIZE - 1);
	/* Linux's quiet (CONSOLE_LOGLEVEL_QUIET, 4): errors and worse only; loglevel= wins. */
	if (cmdline_has(&boot_cmdline, "quiet"))
		console_loglevel = 4;
	switch (cmdline_get_int(&boot_cmdline, "loglevel", &level)) {
	case 0:
		if (level >= 0) {
			console_loglevel = level;
			break;
		}
		/* fall through */
	case -EINVAL:
	case -ERANGE:
		pr_warn("loglevel=%s: not a log level\n", cmdline_get(&boot_cmdline, "loglevel"));
		break;
	}
}

static void memblock_setup(void)
{
	const struct boot_info *bi = &boot_info;

	memblock_reset();
	for (unsigned int i = 0; i < bi->nr_mem; i++) {
		const struct boot_mem_region *r = &bi->mem[i];

		/* Where the firmware's map overlaps itself, anything but usable wins. */
		if (r->type == BOOT_MEM_USABLE)
			memblock_add(r->start, r->end - r->start);
		else
			memblock_reserve(r->start, r->end - r->start);
	}
	/* Low memory: BIOS data, EBDA, and the SMP trampoline page. */
	memblock_reserve(0, 1UL << 20);
	memblock_reserve((u64)_boot_start, kernel_virt_to_phys((unsigned long)_end) - (u64)_boot_start);
	for (unsigned int i = 0; i < bi->nr_modules; i++)
		memblock_reserve(bi->modules[i].start, bi->modules[i].end - bi->modules[i].start);
	for (unsigned int i = 0; i < bi->nr_data; i++)
		memblock_reserve(bi->data[i].start, bi->data[i].end - bi->data[i].start);
}

/* mem_map for all of RAM, from memblock, reached through the new direct map. */
static void mem_map_init(void)
{
	unsigned long nr_pfns = memblock_end_of_ram() >> PAGE_SHIFT;
	u64 size = ALIGN_UP(nr_pfns * sizeof(struct page), PAGE_SIZE);
	u64 phys = memblock_phys_alloc(size, PAGE_SIZE, ~0UL);

	if (!phys)
		panic("no memory for mem_map (%lu KiB)", (unsigned long)(size >> 10));
	free_area_init(__va(phys), nr_pfns);
}

void setup_arch(u32 magic, u32 info_phys)
{
	u64 t0 = rdtsc();
	int err = bootinfo_parse(&boot_info, magic, info_phys, boot_map);
	unsigned long image = kernel_virt_to_phys((unsigned long)_end) - (unsigned long)_boot_start;

	if (err)
		pr_err("boot info (magic %#x at %#x): %s; using what was read\n",
		       magic, info_phys, errno_text(err));
	if (!bootinfo_usable_bytes(&boot_info))
		panic("the boot loader gave no memory map");
	parse_cmdline();
	/* Only now: quiet and loglevel= decide whether it reaches the console. */
	pr_info("Spoor booting (loader magic %#x, info at %#x)\n", magic, info_phys);
	memblock_setup();
	paging_init();
	mem_map_init();
	memblock_free_all();
	kmem_cache_init();
	proc_caches_init();
	pr_info("Memory: %luK/%luK available (%luK kernel image, %luK mem_map+page tables), "
		"%lu pages zeroed, %lu kcycles\n",
		nr_free_pages() << (PAGE_SHIFT - 10),
		(unsigned long)(memblock_phys_mem_size() >> 10), image >> 10,
		(unsigned long)(ALIGN_UP(max_pfn * sizeof(struct page), PAGE_SIZE) >> 10) +
			(nr_page_table_pages() << (PAGE_SHIFT - 10)),
		nr_page_table_pages() + nr_pages_zeroed(), (unsigned long)((rdtsc() - t0) / 1000));
}
