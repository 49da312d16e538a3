/*
 * The system calls that have syscalls:sys_enter_<name> / sys_exit_<name>
 * events: those Spoor implements. Each line gives the entry point's name
 * (what Linux names the events after: newstat for stat, sendfile64 for
 * sendfile), the x86_64 number, and each argument's type and name as
 * Linux's SYSCALL_DEFINE declares them, as its format files print them
 * (`__user` gone). Adding a line adds both events. Pure.
 */
#include <trace/trace_syscalls_events.h>

SYSCALL_EVENT3(read, 0, "unsigned int", "fd", "char *", "buf", "size_t", "count");
SYSCALL_EVENT3(write, 1, "unsigned int", "fd", "const char *", "buf", "size_t", "count");
SYSCALL_EVENT3(open, 2, "const char *", "filename", "int", "flags", "umode_t", "mode");
SYSCALL_EVENT1(close, 3, "unsigned int", "fd");
SYSCALL_EVENT2(newstat, 4, "const char *", "filename", "struct stat *", "statbuf");
SYSCALL_EVENT2(newfstat, 5, "unsigned int", "fd", "struct stat *", "statbuf");
SYSCALL_EVENT2(newlstat, 6, "const char *", "filename", "struct stat *", "statbuf");
SYSCALL_EVENT3(poll, 7, "struct pollfd *", "ufds", "unsigned int", "nfds",
	"int", "timeout_msecs");
SYSCALL_EVENT3(lseek, 8, "unsigned int", "fd", "off_t", "offset", "unsigned int", "whence");
SYSCALL_EVENT6(mmap, 9, "unsigned long", "addr", "unsigned long", "len",
	"unsigned long", "prot", "unsigned long", "flags", "unsigned long", "fd",
	"unsigned long", "off");
SYSCALL_EVENT3(mprotect, 10, "unsigned long", "start", "size_t", "len",
	"unsigned long", "prot");
SYSCALL_EVENT2(munmap, 11, "unsigned long", "addr", "size_t", "len");
SYSCALL_EVENT1(brk, 12, "unsigned long", "brk");
SYSCALL_EVENT4(rt_sigaction, 13, "int", "sig", "const struct sigaction *", "act",
	"struct sigaction *", "oact", "size_t", "sigsetsize");
SYSCALL_EVENT4(rt_sigprocmask, 14, "int", "how", "sigset_t *", "nset", "sigset_t *", "oset",
	"size_t", "sigsetsize");
SYSCALL_EVENT0(rt_sigreturn, 15);
SYSCALL_EVENT3(ioctl, 16, "unsigned int", "fd", "unsigned int", "cmd", "unsigned long", "arg");
SYSCALL_EVENT4(pread64, 17, "unsigned int", "fd", "char *", "buf", "size_t", "count",
	"loff_t", "pos");
SYSCALL_EVENT4(pwrite64, 18, "unsigned int", "fd", "const char *", "buf", "size_t", "count",
	"loff_t", "pos");
SYSCALL_EVENT3(readv, 19, "unsigned long", "fd", "const struct iovec *", "vec",
	"unsigned long", "vlen");
SYSCALL_EVENT3(writev, 20, "unsigned long", "fd", "const struct iovec *", "vec",
	"unsigned long", "vlen");
SYSCALL_EVENT2(access, 21, "const char *", "filename", "int", "mode");
SYSCALL_EVENT1(pipe, 22, "int *", "fildes");
SYSCALL_EVENT0(sched_yield, 24);
SYSCALL_EVENT5(mremap, 25, "unsigned long", "addr", "unsigned long", "old_len",
	"unsigned long", "new_len", "unsigned long", "flags", "unsigned long", "new_addr");
SYSCALL_EVENT3(madvise, 28, "unsigned long", "start", "size_t", "len_in", "int", "behavior");
SYSCALL_EVENT1(dup, 32, "unsigned int", "fildes");
SYSCALL_EVENT2(dup2, 33, "unsigned int", "oldfd", "unsigned int", "newfd");
SYSCALL_EVENT0(pause, 34);
SYSCALL_EVENT2(nanosleep, 35, "struct __kernel_timespec *", "rqtp",
	"struct __kernel_timespec *", "rmtp");
