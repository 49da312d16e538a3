/* Unit tests of kernel/lib: number parsing, strscpy, errno texts, per-CPU emulation. */
/* uses: kernel/lib/kstring.c kernel/lib/errno.c */
#include <criterion/criterion.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/preempt.h>

Test(kstrto, decimal_hex_octal)
{
	unsigned long long v;

	cr_assert_eq(kstrtoull("1234", 0, &v), 0);
	cr_assert_eq(v, 1234);
	cr_assert_eq(kstrtoull("0x1f\n", 0, &v), 0);
	cr_assert_eq(v, 31);
	cr_assert_eq(kstrtoull("017", 0, &v), 0);
	cr_assert_eq(v, 15);
	cr_assert_eq(kstrtoull("ff", 16, &v), 0);
	cr_assert_eq(v, 255);
}

Test(kstrto, rejects_garbage_and_overflow)
{
	unsigned long long v = 7;
	long long s;

	cr_assert_eq(kstrtoull("", 0, &v), -EINVAL);
	cr_assert_eq(kstrtoull("12a", 10, &v), -EINVAL);
	cr_assert_eq(kstrtoull("99999999999999999999", 10, &v), -ERANGE);
	cr_assert_eq(v, 7);
	cr_assert_eq(kstrtoll("-42", 10, &s), 0);
	cr_assert_eq(s, -42);
	cr_assert_eq(kstrtoll("9223372036854775808", 10, &s), -ERANGE);
}

Test(strscpy, truncates)
{
	char b[4];

	cr_assert_eq(strscpy(b, "ab", sizeof(b)), 2);
	cr_assert_str_eq(b, "ab");
	cr_assert_eq((long)strscpy(b, "abcdef", sizeof(b)), -E2BIG);
	cr_assert_str_eq(b, "abc");
}

Test(errno_text, texts)
{
	cr_assert_str_eq(errno_text(-EINVAL), "Invalid argument");
	cr_assert_str_eq(errno_text(ENOENT), "No such file or directory");
	cr_assert_str_eq(errno_text(9999), "Unknown error");
}

Test(percpu, copies_are_per_cpu)
{
	host_cpu_id = 3;
	cr_assert_eq(smp_processor_id(), 3);
	this_cpu_add(__preempt_count, HARDIRQ_OFFSET);
	cr_assert(in_irq());
	cr_assert_eq(interrupt_context_level(), 2);
	host_cpu_id = 1;
	cr_assert(in_task());
	cr_assert_eq(interrupt_context_level(), 0);
	cr_assert_eq(per_cpu(__preempt_count, 3), (int)HARDIRQ_OFFSET);
}
