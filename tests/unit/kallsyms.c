/* Symbol lookup over a made-up table: bounds, aliases, sizes. */
/* uses: kernel/kallsyms_table.c */
#include <criterion/criterion.h>
#include <kernel/kallsyms.h>

static const u64 addrs[] = { 0x1000, 0x1000, 0x1040, 0x1100, 0x1100 };
static const char names[] = "_text\0start\0helper\0__x\0_y";
static const u32 offs[] = { 0, 6, 12, 19, 23 };
static const struct kallsyms_table table = { 5, addrs, offs, names };

Test(kallsyms, finds_containing_symbol)
{
	const char *name;
	unsigned long start, size;

	cr_assert(kallsyms_table_lookup(&table, 0x1050, 0x1200, &name, &start, &size));
	cr_assert_str_eq(name, "helper");
	cr_assert_eq(start, 0x1040);
	cr_assert_eq(size, 0xc0);
}

Test(kallsyms, prefers_alias_with_fewest_underscores)
{
	const char *name;
	unsigned long start, size;

	cr_assert(kallsyms_table_lookup(&table, 0x1000, 0x1200, &name, &start, &size));
	cr_assert_str_eq(name, "start");
	cr_assert_eq(size, 0x40);
	cr_assert(kallsyms_table_lookup(&table, 0x11ff, 0x1200, &name, &start, &size));
	cr_assert_str_eq(name, "_y");
	cr_assert_eq(size, 0x100);
}

Test(kallsyms, rejects_outside)
{
	const char *name;
	unsigned long start, size;
	struct kallsyms_table empty = { 0, addrs, offs, names };

	cr_assert_not(kallsyms_table_lookup(&table, 0xfff, 0x1200, &name, &start, &size));
	cr_assert_not(kallsyms_table_lookup(&table, 0x1200, 0x1200, &name, &start, &size));
	cr_assert_not(kallsyms_table_lookup(&empty, 0x1000, 0x1200, &name, &start, &size));
}