SYSCALL_EVENT2(getitimer, 36, "int", "which", "struct __kernel_old_itimerval *", "value");
SYSCALL_EVENT1(alarm, 37, "unsigned int", "seconds");
SYSCALL_EVENT3(setitimer, 38, "int", "which", "struct __kernel_old_itimerval *", "value",
	"struct __kernel_old_itimerval *", "ovalue");
SYSCALL_EVENT0(getpid, 39);
SYSCALL_EVENT4(sendfile64, 40, "int", "out_fd", "int", "in_fd", "loff_t *", "offset",
	"size_t", "count");
SYSCALL_EVENT3(socket, 41, "int", "family", "int", "type", "int", "protocol");
SYSCALL_EVENT3(connect, 42, "int", "fd", "struct sockaddr *", "uservaddr", "int", "addrlen");
SYSCALL_EVENT3(accept, 43, "int", "fd", "struct sockaddr *", "upeer_sockaddr",
	"int *", "upeer_addrlen");
SYSCALL_EVENT6(sendto, 44, "int", "fd", "void *", "buff", "size_t", "len",
	"unsigned int", "flags", "struct sockaddr *", "addr", "int", "addr_len");
SYSCALL_EVENT6(recvfrom, 45, "int", "fd", "void *", "ubuf", "size_t", "size",
	"unsigned int", "flags", "struct sockaddr *", "addr", "int *", "addr_len");
SYSCALL_EVENT2(shutdown, 48, "int", "fd", "int", "how");
SYSCALL_EVENT3(bind, 49, "int", "fd", "struct sockaddr *", "umyaddr", "int", "addrlen");
SYSCALL_EVENT2(listen, 50, "int", "fd", "int", "backlog");
SYSCALL_EVENT3(getsockname, 51, "int", "fd", "struct sockaddr *", "usockaddr",
	"int *", "usockaddr_len");
SYSCALL_EVENT3(getpeername, 52, "int", "fd", "struct sockaddr *", "usockaddr",
	"int *", "usockaddr_len");
SYSCALL_EVENT5(setsockopt, 54, "int", "fd", "int", "level", "int", "optname",
	"char *", "optval", "int", "optlen");
SYSCALL_EVENT5(clone, 56, "unsigned long", "clone_flags", "unsigned long", "newsp",
	"int *", "parent_tidptr", "int *", "child_tidptr", "unsigned long", "tls");
SYSCALL_EVENT0(fork, 57);
SYSCALL_EVENT0(vfork, 58);
SYSCALL_EVENT3(execve, 59, "const char *", "filename", "const char *const *", "argv",
	"const char *const *", "envp");
SYSCALL_EVENT1(exit, 60, "int", "error_code");
SYSCALL_EVENT4(wait4, 61, "pid_t", "upid", "int *", "stat_addr", "int", "options",
	"struct rusage *", "ru");
SYSCALL_EVENT2(kill, 62, "pid_t", "pid", "int", "sig");
SYSCALL_EVENT1(newuname, 63, "struct new_utsname *", "name");
SYSCALL_EVENT3(fcntl, 72, "unsigned int", "fd", "unsigned int", "cmd", "unsigned long", "arg");
SYSCALL_EVENT1(fsync, 74, "unsigned int", "fd");
SYSCALL_EVENT1(fdatasync, 75, "unsigned int", "fd");
SYSCALL_EVENT2(truncate, 76, "const char *", "path", "long", "length");
SYSCALL_EVENT2(ftruncate, 77, "unsigned int", "fd", "off_t", "length");
SYSCALL_EVENT2(getcwd, 79, "char *", "buf", "unsigned long", "size");
SYSCALL_EVENT1(chdir, 80, "const char *", "filename");
SYSCALL_EVENT1(fchdir, 81, "unsigned int", "fd");
SYSCALL_EVENT2(rename, 82, "const char *", "oldname", "const char *", "newname");
SYSCALL_EVENT2(mkdir, 83, "const char *", "pathname", "umode_t", "mode");
SYSCALL_EVENT1(rmdir, 84, "const char *", "pathname");
SYSCALL_EVENT2(link, 86, "const char *", "oldname", "const char *", "newname");
SYSCALL_EVENT1(unlink, 87, "const char *", "pathname");
SYSCALL_EVENT2(symlink, 88, "const char *", "oldname", "const char *", "newname");
SYSCALL_EVENT3(readlink, 89, "const char *", "path", "char *", "buf", "int", "bufsiz");
SYSCALL_EVENT2(chmod, 90, "const char *", "filename", "umode_t", "mode");
SYSCALL_EVENT2(fchmod, 91, "unsigned int", "fd", "umode_t", "mode");
SYSCALL_EVENT1(umask, 95, "int", "mask");
SYSCALL_EVENT2(gettimeofday, 96, "struct __kernel_old_timeval *", "tv",
	"struct timezone *", "tz");
