/*
 * The x86_64 system-call names against Linux 6.12's syscall_64.tbl:
 * a sample across the table, the entry-point names tracing uses, the
 * reserved numbers and the holes.
 */
/* uses: trace/syscall_names.c */
#include <criterion/criterion.h>
#include <string.h>
#include <trace/syscall_names.h>

static const struct {
	long nr;
	const char *name;
} sample[] = {
	{ 0, "read" }, { 1, "write" }, { 2, "open" }, { 3, "close" }, { 9, "mmap" },
	{ 12, "brk" }, { 15, "rt_sigreturn" }, { 39, "getpid" }, { 56, "clone" },
	{ 57, "fork" }, { 58, "vfork" }, { 59, "execve" }, { 60, "exit" }, { 61, "wait4" },
	{ 158, "arch_prctl" }, { 186, "gettid" }, { 202, "futex" }, { 217, "getdents64" },
	{ 218, "set_tid_address" }, { 231, "exit_group" }, { 257, "openat" },
	{ 262, "newfstatat" }, { 298, "perf_event_open" }, { 302, "prlimit64" },
	{ 318, "getrandom" }, { 332, "statx" }, { 334, "rseq" }, { 335, "uretprobe" },
	{ 424, "pidfd_send_signal" }, { 435, "clone3" }, { 439, "faccessat2" },
	{ 450, "set_mempolicy_home_node" }, { 451, "cachestat" }, { 462, "mseal" },
};

Test(syscall_names, table_names)
{
	for (size_t i = 0; i < sizeof(sample) / sizeof(sample[0]); i++)
		cr_expect_str_eq(syscall_name(sample[i].nr), sample[i].name, "nr %ld", sample[i].nr);
}

Test(syscall_names, entry_names)
{
	cr_expect_str_eq(syscall_entry_name(0), "sys_read");
	cr_expect_str_eq(syscall_entry_name(231), "sys_exit_group");
	cr_expect_str_eq(syscall_entry_name(435), "sys_clone3");
	/* entry points named otherwise than the table entry */
	cr_expect_str_eq(syscall_entry_name(4), "sys_newstat");
	cr_expect_str_eq(syscall_entry_name(5), "sys_newfstat");
	cr_expect_str_eq(syscall_entry_name(6), "sys_newlstat");
	cr_expect_str_eq(syscall_entry_name(40), "sys_sendfile64");
	cr_expect_str_eq(syscall_entry_name(63), "sys_newuname");
	cr_expect_str_eq(syscall_entry_name(166), "sys_umount");
	cr_expect_str_eq(syscall_name(166), "umount2");
}

Test(syscall_names, reserved_numbers_have_no_entry)
{
	static const long reserved[] = { 134, 156, 174, 177, 178, 180, 181, 182, 183, 184,
					 185, 205, 211, 212, 214, 215, 236 };

	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		cr_expect_not_null(syscall_name(reserved[i]), "nr %ld", reserved[i]);
		cr_expect_null(syscall_entry_name(reserved[i]), "nr %ld", reserved[i]);
	}
	cr_expect_str_eq(syscall_name(134), "uselib");
	cr_expect_str_eq(syscall_name(156), "_sysctl");
	cr_expect_str_eq(syscall_name(236), "vserver");
}

Test(syscall_names, holes_and_range)
{
	unsigned int named = 0;

	for (long nr = 336; nr <= 423; nr++) {
		cr_expect_null(syscall_name(nr), "nr %ld", nr);
		cr_expect_null(syscall_entry_name(nr), "nr %ld", nr);
	}
	cr_expect_null(syscall_name(-1));
	cr_expect_null(syscall_name(NR_syscalls));
	cr_expect_null(syscall_entry_name(NR_syscalls));
	cr_expect_null(syscall_name(512));	/* x32 numbers are not x86_64's */
	cr_expect_eq(NR_syscalls, 463);
	/* 0..335 and 424..462: every number but the hole is defined */
	for (long nr = 0; nr < NR_syscalls; nr++)
		named += syscall_name(nr) != NULL;
	cr_expect_eq(named, 336 + 39);
}
