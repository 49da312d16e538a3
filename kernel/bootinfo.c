/*
 * Multiboot1 and multiboot2 info parsing. The layouts are those of the
 * Multiboot Specification 0.6.96 and 2.0; every field is read with
 * memcpy from mapped memory, so nothing depends on the loader's alignment,
 * and every length is checked against its container before use.
 */
#include <kernel/bootinfo.h>
#include <kernel/string.h>
#include <kernel/errno.h>

/* multiboot1 info: flag bits and field offsets. */
#define MB1_INFO_MEMORY		BIT(0)
#define MB1_INFO_CMDLINE	BIT(2)
#define MB1_INFO_MODS		BIT(3)
#define MB1_INFO_MMAP		BIT(6)
#define MB1_INFO_LOADER_NAME	BIT(9)
#define MB1_INFO_SIZE		88	/* up to and including boot_loader_name */
#define MB1_MEM_LOWER		4
#define MB1_MEM_UPPER		8
#define MB1_CMDLINE		16
#define MB1_MODS_COUNT		20
#define MB1_MODS_ADDR		24
#define MB1_MMAP_LENGTH		44
#define MB1_MMAP_ADDR		48
#define MB1_LOADER_NAME		64
#define MB1_MODULE_SIZE		16	/* mod_start, mod_end, string, reserved */
#define MB1_MMAP_ENTRY_MIN	20	/* base, length, type after the size field */

/* multiboot2 tags. */
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER_NAME	2
#define MB2_TAG_MODULE		3
#define MB2_TAG_BASIC_MEMINFO	4
#define MB2_TAG_MMAP		6
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_INFO_MAX		(1 << 20)	/* a sanity bound on total_size */

static u32 get32(const void *p, size_t off)
{
	u32 v;

	memcpy(&v, (const u8 *)p + off, sizeof(v));
	return v;
}

static u64 get64(const void *p, size_t off)
{
	u64 v;

	memcpy(&v, (const u8 *)p + off, sizeof(v));
	return v;
}

static void note_data(struct boot_info *bi, u64 phys, u64 len)
{
	if (len && bi->nr_data < BOOT_MAX_DATA)
		bi->data[bi->nr_data++] = (struct boot_range){ phys, phys + len };
}

/*
 * Copies the NUL-terminated string at phys into dst, truncating a longer
 * one (*truncated tells). The mapped window shrinks until the mapper
 * accepts it, for a short string close to the end of reachable memory.
 */
static int copy_string(struct boot_info *bi, char *dst, size_t size, u64 phys,
		       boot_map_fn map, bool *truncated)
{
	const char *s = NULL;
	size_t window = size, n;

	while (window && !(s = map(phys, window)))
		window /= 2;
	if (!s)
		return -EFAULT;
	n = strnlen(s, window);
	if (n == window && window < size)
		return -EFAULT;		/* no NUL within what can be mapped */
	*truncated = n == size;
	if (*truncated)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	note_data(bi, phys, n + 1);
	return 0;
}

static void add_region(struct boot_info *bi, u64 start, u64 len, u32 type)
{
	if (!len || start + len < start || bi->nr_mem == BOOT_MAX_REGIONS)
		return;
	bi->mem[bi->nr_mem++] = (struct boot_mem_region){ start, start + len, type };
}

/* The next module slot for [start, end), or NULL when empty or full. */
static struct boot_module *add_module(struct boot_info *bi, u32 start, u32 end)
{
	struct boot_module *m;

	if (end <= start || bi->nr_modules == BOOT_MAX_MODULES)
		return NULL;
	m = &bi->modules[bi->nr_modules++];
	m->start = start;
	m->end = end;
	return m;
}

static int parse_mb1(struct boot_info *bi, u64 info_phys, boot_map_fn map)
{
	const u8 *info = map(info_phys, MB1_INFO_SIZE);
	u32 flags;
	bool cut;
	int err = 0;

	if (!info)
		return -EFAULT;
	note_data(bi, info_phys, MB1_INFO_SIZE);
	flags = get32(info, 0);
	if (flags & MB1_INFO_CMDLINE)
		err = copy_string(bi, bi->cmdline, sizeof(bi->cmdline), get32(info, MB1_CMDLINE),
				  map, &bi->cmdline_truncated);
	if ((flags & MB1_INFO_LOADER_NAME) &&
	    copy_string(bi, bi->loader_name, sizeof(bi->loader_name),
			get32(info, MB1_LOADER_NAME), map, &cut))
		bi->loader_name[0] = '\0';

	if (flags & MB1_INFO_MODS) {
		u32 count = min(get32(info, MB1_MODS_COUNT), (u32)BOOT_MAX_MODULES);
		u64 addr = get32(info, MB1_MODS_ADDR);
		const u8 *mods = count ? map(addr, count * MB1_MODULE_SIZE) : NULL;

		if (count && !mods)
			return -EFAULT;
		note_data(bi, addr, count * MB1_MODULE_SIZE);
		for (u32 i = 0; i < count; i++) {
			const u8 *mod = mods + i * MB1_MODULE_SIZE;
			struct boot_module *m = add_module(bi, get32(mod, 0), get32(mod, 4));

			if (m && get32(mod, 8) &&
			    copy_string(bi, m->name, sizeof(m->name), get32(mod, 8), map, &cut))
				m->name[0] = '\0';
		}
	}

	if (flags & MB1_INFO_MMAP) {
		u32 len = get32(info, MB1_MMAP_LENGTH);
		u64 addr = get32(info, MB1_MMAP_ADDR);
		const u8 *mmap = map(addr, len);

		if (!mmap)
			return -EFAULT;
		note_data(bi, addr, len);
		/* Each entry starts with its size, which does not count itself. */
		for (u32 off = 0; off + 4 <= len;) {
			u32 size = get32(mmap, off);

			if (size < MB1_MMAP_ENTRY_MIN || off + 4 + size > len)
				return -EINVAL;
			add_region(bi, get64(mmap, off + 4), get64(mmap, off + 12), get32(mmap, off + 20));
			off += 4 + size;
		}
	} else if (flags & MB1_INFO_MEMORY) {
		/* No map: the two sizes in KiB below and above 1 MiB. */
		add_region(bi, 0, (u64)get32(info, MB1_MEM_LOWER) << 10, BOOT_MEM_USABLE);
		add_region(bi, 1 << 20, (u64)get32(info, MB1_MEM_UPPER) << 10, BOOT_MEM_USABLE);
	}
	return err;
}

