/* Unit tests of multiboot1/multiboot2 info parsing over a fake physical memory. */
/* uses: kernel/bootinfo.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/bootinfo.h>
#include <kernel/string.h>
#include <kernel/errno.h>

#define FAKE_SIZE 0x4000
static u8 fake[FAKE_SIZE] __aligned(8);	/* "physical" 0 .. FAKE_SIZE */
static struct boot_info bi;

static const void *fake_map(u64 phys, size_t len)
{
	if (phys > FAKE_SIZE || len > FAKE_SIZE - phys)
		return NULL;
	return fake + phys;
}

static void put32(u64 phys, u32 v) { memcpy(fake + phys, &v, 4); }
static void put64(u64 phys, u64 v) { memcpy(fake + phys, &v, 8); }
static void putstr(u64 phys, const char *s) { memcpy(fake + phys, s, strlen(s) + 1); }

/* multiboot1: info at 0x100, cmdline 0x200, modules 0x300, mmap 0x400, names 0x500. */
static void make_mb1(void)
{
	memset(fake, 0, sizeof(fake));
	put32(0x100, (1 << 0) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 9));
	put32(0x100 + 16, 0x200);
	putstr(0x200, "loglevel=3 init=/bin/sh");
	put32(0x100 + 20, 2);
	put32(0x100 + 24, 0x300);
	put32(0x300, 0x200000); put32(0x304, 0x280123); put32(0x308, 0x500);
	put32(0x310, 0x300000); put32(0x314, 0x301000); put32(0x318, 0);
	putstr(0x500, "initrd.cpio");
	putstr(0x540, "qemu");
	put32(0x100 + 64, 0x540);
	/* Three entries; the middle one has a larger size field, as loaders may. */
	put32(0x400, 20); put64(0x404, 0); put64(0x40c, 0x9fc00); put32(0x414, 1);
	put32(0x418, 24); put64(0x41c, 0x100000); put64(0x424, 0x7ee0000); put32(0x42c, 1);
	put32(0x434, 20); put64(0x438, 0x7fe0000); put64(0x440, 0x20000); put32(0x448, 2);
	put32(0x100 + 44, 0x44c - 0x400);
	put32(0x100 + 48, 0x400);
}

Test(bootinfo, multiboot1)
{
	make_mb1();
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), 0);
	cr_assert_eq(bi.protocol, 1);
	cr_assert_str_eq(bi.cmdline, "loglevel=3 init=/bin/sh");
	cr_assert_str_eq(bi.loader_name, "qemu");
	cr_assert_eq(bi.nr_modules, 2);
	cr_assert_eq(bi.modules[0].start, 0x200000);
	cr_assert_eq(bi.modules[0].end, 0x280123);
	cr_assert_str_eq(bi.modules[0].name, "initrd.cpio");
	cr_assert_str_eq(bi.modules[1].name, "");
	cr_assert_eq(bi.nr_mem, 3);
	cr_assert_eq(bi.mem[1].start, 0x100000);
	cr_assert_eq(bi.mem[1].end, 0x7fe0000);
	cr_assert_eq(bi.mem[2].type, BOOT_MEM_RESERVED);
	cr_assert_eq(bootinfo_usable_bytes(&bi), 0x9fc00 + 0x7ee0000);
	cr_assert_eq(bi.rsdp_len, 0);
	/* The info struct, strings, module list and map are all noted. */
	bool info = false, map = false;
	for (unsigned int i = 0; i < bi.nr_data; i++) {
		info |= bi.data[i].start == 0x100;
		map |= bi.data[i].start == 0x400 && bi.data[i].end == 0x44c;
	}
	cr_assert(info && map);
}

Test(bootinfo, multiboot1_without_map_uses_mem_sizes)
{
	make_mb1();
	put32(0x100, 1 << 0);
	put32(0x104, 639);
	put32(0x108, 130048);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), 0);
	cr_assert_eq(bi.nr_mem, 2);
	cr_assert_eq(bi.mem[1].start, 1 << 20);
	cr_assert_eq(bi.mem[1].end, (1 << 20) + (130048ULL << 10));
	cr_assert_str_eq(bi.cmdline, "");
	cr_assert_eq(bi.nr_modules, 0);
}

Test(bootinfo, multiboot1_bad_input)
{
	make_mb1();
	put32(0x418, 8);	/* entry size below the minimum */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), -EINVAL);
	cr_assert_eq(bi.nr_mem, 1, "entries before the bad one are kept");
	make_mb1();
	put32(0x100 + 48, FAKE_SIZE - 8);	/* map beyond reachable memory */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), -EFAULT);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, FAKE_SIZE, fake_map), -EFAULT);
	cr_assert_eq(bootinfo_parse(&bi, 0x12345678, 0x100, fake_map), -EINVAL);
	/* An unterminated command line at the end of memory. */
	make_mb1();
	memset(fake + FAKE_SIZE - 16, 'a', 16);
	put32(0x100 + 16, FAKE_SIZE - 16);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), -EFAULT);
}

