/*
 * The initial process stack of a new program, as Linux lays it out
 * (create_elf_tables and the string copies before it) and the x86_64 psABI
 * describes, from the top of the stack down:
 *
 *	8 zero bytes			the end marker at stack_top
 *	execfn string
 *	argv[0..] and envp[0..] strings	ascending: argv[0] lowest
 *	platform string ("x86_64")
 *	16 random bytes			AT_RANDOM points here
 *	padding to 16 bytes
 *	auxv pairs, AT_NULL last
 *	NULL, envp[envc-1] .. envp[0]
 *	NULL, argv[argc-1] .. argv[0]
 *	argc				<- returned stack pointer, 16-byte aligned
 *
 * The builder works on a kernel buffer standing for the top `size` bytes
 * of the stack: buffer offset off is user address stack_top - size + off.
 * Every value written is a user address or a number, never a kernel
 * pointer. Words are stored with memcpy since the buffer's alignment
 * need not match the user addresses'.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/exec/elf.h>

/* Where the builder stands: buf, its user base, and the free space [0, pos). */
struct stack_cursor {
	u8 *buf;
	unsigned long base;	/* user address of buf[0] */
	size_t pos;		/* lowest used offset so far */
};

/* Pushes n bytes below pos; false if they do not fit. */
static bool push_bytes(struct stack_cursor *c, const void *src, size_t n)
{
	if (n > c->pos)
		return false;
	c->pos -= n;
	memcpy(c->buf + c->pos, src, n);
	return true;
}

/*
 * Pushes a NUL-terminated string, returning its user address; 0 when it
 * does not fit (a string at user address 0 would leave no room for the
 * words below it anyway).
 */
static unsigned long push_string(struct stack_cursor *c, const char *s)
{
	if (!push_bytes(c, s, strlen(s) + 1))
		return 0;
	return c->base + c->pos;
}

/* Pushes strs[n-1] .. strs[0], so that strs[0] ends up lowest. */
static bool push_strings(struct stack_cursor *c, char *const *strs, int n)
{
	while (n-- > 0)
		if (!push_string(c, strs[n]))
			return false;
	return true;
}

static void put_word(struct stack_cursor *c, size_t *off, u64 v)
{
	memcpy(c->buf + *off, &v, sizeof(v));
	*off += sizeof(v);
}

/*
 * Writes n pointers to the strings that start at user address *str and
 * follow each other (as push_strings left them), then the NULL ending the
 * array; *str moves past the last of them.
 */
static void put_string_array(struct stack_cursor *c, size_t *off, char *const *strs,
			     int n, unsigned long *str)
{
	int i;

	for (i = 0; i < n; i++) {
		put_word(c, off, *str);
		*str += strlen(strs[i]) + 1;
	}
	put_word(c, off, 0);
}

long exec_stack_build(void *buf, size_t size, unsigned long stack_top, const struct exec_stack_args *a)
{
	static const u64 end_marker;
	struct stack_cursor c = { buf, stack_top - size, size };
	unsigned long execfn, platform, random, strings;
	size_t words, off, top;
	int i;

	if (a->argc < 0 || a->envc < 0 || a->nr_auxv < 0)
		return -EINVAL;
	if (!push_bytes(&c, &end_marker, sizeof(end_marker)))
		return -E2BIG;
	execfn = push_string(&c, a->execfn);
	if (!execfn || !push_strings(&c, a->envp, a->envc) ||
	    !push_strings(&c, a->argv, a->argc))
		return -E2BIG;
	strings = c.base + c.pos;	/* argv[0]'s string */
	platform = push_string(&c, a->platform);
	if (!platform || !push_bytes(&c, a->random16, 16))
		return -E2BIG;
	random = c.base + c.pos;
	top = c.pos;

	/*
	 * argc, argv[] + NULL, envp[] + NULL, the caller's pairs and our
	 * four (AT_RANDOM, AT_EXECFN, AT_PLATFORM, AT_NULL). Counted in u64
	 * so a huge argc cannot wrap the sum.
	 */
	words = 1 + ((u64)a->argc + 1) + ((u64)a->envc + 1) + 2 * ((u64)a->nr_auxv + 4);
	if (words > c.pos / sizeof(u64))
		return -E2BIG;
	off = c.pos - words * sizeof(u64);
	/* Align the user address of argc down; the gap is padding. */
	if ((c.base + off) % 16 > off)
		return -E2BIG;
	off -= (c.base + off) % 16;
	c.pos = off;

	put_word(&c, &off, a->argc);
	put_string_array(&c, &off, a->argv, a->argc, &strings);
	put_string_array(&c, &off, a->envp, a->envc, &strings);
	for (i = 0; i < a->nr_auxv; i++) {
		put_word(&c, &off, a->auxv[i][0]);
		put_word(&c, &off, a->auxv[i][1]);
	}
	put_word(&c, &off, AT_RANDOM);
	put_word(&c, &off, random);
	put_word(&c, &off, AT_EXECFN);
	put_word(&c, &off, execfn);
	put_word(&c, &off, AT_PLATFORM);
	put_word(&c, &off, platform);
	put_word(&c, &off, AT_NULL);
	put_word(&c, &off, 0);
	/* The padding goes to user space too: no stale kernel bytes in it. */
	memset(c.buf + off, 0, top - off);
	return c.base + c.pos;
}