static int parse_mb2_mmap(struct boot_info *bi, const u8 *tag, u32 size)
{
	u32 esize = get32(tag, 8);

	/* base, length, type, reserved: 24 bytes; later versions may grow it. */
	if (esize < 24 || esize % 8)
		return -EINVAL;
	for (u32 off = 16; off + esize <= size; off += esize)
		add_region(bi, get64(tag, off), get64(tag, off + 8), get32(tag, off + 16));
	return 0;
}

static int parse_mb2(struct boot_info *bi, u64 info_phys, boot_map_fn map)
{
	const u8 *hdr = map(info_phys, 8), *info;
	u32 total;
	bool seen_mmap = false, cut;
	u64 lower = 0, upper = 0;

	if (!hdr)
		return -EFAULT;
	total = get32(hdr, 0);
	if (total < 16 || total > MB2_INFO_MAX)
		return -EINVAL;
	info = map(info_phys, total);
	if (!info)
		return -EFAULT;
	note_data(bi, info_phys, total);

	for (u32 off = 8; off + 8 <= total; off = ALIGN_UP(off + get32(info, off + 4), 8u)) {
		const u8 *tag = info + off;
		u32 type = get32(tag, 0), size = get32(tag, 4);
		struct boot_module *m;
		size_t len;

		if (size < 8 || size > total - off)
			return -EINVAL;
		switch (type) {
		case MB2_TAG_END:
			goto done;
		case MB2_TAG_CMDLINE:
		case MB2_TAG_LOADER_NAME: {
			char *dst = type == MB2_TAG_CMDLINE ? bi->cmdline : bi->loader_name;
			size_t cap = type == MB2_TAG_CMDLINE ? sizeof(bi->cmdline) : sizeof(bi->loader_name);

			/* The string is inside the tag; it need not be terminated there. */
			len = strnlen((const char *)tag + 8, size - 8);
			cut = len >= cap;
			if (cut)
				len = cap - 1;
			memcpy(dst, tag + 8, len);
			dst[len] = '\0';
			if (type == MB2_TAG_CMDLINE)
				bi->cmdline_truncated = cut;
			break;
		}
		case MB2_TAG_MODULE:
			if (size < 16)
				return -EINVAL;
			m = add_module(bi, get32(tag, 8), get32(tag, 12));
			if (m) {
				len = min(strnlen((const char *)tag + 16, size - 16), sizeof(m->name) - 1);
				memcpy(m->name, tag + 16, len);
				m->name[len] = '\0';
			}
			break;
		case MB2_TAG_BASIC_MEMINFO:
			if (size < 16)
				return -EINVAL;
			lower = (u64)get32(tag, 8) << 10;
			upper = (u64)get32(tag, 12) << 10;
			break;
		case MB2_TAG_MMAP:
			if (size < 16 || parse_mb2_mmap(bi, tag, size))
				return -EINVAL;
			seen_mmap = true;
			break;
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			/* The new (v2) copy wins over the old when a loader gives both. */
			if (type == MB2_TAG_ACPI_OLD && bi->rsdp_len > 20)
				break;
			len = min((size_t)(size - 8), sizeof(bi->rsdp));
			memcpy(bi->rsdp, tag + 8, len);
			bi->rsdp_len = (unsigned int)len;
			break;
		default:
			break;		/* framebuffer, ELF sections, EFI...: not used */
		}
	}
	return -EINVAL;		/* ran off the end without an end tag */
done:
	if (!seen_mmap) {
		add_region(bi, 0, lower, BOOT_MEM_USABLE);
		add_region(bi, 1 << 20, upper, BOOT_MEM_USABLE);
	}
	return 0;
}

int bootinfo_parse(struct boot_info *bi, u32 magic, u64 info_phys, boot_map_fn map)
{
	memset(bi, 0, sizeof(*bi));
	switch (magic) {
	case MULTIBOOT_BOOTLOADER_MAGIC:
		bi->protocol = 1;
		return parse_mb1(bi, info_phys, map);
	case MULTIBOOT2_BOOTLOADER_MAGIC:
		bi->protocol = 2;
		return parse_mb2(bi, info_phys, map);
	default:
		return -EINVAL;
	}
}

u64 bootinfo_usable_bytes(const struct boot_info *bi)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == BOOT_MEM_USABLE)
			sum += bi->mem[i].end - bi->mem[i].start;
	return sum;
}
