/*
 * The initial process stack: read back as a program's _start would
 * (argc, argv, envp, auxv at the stack pointer, every pointer a user
 * address translated here to the buffer), alignment, and E2BIG.
 */
/* uses: kernel/exec/exec_stack.c */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <kernel/errno.h>
#include <kernel/exec/elf.h>

#define TOP	0x7ffffffff000UL

static const u8 rnd[16] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0xff };
static char *const argv3[] = { "/bin/true", "-x", "" };
static char *const envp2[] = { "PATH=/bin", "HOME=/" };
static const u64 auxv3[][2] = { { AT_PHDR, 0x400040 }, { AT_PHENT, 56 }, { AT_PAGESZ, 4096 } };

static struct exec_stack_args args(void)
{
	struct exec_stack_args a = {
		.argc = 3, .argv = argv3, .envc = 2, .envp = envp2,
		.execfn = "/bin/true", .platform = "x86_64", .random16 = rnd,
		.auxv = auxv3, .nr_auxv = 3,
	};
	return a;
}

/* A built stack as user space sees it: buf holds [top - size, top). */
struct ustack {
	const u8 *buf;
	size_t size;
	unsigned long top;
	unsigned long sp;
};

/* The buffer byte at user address addr, which must lie in [sp, top). */
static const void *at(const struct ustack *s, unsigned long addr, size_t len)
{
	cr_assert_geq(addr, s->sp, "address %#lx below sp %#lx", addr, s->sp);
	cr_assert_leq(addr + len, s->top, "address %#lx past the top", addr);
	return s->buf + (addr - (s->top - s->size));
}

static u64 word(const struct ustack *s, unsigned long addr)
{
	u64 v;

	memcpy(&v, at(s, addr, 8), 8);
	return v;
}

static const char *str(const struct ustack *s, unsigned long addr)
{
	const char *p = at(s, addr, 1);

	cr_assert_not_null(memchr(p, 0, s->top - addr), "string at %#lx unterminated", addr);
	return p;
}

/* The auxv value for type, checking the vector ends with AT_NULL; 0 if absent. */
static u64 auxval(const struct ustack *s, unsigned long auxv, u64 type)
{
	for (;; auxv += 16) {
		u64 t = word(s, auxv);

		if (t == type)
			return word(s, auxv + 8);
		if (t == AT_NULL)
			return 0;
	}
}

/*
 * Reads argc, argv and envp back and checks them against a; returns the
 * user address of auxv.
 */
static unsigned long check_vectors(const struct ustack *s, const struct exec_stack_args *a)
{
	unsigned long p = s->sp;
	int i;

	cr_assert_eq(s->sp % 16, 0, "sp %#lx not 16-byte aligned", s->sp);
	cr_assert_eq(word(s, p), (u64)a->argc);
	p += 8;
	for (i = 0; i < a->argc; i++, p += 8)
		cr_assert_str_eq(str(s, word(s, p)), a->argv[i]);
	cr_assert_eq(word(s, p), 0);
	p += 8;
	for (i = 0; i < a->envc; i++, p += 8)
		cr_assert_str_eq(str(s, word(s, p)), a->envp[i]);
	cr_assert_eq(word(s, p), 0);
	return p + 8;
}

static struct ustack build(void *buf, size_t size, unsigned long top, const struct exec_stack_args *a)
{
	struct ustack s = { buf, size, top, 0 };
	long sp = exec_stack_build(buf, size, top, a);

	cr_assert_gt(sp, 0, "exec_stack_build: %ld", sp);
	s.sp = sp;
	cr_assert_geq(s.sp, top - size);
	cr_assert_lt(s.sp, top);
	return s;
}

Test(exec_stack, reads_back_like_a_program)
{
	static u8 buf[4096] __aligned(16);
	struct exec_stack_args a = args();
	struct ustack s;
	unsigned long auxv, p;
	int i;

	memset(buf, 0xaa, sizeof(buf));
	s = build(buf, sizeof(buf), TOP, &a);
	auxv = check_vectors(&s, &a);

	/* The caller's pairs first, in order, then ours, then AT_NULL. */
	for (i = 0; i < 3; i++) {
		cr_assert_eq(word(&s, auxv + 16 * i), auxv3[i][0]);
		cr_assert_eq(word(&s, auxv + 16 * i + 8), auxv3[i][1]);
	}
	p = auxv + 16 * 3;
	cr_assert_eq(word(&s, p), AT_RANDOM);
	cr_assert_eq(word(&s, p + 16), AT_EXECFN);
	cr_assert_eq(word(&s, p + 32), AT_PLATFORM);
	cr_assert_eq(word(&s, p + 48), AT_NULL);
	cr_assert_eq(word(&s, p + 56), 0);

	cr_assert_eq(memcmp(at(&s, auxval(&s, auxv, AT_RANDOM), 16), rnd, 16), 0);
	cr_assert_str_eq(str(&s, auxval(&s, auxv, AT_EXECFN)), "/bin/true");
	cr_assert_str_eq(str(&s, auxval(&s, auxv, AT_PLATFORM)), "x86_64");
	cr_assert_eq(auxval(&s, auxv, AT_PAGESZ), 4096);

	/* Strings sit above the vectors; the top word is zero; no stale bytes between. */
	cr_assert_gt(auxval(&s, auxv, AT_RANDOM), p + 56);
	cr_assert_eq(word(&s, TOP - 8), 0);
	for (p += 64; p < auxval(&s, auxv, AT_RANDOM); p++)
		cr_assert_eq(*(const u8 *)at(&s, p, 1), 0, "padding byte at %#lx", p);
	/* Nothing written below sp. */
	for (i = 0; i < (int)(s.sp - (TOP - sizeof(buf))); i++)
		cr_assert_eq(buf[i], 0xaa);
}

