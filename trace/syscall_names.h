/*
 * Linux's x86_64 system-call numbers (arch/x86/entry/syscalls/syscall_64.tbl
 * as of Linux 6.12), the ABI ring 3 calls Spoor with. Tracing uses them to
 * name numbers: hist's `.syscall` modifier, the syscalls:sys_enter_NAME and
 * sys_exit_NAME events. Pure.
 */
#ifndef TRACE_SYSCALL_NAMES_H
#define TRACE_SYSCALL_NAMES_H

/* One past the highest number Linux 6.12 defines (mseal, 462). */
#define NR_syscalls	463

/*
 * The table's name for nr ("read", "stat", "umount2"); NULL for a number
 * the table leaves out (336..423) or one out of range.
 */
const char *syscall_name(long nr);

/*
 * The name Linux's tracing knows nr by: its entry point, the function
 * SYSCALL_DEFINE made ("sys_read", but "sys_newstat" for stat and
 * "sys_umount" for umount2). hist's `.syscall` prints it and the
 * per-syscall events are named after it. NULL when the number has no
 * entry point (a reserved slot such as 134 uselib) or is not defined.
 */
const char *syscall_entry_name(long nr);

#endif
