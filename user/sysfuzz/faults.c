/*
 * Fault children: each executes one instruction sequence that ring 3 must
 * not get away with and has to die by one exact signal, as on Linux. The
 * variant first blocks or ignores that signal: a synchronous fault is
 * forced through both (Linux's force_sig), so the child still dies by it.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include "sysfuzz.h"

struct fault {
	const char *name;
	int sig;
};

enum {
	F_UD2, F_INT3, F_ICEBP, F_DIV0, F_DIVOVF, F_CLI, F_HLT, F_IN, F_OUT, F_WRMSR, F_RDMSR,
	F_LGDT, F_MOVCR, F_INVLPG, F_INTN, F_INTO, F_JMP_KTEXT, F_JMP_DMAP, F_JMP_NONCANON,
	F_READ_KERNEL, F_WRITE_TEXT, F_NULL, F_OVERFLOW, F_SYSCALL_TOP, F_BADRSP_SYSCALL, F_LOAD_DS,
	F_MOVAPS, F_X87, F_SSE, F_TF, F_TF_SYSCALL, F_NT_SYSCALL, F_DF_SYSCALL, F_IRET_KCS,
	F_SIGRET_FLAGS, F_SIGRET_NONCANON, F_SIGRET_KRIP, NR_FAULTS
};

_Static_assert(F_INTN == FAULT_INTN, "faultcheck.c runs int N once per vector");
_Static_assert(NR_FAULTS <= MAX_FAULT_KINDS, "-K marks kinds in a MAX_FAULT_KINDS table");

static const struct fault faults[NR_FAULTS] = {
	[F_UD2] = { "ud2", SIGILL },
	[F_INT3] = { "int3", SIGTRAP },
	[F_ICEBP] = { "icebp", SIGTRAP },
	[F_DIV0] = { "divide by zero", SIGFPE },
	[F_DIVOVF] = { "idiv overflow", SIGFPE },
	[F_CLI] = { "cli", SIGSEGV },
	[F_HLT] = { "hlt", SIGSEGV },
	[F_IN] = { "in", SIGSEGV },
	[F_OUT] = { "out", SIGSEGV },
	[F_WRMSR] = { "wrmsr", SIGSEGV },
	[F_RDMSR] = { "rdmsr", SIGSEGV },
	[F_LGDT] = { "lgdt", SIGSEGV },
	[F_MOVCR] = { "mov cr3", SIGSEGV },
	[F_INVLPG] = { "invlpg", SIGSEGV },
	[F_INTN] = { "int N (kernel gate)", SIGSEGV },
	[F_INTO] = { "into (invalid in 64-bit)", SIGILL },
	[F_JMP_KTEXT] = { "jump to kernel text", SIGSEGV },
	[F_JMP_DMAP] = { "jump to direct map", SIGSEGV },
	[F_JMP_NONCANON] = { "jump non-canonical", SIGSEGV },
	[F_READ_KERNEL] = { "read kernel memory", SIGSEGV },
	[F_WRITE_TEXT] = { "write own text", SIGSEGV },
	[F_NULL] = { "read NULL", SIGSEGV },
	[F_OVERFLOW] = { "stack overflow", SIGSEGV },
	[F_SYSCALL_TOP] = { "syscall at top of user space", SIGSEGV },
	[F_BADRSP_SYSCALL] = { "syscall with kernel rsp", SIGSEGV },
	[F_LOAD_DS] = { "load bad ds", SIGSEGV },
	[F_MOVAPS] = { "unaligned movaps", SIGSEGV },
	[F_X87] = { "x87 unmasked zero divide", SIGFPE },
	[F_SSE] = { "sse unmasked zero divide", SIGFPE },
	[F_TF] = { "single step", SIGTRAP },
	[F_TF_SYSCALL] = { "single step over syscall", SIGTRAP },
	[F_NT_SYSCALL] = { "syscall with NT set", SIGILL },
	[F_DF_SYSCALL] = { "syscall with DF set", SIGILL },
	[F_IRET_KCS] = { "iretq to kernel cs", SIGSEGV },
	[F_SIGRET_FLAGS] = { "sigreturn forged cs/ss/rflags", SIGSEGV },
	[F_SIGRET_NONCANON] = { "sigreturn non-canonical rip", SIGSEGV },
	[F_SIGRET_KRIP] = { "sigreturn kernel rip", SIGSEGV },
};

int fault_kinds(void)
{
	return NR_FAULTS;
}

const char *fault_name(int kind)
{
	return faults[kind].name;
}

int fault_signal(int kind)
{
	return faults[kind].sig;
}

static void die(int code) __attribute__((noreturn));
static void die(int code)
{
	raw_syscall6(231, code, 0, 0, 0, 0, 0);
	__builtin_unreachable();
}

/*
 * Deep enough to pass any stack limit; volatile so the frames stay. The
 * depth bound (far past 8 MiB of frames) only tells the compiler it ends.
 */