SYSCALL_EVENT2(getrlimit, 97, "unsigned int", "resource", "struct rlimit *", "rlim");
SYSCALL_EVENT2(getrusage, 98, "int", "who", "struct rusage *", "ru");
SYSCALL_EVENT1(sysinfo, 99, "struct sysinfo *", "info");
SYSCALL_EVENT1(times, 100, "struct tms *", "tbuf");
SYSCALL_EVENT0(getuid, 102);
SYSCALL_EVENT0(getgid, 104);
SYSCALL_EVENT0(geteuid, 107);
SYSCALL_EVENT0(getegid, 108);
SYSCALL_EVENT2(setpgid, 109, "pid_t", "pid", "pid_t", "pgid");
SYSCALL_EVENT0(getppid, 110);
SYSCALL_EVENT0(getpgrp, 111);
SYSCALL_EVENT0(setsid, 112);
SYSCALL_EVENT1(getpgid, 121, "pid_t", "pid");
SYSCALL_EVENT2(sigaltstack, 131, "const stack_t *", "uss", "stack_t *", "uoss");
SYSCALL_EVENT5(prctl, 157, "int", "option", "unsigned long", "arg2", "unsigned long", "arg3",
	"unsigned long", "arg4", "unsigned long", "arg5");
SYSCALL_EVENT2(arch_prctl, 158, "int", "option", "unsigned long", "arg2");
SYSCALL_EVENT3(init_module, 175, "void *", "umod", "unsigned long", "len", "const char *", "uargs");
SYSCALL_EVENT2(delete_module, 176, "const char *", "name_user", "unsigned int", "flags");
SYSCALL_EVENT0(gettid, 186);
SYSCALL_EVENT2(tkill, 200, "pid_t", "pid", "int", "sig");
SYSCALL_EVENT1(time, 201, "__kernel_old_time_t *", "tloc");
SYSCALL_EVENT6(futex, 202, "u32 *", "uaddr", "int", "op", "u32", "val",
	"const struct __kernel_timespec *", "utime", "u32 *", "uaddr2", "u32", "val3");
SYSCALL_EVENT3(sched_setaffinity, 203, "pid_t", "pid", "unsigned int", "len",
	"unsigned long *", "user_mask_ptr");
SYSCALL_EVENT3(sched_getaffinity, 204, "pid_t", "pid", "unsigned int", "len",
	"unsigned long *", "user_mask_ptr");
SYSCALL_EVENT3(getdents64, 217, "unsigned int", "fd", "struct linux_dirent64 *", "dirent",
	"unsigned int", "count");
SYSCALL_EVENT1(set_tid_address, 218, "int *", "tidptr");
SYSCALL_EVENT2(clock_gettime, 228, "const clockid_t", "which_clock",
	"struct __kernel_timespec *", "tp");
SYSCALL_EVENT2(clock_getres, 229, "const clockid_t", "which_clock",
	"struct __kernel_timespec *", "tp");
SYSCALL_EVENT4(clock_nanosleep, 230, "const clockid_t", "which_clock", "int", "flags",
	"const struct __kernel_timespec *", "rqtp", "struct __kernel_timespec *", "rmtp");
