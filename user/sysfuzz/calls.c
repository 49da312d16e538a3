/*
 * Per-number knowledge: what each argument of a Linux x86_64 system call is
 * (so it gets hostile values of the right shape) and where the call may
 * run (fuzz_one.c holds the rewrites that keep a worker alive: a worker
 * thread must never block for good, lose its code or stack, end itself or
 * signal anyone). Calls that change files are listed even where Spoor lacks
 * them, so they only ever touch /tmp/sfz. Numbers not listed get six A_ANY
 * arguments and run everywhere.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sysfuzz.h"

#define C(nr, nm, cls, w, ...) [nr] = { cls, w, { __VA_ARGS__ }, #nm }
#define ANY CL_ANY
#define CHILD CL_CHILD

static const struct call_desc table[NR_MAX + 1] = {
	C(0, read, ANY, 8, A_FD, A_BUF, A_LEN),
	C(1, write, ANY, 8, A_FD, A_BUF, A_LEN),
	C(2, open, ANY, 8, A_PATH, A_FLAGS, A_FLAGS),
	C(3, close, ANY, 2, A_FD),
	C(4, stat, ANY, 8, A_PATH, A_BUF),
	C(5, fstat, ANY, 8, A_FD, A_BUF),
	C(6, lstat, ANY, 8, A_PATH, A_BUF),
	C(7, poll, ANY, 8, A_BUF, A_LEN, A_SMALL),
	C(8, lseek, ANY, 8, A_FD, A_OFF, A_SMALL),
	C(9, mmap, ANY, 8, A_MADDR, A_MLEN, A_SMALL, A_FLAGS, A_FD, A_OFF),
	C(10, mprotect, ANY, 8, A_MADDR, A_MLEN, A_SMALL),
	C(11, munmap, ANY, 8, A_MADDR, A_MLEN),
	C(12, brk, ANY, 4, A_MADDR),
	C(13, rt_sigaction, CHILD, 8, A_SIG, A_BUF, A_BUF, A_SMALL),
	C(14, rt_sigprocmask, ANY, 8, A_SMALL, A_BUF, A_BUF, A_SMALL),
	C(15, rt_sigreturn, CHILD, 2),
	C(16, ioctl, ANY, 8, A_FD, A_FLAGS, A_BUF),
	C(17, pread64, ANY, 8, A_FD, A_BUF, A_LEN, A_OFF),
	C(18, pwrite64, ANY, 8, A_FD, A_BUF, A_LEN, A_OFF),
	C(19, readv, ANY, 8, A_FD, A_IOV, A_SMALL),
	C(20, writev, ANY, 8, A_FD, A_IOV, A_SMALL),
	C(21, access, ANY, 8, A_PATH, A_SMALL),
	C(22, pipe, ANY, 4, A_BUF),
	C(24, sched_yield, ANY, 2),
	C(25, mremap, ANY, 8, A_MADDR, A_MLEN, A_MLEN, A_SMALL, A_MADDR),
	C(28, madvise, ANY, 8, A_MADDR, A_MLEN, A_SMALL),
	C(32, dup, ANY, 4, A_FD),
	C(33, dup2, ANY, 4, A_FD, A_FD),
	C(34, pause, CHILD, 1),
	C(35, nanosleep, ANY, 4, A_TS, A_BUF),
	C(36, getitimer, ANY, 4, A_SMALL, A_BUF),
	C(37, alarm, CHILD, 2, A_SMALL),
	C(38, setitimer, CHILD, 4, A_SMALL, A_BUF, A_BUF),
	C(39, getpid, ANY, 2),
	C(40, sendfile, ANY, 8, A_FD, A_FD, A_BUF, A_LEN),
	C(56, clone, CHILD, 6, A_FLAGS, A_BUF, A_BUF, A_BUF, A_BUF),
	C(57, fork, CHILD, 2),
	C(58, vfork, CHILD, 2),
	C(59, execve, CHILD, 1, A_PATH, A_BUF, A_BUF),
	C(60, exit, CHILD, 1, A_ANY),
	C(61, wait4, CHILD, 4, A_PID, A_BUF, A_FLAGS, A_BUF),
	C(62, kill, CHILD, 4, A_PID, A_SIG),
	C(63, uname, ANY, 4, A_BUF),
	C(72, fcntl, ANY, 8, A_FD, A_SMALL, A_ANY),
	C(76, truncate, ANY, 2, A_TPATH, A_OFF),
	C(77, ftruncate, ANY, 2, A_TFD, A_OFF),
	C(79, getcwd, ANY, 4, A_BUF, A_LEN),
	C(80, chdir, ANY, 4, A_PATH),
	C(82, rename, ANY, 8, A_TPATH, A_TPATH),
	C(83, mkdir, ANY, 8, A_TPATH, A_FLAGS),
	C(84, rmdir, ANY, 8, A_TPATH),
	C(85, creat, ANY, 2, A_TPATH, A_FLAGS),
	C(86, link, ANY, 2, A_TPATH, A_TPATH),
	C(87, unlink, ANY, 8, A_TPATH),
	C(88, symlink, ANY, 2, A_TPATH, A_TPATH),
	C(89, readlink, ANY, 8, A_PATH, A_BUF, A_LEN),
	C(90, chmod, ANY, 2, A_TPATH, A_FLAGS),
	C(91, fchmod, ANY, 2, A_TFD, A_FLAGS),
	C(92, chown, ANY, 2, A_TPATH, A_ANY, A_ANY),
	C(93, fchown, ANY, 2, A_TFD, A_ANY, A_ANY),
	C(94, lchown, ANY, 2, A_TPATH, A_ANY, A_ANY),
	C(95, umask, ANY, 2, A_FLAGS),
	C(96, gettimeofday, ANY, 4, A_BUF, A_BUF),
	C(97, getrlimit, ANY, 4, A_SMALL, A_BUF),
	C(99, sysinfo, ANY, 4, A_BUF),
	C(101, ptrace, CHILD, 1, A_SMALL, A_PID, A_BUF, A_BUF),
	C(102, getuid, ANY, 1),
	C(104, getgid, ANY, 1),
	C(107, geteuid, ANY, 1),
	C(108, getegid, ANY, 1),
	C(109, setpgid, CHILD, 4, A_PID, A_PID),
	C(110, getppid, ANY, 1),
	C(111, getpgrp, ANY, 1),
	C(112, setsid, CHILD, 2),
	C(121, getpgid, ANY, 4, A_PID),
	C(127, rt_sigpending, ANY, 4, A_BUF, A_SMALL),
	C(129, rt_sigqueueinfo, CHILD, 1, A_PID, A_SIG, A_BUF),
	C(130, rt_sigsuspend, CHILD, 2, A_BUF, A_SMALL),
	C(131, sigaltstack, ANY, 8, A_BUF, A_BUF),
	C(132, utime, ANY, 1, A_TPATH, A_BUF),
	C(133, mknod, ANY, 2, A_TPATH, A_FLAGS, A_ANY),
	C(140, getpriority, ANY, 1, A_SMALL, A_PID),
	C(141, setpriority, ANY, 1, A_SMALL, A_PID, A_SMALL),
	C(157, prctl, ANY, 8, A_SMALL, A_ANY, A_ANY, A_ANY, A_ANY),
	C(158, arch_prctl, ANY, 8, A_FLAGS, A_ANY),
	C(186, gettid, ANY, 1),
	C(188, setxattr, ANY, 1, A_TPATH, A_BUF, A_BUF, A_LEN, A_FLAGS),
	C(189, lsetxattr, ANY, 1, A_TPATH, A_BUF, A_BUF, A_LEN, A_FLAGS),
	C(190, fsetxattr, ANY, 1, A_TFD, A_BUF, A_BUF, A_LEN, A_FLAGS),
	C(197, removexattr, ANY, 1, A_TPATH, A_BUF),
	C(198, lremovexattr, ANY, 1, A_TPATH, A_BUF),
	C(199, fremovexattr, ANY, 1, A_TFD, A_BUF),
	C(200, tkill, CHILD, 4, A_PID, A_SIG),
	C(202, futex, ANY, 8, A_BUF, A_SMALL, A_ANY, A_TS, A_BUF, A_FLAGS),
	C(203, sched_setaffinity, ANY, 4, A_PID, A_LEN, A_BUF),
	C(204, sched_getaffinity, ANY, 4, A_PID, A_LEN, A_BUF),
	C(217, getdents64, ANY, 8, A_FD, A_BUF, A_LEN),
	C(218, set_tid_address, CHILD, 4, A_BUF),
	C(228, clock_gettime, ANY, 4, A_SMALL, A_BUF),
	C(229, clock_getres, ANY, 4, A_SMALL, A_BUF),
	C(230, clock_nanosleep, ANY, 4, A_SMALL, A_SMALL, A_TS, A_BUF),
	C(231, exit_group, CHILD, 1, A_ANY),
	C(234, tgkill, CHILD, 4, A_PID, A_PID, A_SIG),
	C(235, utimes, ANY, 1, A_TPATH, A_BUF),
	C(247, waitid, CHILD, 4, A_SMALL, A_PID, A_BUF, A_FLAGS, A_BUF),
	C(257, openat, ANY, 8, A_FD, A_PATH, A_FLAGS, A_FLAGS),
	C(258, mkdirat, ANY, 8, A_FD, A_TPATH, A_FLAGS),
	C(259, mknodat, ANY, 2, A_TFD, A_TPATH, A_FLAGS, A_ANY),
	C(260, fchownat, ANY, 2, A_TFD, A_TPATH, A_ANY, A_ANY, A_FLAGS),
	C(261, futimesat, ANY, 1, A_TFD, A_TPATH, A_BUF),
	C(262, newfstatat, ANY, 8, A_FD, A_PATH, A_BUF, A_FLAGS),
	C(263, unlinkat, ANY, 8, A_FD, A_TPATH, A_FLAGS),
	C(264, renameat, ANY, 2, A_TFD, A_TPATH, A_TFD, A_TPATH),
	C(265, linkat, ANY, 2, A_TFD, A_TPATH, A_TFD, A_TPATH, A_FLAGS),
	C(266, symlinkat, ANY, 2, A_TPATH, A_TFD, A_TPATH),
	C(268, fchmodat, ANY, 2, A_TFD, A_TPATH, A_FLAGS),
	C(269, faccessat, ANY, 8, A_FD, A_PATH, A_SMALL),
	C(271, ppoll, ANY, 8, A_BUF, A_LEN, A_TS, A_BUF, A_SMALL),
	C(273, set_robust_list, CHILD, 4, A_BUF, A_LEN),
	C(274, get_robust_list, ANY, 4, A_PID, A_BUF, A_BUF),
	C(280, utimensat, ANY, 1, A_TFD, A_TPATH, A_BUF, A_FLAGS),
	C(285, fallocate, ANY, 2, A_TFD, A_FLAGS, A_OFF, A_LEN),
	C(292, dup3, ANY, 4, A_FD, A_FD, A_FLAGS),
	C(293, pipe2, ANY, 4, A_BUF, A_FLAGS),
	C(297, rt_tgsigqueueinfo, CHILD, 1, A_PID, A_PID, A_SIG, A_BUF),
	C(302, prlimit64, ANY, 8, A_PID, A_SMALL, A_BUF, A_BUF),
	C(309, getcpu, ANY, 4, A_BUF, A_BUF, A_BUF),
	C(310, process_vm_readv, CHILD, 1, A_PID, A_IOV, A_SMALL, A_IOV, A_SMALL, A_FLAGS),
	C(311, process_vm_writev, CHILD, 1, A_PID, A_IOV, A_SMALL, A_IOV, A_SMALL, A_FLAGS),
	C(316, renameat2, ANY, 2, A_TFD, A_TPATH, A_TFD, A_TPATH, A_FLAGS),
	C(318, getrandom, ANY, 8, A_BUF, A_LEN, A_FLAGS),
	C(332, statx, ANY, 8, A_FD, A_PATH, A_FLAGS, A_FLAGS, A_BUF),
	C(424, pidfd_send_signal, CHILD, 1, A_FD, A_SIG, A_BUF, A_FLAGS),
	C(434, pidfd_open, ANY, 1, A_PID, A_FLAGS),
	C(435, clone3, CHILD, 2, A_BUF, A_LEN),
	C(437, openat2, ANY, 2, A_FD, A_PATH, A_BUF, A_LEN),
	C(439, faccessat2, ANY, 8, A_FD, A_PATH, A_SMALL, A_FLAGS),
	C(452, fchmodat2, ANY, 2, A_TFD, A_TPATH, A_FLAGS, A_FLAGS),
};

/*
 * Not implemented by Spoor today, but what Linux does with them could end,
 * block, re-privilege or unmap the caller (uretprobe/uprobe outside their
 * trampoline are SIGILL, rseq and userfaultfd can fault or block its
 * memory, timers signal it, landlock walls it in), or touch other
 * processes, mounts and the machine:
 * children only (or never), so the fuzzer stays safe as the kernel grows.
 */