Test(bootinfo, multiboot1_long_cmdline_truncated)
{
	make_mb1();
	memset(fake + 0x1000, 'x', 3000);
	fake[0x1000 + 3000] = '\0';
	put32(0x100 + 16, 0x1000);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, 0x100, fake_map), 0);
	cr_assert(bi.cmdline_truncated);
	cr_assert_eq(strlen(bi.cmdline), COMMAND_LINE_SIZE - 1);
}

/* multiboot2 at 0x1000: tags appended by mb2_tag. */
static u32 mb2_off;

static u8 *mb2_tag(u32 type, u32 size)
{
	u8 *t = fake + 0x1000 + mb2_off;

	put32(0x1000 + mb2_off, type);
	put32(0x1000 + mb2_off + 4, size);
	mb2_off = ALIGN_UP(mb2_off + size, 8u);
	return t;
}

static void make_mb2(bool with_end)
{
	u64 mmap;
	u8 *t;

	memset(fake, 0, sizeof(fake));
	mb2_off = 8;
	t = mb2_tag(1, 8 + 20);
	memcpy(t + 8, "smp=2 \"a=b c\"", 14);
	t = mb2_tag(2, 8 + 11);
	memcpy(t + 8, "GRUB 2.06", 10);
	t = mb2_tag(3, 16 + 7);
	memcpy(t + 8, "\x00\x00\x40\x00\x00\x10\x40\x00", 8);
	memcpy(t + 16, "initrd", 7);
	t = mb2_tag(4, 16);
	t = mb2_tag(6, 16 + 2 * 24);
	mmap = (u64)(t - fake);
	put32(mmap + 8, 24);		/* entry_size */
	put64(mmap + 16, 0);
	put64(mmap + 24, 0x9fc00);
	put32(mmap + 32, 1);
	put64(mmap + 40, 0x100000);
	put64(mmap + 48, 0xff00000);
	put32(mmap + 56, 1);
	t = mb2_tag(14, 8 + 20);
	memcpy(t + 8, "RSD PTR ", 8);
	t = mb2_tag(15, 8 + 36);
	memcpy(t + 8, "RSD PTR ", 8);
	t[8 + 15] = 2;
	t = mb2_tag(21, 12);	/* load base address: ignored */
	if (with_end)
		mb2_tag(0, 8);
	put32(0x1000, mb2_off);
}

Test(bootinfo, multiboot2)
{
	make_mb2(true);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), 0);
	cr_assert_eq(bi.protocol, 2);
	cr_assert_str_eq(bi.cmdline, "smp=2 \"a=b c\"");
	cr_assert_str_eq(bi.loader_name, "GRUB 2.06");
	cr_assert_eq(bi.nr_modules, 1);
	cr_assert_eq(bi.modules[0].start, 0x400000);
	cr_assert_eq(bi.modules[0].end, 0x401000);
	cr_assert_str_eq(bi.modules[0].name, "initrd");
	cr_assert_eq(bi.nr_mem, 2);
	cr_assert_eq(bi.mem[1].end, 0x100000 + 0xff00000);
	cr_assert_eq(bi.rsdp_len, 36, "the v2 RSDP wins");
	cr_assert_eq(bi.rsdp[15], 2);
	cr_assert_eq(bi.nr_data, 1);
	cr_assert_eq(bi.data[0].start, 0x1000);
	cr_assert_eq(bi.data[0].end, 0x1000 + mb2_off);
}

Test(bootinfo, multiboot2_malformed)
{
	make_mb2(false);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), -EINVAL,
		     "no end tag");
	make_mb2(true);
	put32(0x1000 + 8 + 4, 4);	/* first tag's size below its header */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), -EINVAL);
	make_mb2(true);
	put32(0x1000 + 8 + 4, 0x10000);	/* tag runs past total_size */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), -EINVAL);
	make_mb2(true);
	put32(0x1000, 0xffffff00);	/* absurd total_size */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), -EINVAL);
	make_mb2(true);
	put32(0x1000, FAKE_SIZE);	/* beyond reachable memory */
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), -EFAULT);
}

Test(bootinfo, multiboot2_unterminated_cmdline_tag)
{
	u8 *t;

	memset(fake, 0, sizeof(fake));
	mb2_off = 8;
	t = mb2_tag(1, 8 + 5);
	memcpy(t + 8, "abcdeXYZ", 8);	/* no NUL inside the tag */
	mb2_tag(0, 8);
	put32(0x1000, mb2_off);
	cr_assert_eq(bootinfo_parse(&bi, MULTIBOOT2_BOOTLOADER_MAGIC, 0x1000, fake_map), 0);
	cr_assert_str_eq(bi.cmdline, "abcde");
	cr_assert_eq(bi.nr_mem, 0);
}