SYSCALL_EVENT1(exit_group, 231, "int", "error_code");
SYSCALL_EVENT3(tgkill, 234, "pid_t", "tgid", "pid_t", "pid", "int", "sig");
SYSCALL_EVENT5(waitid, 247, "int", "which", "pid_t", "upid", "struct siginfo *", "infop",
	"int", "options", "struct rusage *", "ru");
SYSCALL_EVENT4(openat, 257, "int", "dfd", "const char *", "filename", "int", "flags",
	"umode_t", "mode");
SYSCALL_EVENT3(mkdirat, 258, "int", "dfd", "const char *", "pathname", "umode_t", "mode");
SYSCALL_EVENT4(newfstatat, 262, "int", "dfd", "const char *", "filename",
	"struct stat *", "statbuf", "int", "flag");
SYSCALL_EVENT3(unlinkat, 263, "int", "dfd", "const char *", "pathname", "int", "flag");
SYSCALL_EVENT4(renameat, 264, "int", "olddfd", "const char *", "oldname", "int", "newdfd",
	"const char *", "newname");
SYSCALL_EVENT5(linkat, 265, "int", "olddfd", "const char *", "oldname", "int", "newdfd",
	"const char *", "newname", "int", "flags");
SYSCALL_EVENT3(symlinkat, 266, "const char *", "oldname", "int", "newdfd",
	"const char *", "newname");
SYSCALL_EVENT4(readlinkat, 267, "int", "dfd", "const char *", "pathname", "char *", "buf",
	"int", "bufsiz");
SYSCALL_EVENT3(fchmodat, 268, "int", "dfd", "const char *", "filename", "umode_t", "mode");
SYSCALL_EVENT3(faccessat, 269, "int", "dfd", "const char *", "filename", "int", "mode");
SYSCALL_EVENT5(ppoll, 271, "struct pollfd *", "ufds", "unsigned int", "nfds",
	"struct __kernel_timespec *", "tsp", "const sigset_t *", "sigmask",
	"size_t", "sigsetsize");
SYSCALL_EVENT2(set_robust_list, 273, "struct robust_list_head *", "head", "size_t", "len");
SYSCALL_EVENT3(get_robust_list, 274, "int", "pid", "struct robust_list_head * *", "head_ptr",
	"size_t *", "len_ptr");
SYSCALL_EVENT4(utimensat, 280, "int", "dfd", "const char *", "filename",
	"struct __kernel_timespec *", "utimes", "int", "flags");
SYSCALL_EVENT3(dup3, 292, "unsigned int", "oldfd", "unsigned int", "newfd", "int", "flags");
SYSCALL_EVENT4(accept4, 288, "int", "fd", "struct sockaddr *", "upeer_sockaddr",
	"int *", "upeer_addrlen", "int", "flags");
SYSCALL_EVENT2(pipe2, 293, "int *", "fildes", "int", "flags");
SYSCALL_EVENT4(prlimit64, 302, "pid_t", "pid", "unsigned int", "resource",
	"const struct rlimit64 *", "new_rlim", "struct rlimit64 *", "old_rlim");
SYSCALL_EVENT3(getcpu, 309, "unsigned *", "cpup", "unsigned *", "nodep",
	"struct getcpu_cache *", "unused");
SYSCALL_EVENT3(finit_module, 313, "int", "fd", "const char *", "uargs", "int", "flags");
SYSCALL_EVENT5(renameat2, 316, "int", "olddfd", "const char *", "oldname", "int", "newdfd",
	"const char *", "newname", "unsigned int", "flags");
SYSCALL_EVENT3(getrandom, 318, "char *", "ubuf", "size_t", "len", "unsigned int", "flags");
SYSCALL_EVENT5(statx, 332, "int", "dfd", "const char *", "filename", "unsigned", "flags",
	"unsigned int", "mask", "struct statx *", "buffer");
SYSCALL_EVENT4(rseq, 334, "struct rseq *", "rseq", "u32", "rseq_len", "int", "flags",
	"u32", "sig");
SYSCALL_EVENT2(clone3, 435, "struct clone_args *", "uargs", "size_t", "size");
SYSCALL_EVENT4(faccessat2, 439, "int", "dfd", "const char *", "filename", "int", "mode",
	"int", "flags");