static int recurse(long depth)
{
	volatile char pad[4096];

	pad[0] = (char)depth;
	if (depth > (1L << 40))
		return 0;
	return recurse(depth + 1) + pad[0];
}

static char *code_page(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Vectors whose gates ring 3 may not use (3 and 4 are Linux's user gates; 0x80 is a syscall there). */
static const unsigned char int_vectors[] = { 0, 1, 2, 5, 6, 8, 13, 14, 18, 32, 33, 48, 0xef, 0xf0, 0xfe, 0xff };

int fault_int_vectors(void)
{
	return sizeof(int_vectors);
}

int fault_vector_number(int i)
{
	return int_vectors[i];
}

/* -1: any vector (the fuzzer's choice); faultcheck.c goes through them all. */
int fault_vector = -1;

/* int $N through generated code: a gate ring 3 may not use gives #GP. */
static void int_n(struct rng *r)
{
	unsigned char *c = (unsigned char *)code_page();

	if (!c)
		die(97);
	c[0] = 0xcd;
	c[1] = int_vectors[fault_vector >= 0 ? fault_vector : (int)rng_below(r, sizeof(int_vectors))];
	c[2] = 0x0f;	/* ud2: should the int return, SIGILL shows it */
	c[3] = 0x0b;
	((void (*)(void))c)();
}

/*
 * Where a forged sigreturn lands. Whatever the frame asked for, Linux
 * returns with IF set, IOPL 0 and NT clear; anything else leaks kernel
 * privilege and ends the child with exit 80/81/82. Then cli must fault.
 */
__asm__(".text\n"
	"sigret_landing:\n"
	"	pushfq\n"
	"	pop %rax\n"
	"	mov $80, %edi\n"
	"	test $0x200, %eax\n"
	"	jz 1f\n"
	"	mov $81, %edi\n"
	"	test $0x3000, %eax\n"
	"	jnz 1f\n"
	"	mov $82, %edi\n"
	"	test $0x4000, %eax\n"
	"	jnz 1f\n"
	"	cli\n"
	"	mov $83, %edi\n"
	"1:	mov $231, %eax\n"
	"	syscall\n"
	"	ud2\n");
extern char sigret_landing[];

/* Linux x86_64 rt_sigframe offsets: pretcode, then ucontext (uc_mcontext at 48). */
#define SC_RSP	(48 + 15 * 8)
#define SC_RIP	(48 + 16 * 8)
#define SC_EFL	(48 + 17 * 8)
#define SC_CS	(48 + 18 * 8)
#define SC_SS	(48 + 18 * 8 + 6)
#define SC_FPSTATE	(48 + 23 * 8)

static void forged_sigreturn(int kind, struct rng *r)
{
	static const uint16_t sels[] = { 0x33, 0x2b, 0x23, 0x08, 0x10, 0x18, 0x00, 0xfff8, 0x3b, 0x43 };
	char *page = code_page(), *frame;
	uint64_t v;

	if (!page)
		die(97);
	frame = page + 256;
	memset(page, 0, PAGE);
	v = (uint64_t)(page + PAGE - 64);	/* a stack for the landing's pushfq */
	memcpy(frame + SC_RSP, &v, 8);
	v = kind == F_SIGRET_NONCANON ? 0x0000800000000000UL + rng_below(r, 4096)
	    : kind == F_SIGRET_KRIP ? 0xffffffff80100000UL : (uint64_t)sigret_landing;
	memcpy(frame + SC_RIP, &v, 8);
	v = 0x202;
	if (kind == F_SIGRET_FLAGS)	/* any flags but TF, which would make it SIGTRAP */
		v = rng_next(r) & 0xffffffffUL & ~0x100UL;
	memcpy(frame + SC_EFL, &v, 8);
	if (kind == F_SIGRET_FLAGS) {
		uint16_t cs = sels[rng_below(r, sizeof(sels) / 2)], ss = sels[rng_below(r, sizeof(sels) / 2)];

		memcpy(frame + SC_CS, &cs, 2);
		memcpy(frame + SC_SS, &ss, 2);
		if (rng_chance(r, 4)) {	/* an fpstate pointer into nowhere */
			v = 0xffff888000000000UL;
			memcpy(frame + SC_FPSTATE, &v, 8);
		}
	} else {
		uint16_t cs = 0x33, ss = 0x2b;

		memcpy(frame + SC_CS, &cs, 2);
		memcpy(frame + SC_SS, &ss, 2);
	}
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"
			 "syscall\n\t"
			 "ud2"
			 :
			 : "r"(frame + 8)
			 : "memory");
}

static void fault(int kind, struct rng *r)
{
	switch (kind) {
	case F_UD2:
		__asm__ volatile("ud2");
		break;
	case F_INT3:
		__asm__ volatile("int3");
		break;
	case F_ICEBP:
		__asm__ volatile(".byte 0xf1");
		break;
	case F_DIV0:
		__asm__ volatile("xor %%ecx, %%ecx\n\tmov $1, %%eax\n\tcltd\n\tidivl %%ecx" ::: "rax", "rcx", "rdx");
		break;
	case F_DIVOVF:
		__asm__ volatile("movabs $0x8000000000000000, %%rax\n\tcqto\n\tmov $-1, %%rcx\n\tidivq %%rcx"
				 ::: "rax", "rcx", "rdx");
		break;
	case F_CLI:
		__asm__ volatile("cli");
		break;
	case F_HLT:
		__asm__ volatile("hlt");
		break;
	case F_IN:
		__asm__ volatile("in $0x80, %%al" ::: "rax");
		break;
	case F_OUT:
		__asm__ volatile("out %%al, $0x80" ::: "rax");
		break;
	case F_WRMSR:
		__asm__ volatile("mov $0xc0000100, %%ecx\n\txor %%eax, %%eax\n\txor %%edx, %%edx\n\twrmsr"
				 ::: "rax", "rcx", "rdx");
		break;
	case F_RDMSR:
		__asm__ volatile("mov $0xc0000101, %%ecx\n\trdmsr" ::: "rax", "rcx", "rdx");
		break;
	case F_LGDT:
		__asm__ volatile("sub $16, %%rsp\n\tlgdt (%%rsp)" ::: "memory");
		break;
	case F_MOVCR:
		__asm__ volatile("mov %%cr3, %%rax" ::: "rax");
		break;
	case F_INVLPG:
		__asm__ volatile("invlpg (%%rsp)" ::: "memory");
		break;
	case F_INTN:
		int_n(r);
		break;
	case F_INTO:
		__asm__ volatile(".byte 0xce");
		break;
	case F_JMP_KTEXT:
		__asm__ volatile("jmp *%0" ::"r"(0xffffffff80100000UL));
		break;
	case F_JMP_DMAP:
		__asm__ volatile("jmp *%0" ::"r"(0xffff888000100000UL));
		break;
	case F_JMP_NONCANON:
		__asm__ volatile("jmp *%0" ::"r"(0x8000000000000000UL));
		break;
	case F_READ_KERNEL:
		(void)*(volatile long *)(0xffffffff80100000UL + rng_below(r, 1 << 20));
		break;
	case F_WRITE_TEXT:
		*(volatile char *)(void *)&fault_kinds = 0;
		break;
	case F_NULL:
		(void)*(volatile long *)(uintptr_t)rng_below(r, 4096);
		break;
	case F_OVERFLOW:
		recurse(0);
		break;
	case F_SYSCALL_TOP: {
		/* the last user page: syscall's return address is TASK_SIZE itself */
		char *p = mmap((void *)(0x00007ffffffff000UL - PAGE), PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (p == MAP_FAILED)
			die(96);
		p[PAGE - 2] = 0x0f;
		p[PAGE - 1] = 0x05;
		__asm__ volatile("mov $39, %%eax\n\tjmp *%0" ::"r"(p + PAGE - 2) : "rax");
		break;
	}
	case F_BADRSP_SYSCALL:
		__asm__ volatile("mov %0, %%rsp\n\tmov $39, %%eax\n\tsyscall\n\tpush %%rax"
				 ::"r"(0xffffffff80200000UL) : "rax", "rcx", "r11", "memory");
		break;
	case F_LOAD_DS:
		__asm__ volatile("mov $0xfff8, %%eax\n\tmov %%eax, %%ds" ::: "rax");
		break;
	case F_MOVAPS: {
		static char buf[64] __attribute__((aligned(16)));

		__asm__ volatile("movaps (%0), %%xmm0" ::"r"(buf + 1) : "xmm0");
		break;
	}
	case F_X87: {
		uint16_t cw = 0x037b;	/* zero-divide unmasked */

		__asm__ volatile("fninit\n\tfldcw %0\n\tfld1\n\tfldz\n\tfdivrp\n\tfwait" ::"m"(cw));
		break;
	}
	case F_SSE: {
		uint32_t csr = 0x1f80 & ~0x200u;	/* zero-divide unmasked */
		float one = 1, zero = 0;

		__asm__ volatile("ldmxcsr %0\n\tmovss %1, %%xmm0\n\tdivss %2, %%xmm0" ::"m"(csr), "m"(one), "m"(zero)
				 : "xmm0");
		break;
	}
	case F_TF:
		__asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq\n\tnop\n\tnop" ::: "memory");
		break;
	case F_TF_SYSCALL:
		__asm__ volatile("mov $39, %%eax\n\tpushfq\n\torq $0x100, (%%rsp)\n\tpopfq\n\tsyscall\n\tnop"
				 ::: "rax", "rcx", "r11", "memory");
		break;
	case F_NT_SYSCALL:
		__asm__ volatile("pushfq\n\torq $0x4000, (%%rsp)\n\tpopfq\n\tmov $39, %%eax\n\tsyscall\n\tud2"
				 ::: "rax", "rcx", "r11", "memory");
		break;
	case F_DF_SYSCALL: {
		/* the kernel must clear DF itself: a backwards copy would garble uname's answer */
		static char want[390], got[390];
		long r1 = raw_syscall6(63, (long)want, 0, 0, 0, 0, 0), r2;

		__asm__ volatile("std\n\tsyscall\n\tcld" : "=a"(r2) : "a"(63L), "D"(got) : "rcx", "r11", "memory");
		if (r1 || r2 || memcmp(want, got, sizeof(want)))
			die(79);
		__asm__ volatile("ud2");
		break;
	}
	case F_IRET_KCS:
		__asm__ volatile("mov %%rsp, %%rax\n\tpushq $0x2b\n\tpushq %%rax\n\tpushfq\n\tpushq $0x08\n\t"
				 "lea 1f(%%rip), %%rax\n\tpushq %%rax\n\tiretq\n1:\tud2" ::: "rax", "memory");
		break;
	case F_SIGRET_FLAGS:
	case F_SIGRET_NONCANON:
	case F_SIGRET_KRIP:
		forged_sigreturn(kind, r);
		break;
	}
}

/* The child's whole life: arrange the variant, fault, and never get past it. */
void fault_run(int kind, int variant, struct rng *r)
{
	int sig = faults[kind].sig;
	uint64_t mask = 1UL << (sig - 1);

	if (variant == 1)
		raw_syscall6(14, SIG_BLOCK, (long)&mask, 0, 8, 0, 0);
	else if (variant == 2) {
		uint64_t act[4] = { (uint64_t)SIG_IGN, 0, 0, 0 };

		raw_syscall6(13, sig, (long)act, 0, 8, 0, 0);
	}
	fault(kind, r);
	die(99);	/* the fault did not end us: the kernel let it through */
}
