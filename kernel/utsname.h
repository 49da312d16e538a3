/*
 * What Spoor calls itself (uname, /proc/version). The release is the
 * Linux version whose tracing formats and ABIs Spoor follows, so scripts
 * that compare kernel versions see the interface they get; the system
 * name is Spoor's own, so scripts can tell it from Linux.
 */
#ifndef KERNEL_UTSNAME_H
#define KERNEL_UTSNAME_H

#define UTS_SYSNAME	"Spoor"
#define UTS_NODENAME	"spoor"
#define UTS_RELEASE	"6.18.0-spoor"
#define UTS_VERSION	"#1 SMP"
#define UTS_MACHINE	"x86_64"

/* /proc/version's format: sysname, release, version (kernel/version.c). */
extern const char linux_proc_banner[];

#endif