static const unsigned short child_only[] = {
	23, 29, 30, 31, 42, 43, 45, 47, 65, 67, 69, 70, 73, 103, 105, 106, 113, 114, 117, 119,
	122, 123, 126, 128, 135, 142, 144, 151, 153, 154, 155, 160, 161, 164, 165, 166, 170,
	171, 172, 173, 179, 208, 216, 220, 222, 223, 227, 232, 243, 244, 251, 256, 270, 272,
	279, 281, 288, 298, 299, 304, 305, 308, 314, 317, 321, 322, 323, 329, 334, 335, 336,
	426, 428, 429, 430, 431, 432, 433, 436, 438, 440, 441, 442, 443, 446, 448, 449, 453,
	454, 455, 456, 460,
};
static const unsigned short never[] = { 159, 163, 167, 168, 169, 175, 176, 246, 313, 320 };

static struct call_desc extra[NR_MAX + 1];
static const char unknown[] = "?";

const struct call_desc *call_desc(unsigned nr)
{
	if (table[nr].name)
		return &table[nr];
	if (!extra[nr].name) {
		struct call_desc d = { CL_ANY, 1, { 0 }, unknown };

		for (size_t i = 0; i < sizeof(child_only) / sizeof(child_only[0]); i++)
			if (child_only[i] == nr)
				d.cls = CL_CHILD;
		for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
			if (never[i] == nr)
				d.cls = CL_NEVER;
		extra[nr] = d;
	}
	return &extra[nr];
}