Test(exec_stack, argv_strings_in_order_execfn_on_top)
{
	static u8 buf[1024] __aligned(16);
	struct exec_stack_args a = args();
	struct ustack s = build(buf, sizeof(buf), TOP, &a);
	unsigned long argv0 = word(&s, s.sp + 8), execfn;
	unsigned long auxv = check_vectors(&s, &a);

	/* Linux's order: argv strings, then envp strings, ascending and packed. */
	cr_assert_eq(word(&s, s.sp + 16), argv0 + strlen(argv3[0]) + 1);
	cr_assert_eq(word(&s, s.sp + 8 * 5), argv0 + 10 + 3 + 1);	/* envp[0] */
	execfn = auxval(&s, auxv, AT_EXECFN);
	cr_assert_eq(execfn, TOP - 8 - strlen("/bin/true") - 1);
}

Test(exec_stack, empty_vectors)
{
	static u8 buf[512] __aligned(16);
	struct exec_stack_args a = args();
	struct ustack s;
	unsigned long auxv;

	a.argc = 0;
	a.envc = 0;
	a.nr_auxv = 0;
	s = build(buf, sizeof(buf), TOP, &a);
	auxv = check_vectors(&s, &a);
	cr_assert_eq(auxv, s.sp + 24);
	cr_assert_eq(word(&s, auxv), AT_RANDOM);
	cr_assert_str_eq(str(&s, auxval(&s, auxv, AT_EXECFN)), "/bin/true");
}

/*
 * Every combination of string lengths, counts and a misaligned buffer:
 * sp is 16-byte aligned and everything reads back.
 */
Test(exec_stack, always_aligned)
{
	static u8 store[2048 + 16] __aligned(16);
	static char strs[8][40];
	char *vec[8];
	struct exec_stack_args a = args();
	int len, n, shift;

	for (n = 0; n < 8; n++)
		vec[n] = strs[n];
	for (shift = 0; shift < 16; shift += 3)
		for (n = 0; n < 8; n++)
			for (len = 0; len < 20; len++) {
				u8 *buf = store + shift;
				struct ustack s;
				int i;

				for (i = 0; i < n; i++) {
					memset(strs[i], 'a' + i, len + i);
					strs[i][len + i] = 0;
				}
				a.argc = n;
				a.argv = vec;
				a.envc = n / 2;
				a.envp = vec;
				a.nr_auxv = n % 4;
				/* A top that is not 16-aligned: only sp must be. */
				s = build(buf, 2048, TOP - shift, &a);
				check_vectors(&s, &a);
			}
}

/*
 * Every size from nothing up to well past the need, in an exactly sized
 * heap block so ASan sees any write outside it: E2BIG below the minimum,
 * success from there on.
 */
Test(exec_stack, every_size)
{
	struct exec_stack_args a = args();
	size_t size, need = 0;

	for (size = 0; size < 512; size++) {
		u8 *buf = malloc(size ? size : 1);
		long sp = exec_stack_build(buf, size, TOP, &a);

		if (sp == -E2BIG) {
			cr_assert_eq(need, 0, "E2BIG at %zu after success at %zu", size, need);
		} else {
			struct ustack s = { buf, size, TOP, sp };

			cr_assert_gt(sp, 0);
			if (!need)
				need = size;
			check_vectors(&s, &a);
		}
		free(buf);
	}
	/*
	 * Strings: the 8-byte end marker, execfn 10, argv 10 + 3 + 1, envp
	 * 10 + 7, platform 7, random 16: 72 bytes. Words: argc, 3 + 1 argv,
	 * 2 + 1 envp, 3 + 4 auxv pairs: 22, 176 bytes. 248 at the least,
	 * up to 15 more for aligning sp.
	 */
	cr_assert_geq(need, 248);
	cr_assert_lt(need, 248 + 16);
}

Test(exec_stack, huge_argv_is_e2big)
{
	static u8 buf[64 * 1024];
	struct exec_stack_args a = args();
	size_t n = 200000;
	char **vec = malloc(n * sizeof(*vec));
	size_t i;

	for (i = 0; i < n; i++)
		vec[i] = "";
	a.argv = vec;
	/* The strings alone (one byte each) do not fit. */
	a.argc = n;
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -E2BIG);
	/* The strings fit, their pointers do not. */
	a.argc = 20000;
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -E2BIG);
	a.argc = 5000;
	cr_assert_gt(exec_stack_build(buf, sizeof(buf), TOP, &a), 0);
	free(vec);

	/* One string longer than the stack. */
	a = args();
	a.execfn = memset(calloc(1, sizeof(buf) + 1), 'p', sizeof(buf));
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -E2BIG);
	free((void *)a.execfn);
}

Test(exec_stack, negative_counts)
{
	static u8 buf[1024];
	struct exec_stack_args a = args();

	a.argc = -1;
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -EINVAL);
	a = args();
	a.envc = -1;
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -EINVAL);
	a = args();
	a.nr_auxv = -1;
	cr_assert_eq(exec_stack_build(buf, sizeof(buf), TOP, &a), -EINVAL);
}
