/*
 * Which kprobe sites a 5-byte jmp may cover (arch/x86_64/optprobe_region.c):
 * made-up functions with regions of whole fall-through instructions, a
 * region cut by a branch, a return or int3 padding, one a jump of the
 * function lands inside (and one it lands on the first byte of), a
 * function with a jump table, a region that would leave the function,
 * and others' 5-byte sites: never covered, and skipped whole when the
 * function is decoded (they may be mid-patch).
 */
/* uses: arch/x86_64/insn.c arch/x86_64/optprobe_region.c */
#include <criterion/criterion.h>
#include <string.h>
#include <asm/insn.h>
#include <asm/optprobe_region.h>

#define BASE 0x1000UL

/* The text: the function's bytes, then int3 padding to read past its end. */
struct text {
	u8 bytes[256];
};

static void read_text(const struct optprobe_func *f, unsigned long ip, u8 *buf)
{
	const struct text *t = f->ctx;

	memcpy(buf, t->bytes + (ip - BASE), INSN_MAX_LEN);
}

/* The region at BASE + off of the function code[0..len), with its sites. */
static unsigned int region(const u8 *code, unsigned int len, unsigned int off,
			   const unsigned long *sites, unsigned int nsites)
{
	struct text t;
	struct optprobe_func f = {
		.start = BASE, .end = BASE + len, .read = read_text,
		.sites = sites, .nsites = nsites, .ctx = &t,
	};

	memset(t.bytes, 0xcc, sizeof(t.bytes));
	memcpy(t.bytes, code, len);
	return optprobe_region(&f, BASE + off);
}

/* A function with an entry site, a RIP-relative load and a forward branch. */
static const u8 plain[] = {
	0x0f, 0x1f, 0x44, 0x00, 0x00,		/* 0x00 nopl (entry site) */
	0x55,					/* 0x05 push %rbp */
	0x48, 0x89, 0xe5,			/* 0x06 mov %rsp,%rbp */
	0x48, 0x83, 0xec, 0x18,			/* 0x09 sub $0x18,%rsp */
	0x48, 0x8b, 0x05, 0x10, 0, 0, 0,	/* 0x0d mov 0x10(%rip),%rax */
	0x85, 0xc0,				/* 0x14 test %eax,%eax */
	0x74, 0x03,				/* 0x16 je 0x1b */
	0x48, 0x89, 0xc7,			/* 0x18 mov %rax,%rdi */
	0xc9,					/* 0x1b leave */
	0xc3,					/* 0x1c ret */
};
static const unsigned long plain_sites[] = { BASE };

Test(optprobe_region, whole_fall_through_instructions)
{
	cr_expect_eq(region(plain, sizeof(plain), 0x05, plain_sites, 1), 8, "push, mov, sub");
	cr_expect_eq(region(plain, sizeof(plain), 0x06, plain_sites, 1), 7, "mov, sub");
	cr_expect_eq(region(plain, sizeof(plain), 0x09, plain_sites, 1), 11,
		     "sub and a RIP-relative mov (the detour rebases it)");
	cr_expect_eq(region(plain, sizeof(plain), 0x0d, plain_sites, 1), 7,
		     "one instruction of 7 bytes is a region");
}

Test(optprobe_region, cut_by_branch_or_return)
{
	cr_expect_eq(region(plain, sizeof(plain), 0x14, plain_sites, 1), 0, "test, then je");
	cr_expect_eq(region(plain, sizeof(plain), 0x16, plain_sites, 1), 0, "je itself");
	cr_expect_eq(region(plain, sizeof(plain), 0x18, plain_sites, 1), 0, "mov, leave, then ret");
}

Test(optprobe_region, never_over_a_site)
{
	cr_expect_eq(region(plain, sizeof(plain), 0x00, plain_sites, 1), 0, "the entry site");
	cr_expect_eq(region(plain, sizeof(plain), 0x00, NULL, 0), 5,
		     "the same NOP when no one patches it");
}

/* A loop: jne back to the second instruction. */
static const u8 loop[] = {
	0x48, 0x89, 0xe5,			/* 0x00 mov %rsp,%rbp */
	0x48, 0x89, 0xc7,			/* 0x03 mov %rax,%rdi */
	0x48, 0x89, 0xc6,			/* 0x06 mov %rax,%rsi */
	0x75, 0xf8,				/* 0x09 jne 0x03 */
	0xc3,					/* 0x0b ret */
};

Test(optprobe_region, no_jump_into_the_region)
{
	cr_expect_eq(region(loop, sizeof(loop), 0x00, NULL, 0), 0,
		     "jne lands on the region's second instruction");
	cr_expect_eq(region(loop, sizeof(loop), 0x03, NULL, 0), 6,
		     "jne lands on the region's first byte: the jmp is there");
}

Test(optprobe_region, no_jump_table)
{
	static const u8 table[] = {
		0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
		0x48, 0x89, 0xc7,		/* mov %rax,%rdi */
		0xff, 0xe0,			/* jmp *%rax */
	};

	cr_expect_eq(region(table, sizeof(table), 0x00, NULL, 0), 0);
}

Test(optprobe_region, inside_the_function)
{
	static const u8 tail[] = {
		0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
		0x90,				/* nop: the function ends here */
	};
	static const u8 padded[] = {
		0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
		0xc3,				/* ret */
		0xcc, 0xcc, 0xcc, 0xcc,		/* padding */
	};

	cr_expect_eq(region(tail, sizeof(tail), 0x00, NULL, 0), 0, "4 bytes, then the end");
	cr_expect_eq(region(padded, sizeof(padded), 0x04, NULL, 0), 0, "int3 padding");
}

Test(optprobe_region, sites_skipped_whole_when_decoding)
{
	/* a static-key site caught mid-patch: int3 and a torn tail */
	static const u8 torn[] = {
		0x48, 0x89, 0xe5,		/* 0x00 mov %rsp,%rbp */
		0x48, 0x89, 0xc7,		/* 0x03 mov %rax,%rdi */
		0xcc, 0x75, 0xf9, 0x90, 0x90,	/* 0x06 the site: int3, then "jne 0x02" */
		0xc3,				/* 0x0b ret */
	};
	static const unsigned long site[] = { BASE + 6 };

	cr_expect_eq(region(torn, sizeof(torn), 0x00, site, 1), 6);
	cr_expect_eq(region(torn, sizeof(torn), 0x00, NULL, 0), 0,
		     "decoded, the torn bytes jump into the region");
	cr_expect_eq(region(torn, sizeof(torn), 0x03, site, 1), 0, "a region over the site");
}