/*
 * Cumulative weights, one table for worker threads and one for children
 * (children favour the calls only they may make). Built before any thread
 * or child exists, so no locking.
 */
static unsigned cum[2][NR_MAX + 1], total[2];

void calls_init(void)
{
	for (int child = 0; child < 2; child++) {
		unsigned sum = 0;

		for (unsigned nr = 0; nr <= NR_MAX; nr++) {
			const struct call_desc *d = call_desc(nr);
			unsigned w = d->weight;

			if (d->cls == CL_NEVER || opt.skip[nr] || (d->cls == CL_CHILD && !child))
				w = 0;
			else if (d->cls == CL_CHILD)
				w *= 8;
			sum += w;
			cum[child][nr] = sum;
		}
		total[child] = sum;
	}
}

unsigned pick_nr(struct fuzzer *f)
{
	unsigned *c = cum[f->child], x = (unsigned)rng_below(&f->rng, total[f->child]);
	unsigned lo = 0, hi = NR_MAX;

	if (!total[f->child])	/* -o left nothing for this kind of fuzzer */
		return NR_NONE;
	while (lo < hi) {	/* first nr whose cumulative weight exceeds x */
		unsigned mid = (lo + hi) / 2;

		if (c[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

long raw_syscall6(long nr, long a, long b, long c, long d, long e, long g)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = g;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * fork, vfork, clone, clone3: the new task may share our memory and stack,
 * so it must not return into C. It leaves at once with exit(0), touching
 * neither stack nor memory; a thread ends alone, a process is reaped later.
 */
long raw_fork_syscall(long nr, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $60, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall\n\t"
			 "ud2\n"
			 "1:"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}
