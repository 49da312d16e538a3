/*
 * printf FORMAT [ARG]...: C's conversions %s %b %c %d %i %u %o %x %X %%
 * with flags, width and precision, a `*` width or precision taken from
 * the next argument as C's printf does (%*d, %-*s, %.*s); the format is
 * reused while arguments remain. The output goes out in one write, as a
 * tracefs file needs to see a command whole.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_escape.h>

struct printf_state {
	struct sh_buf out;	/* everything printed, written at the end */
	int argc, next;
	char **argv;
	int status;
};

static const char *next_arg(struct printf_state *st)
{
	return st->next < st->argc ? st->argv[st->next++] : NULL;
}

/* An integer operand: decimal, 0x, 0 octal, or 'c for a character's code. */
static long long int_arg(struct printf_state *st)
{
	const char *s = next_arg(st);
	unsigned long long u;
	long long v;
	bool neg = false;

	if (!s || !*s)
		return 0;
	if (s[0] == '\'' || s[0] == '"')
		return (unsigned char)s[1];
	if (*s == '-' || *s == '+')
		neg = *s == '-';
	if (kstrtoull(s + (*s == '-' || *s == '+'), 0, &u)) {
		sh_eprintf("printf: '%s': expected a numeric value\n", s);
		st->status = 1;
		return 0;
	}
	v = (long long)u;
	return neg ? -v : v;
}

/* Wider fields or longer precisions than this are refused: each is built in memory. */
#define PRINTF_FIELD_MAX	100000

/* One conversion; spec is "%[flags][width][.prec]" without the letter. */
static void convert(struct printf_state *st, const char *spec, size_t speclen, char conv)
{
	char fmt[40];
	struct sh_buf b = { 0 };

	switch (conv) {
	case 'd':
	case 'i':
		snprintf(fmt, sizeof(fmt), "%.*slld", (int)speclen, spec);
		sh_buf_printf(&b, fmt, int_arg(st));
		break;
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		snprintf(fmt, sizeof(fmt), "%.*sll%c", (int)speclen, spec, conv);
		sh_buf_printf(&b, fmt, (unsigned long long)int_arg(st));
		break;
	case 'c': {
		const char *s = next_arg(st);
		char one[2] = { s ? *s : 0, 0 };
		size_t dot = strcspn(spec, ".");

		/* A one-byte string padded like %s; no precision applies. */
		snprintf(fmt, sizeof(fmt), "%.*ss", (int)(dot < speclen ? dot : speclen), spec);
		sh_buf_printf(&b, fmt, one);
		break;
	}
	case 'b':
	case 's': {
		const char *s = next_arg(st);

		if (!s)
			s = "";
		if (conv == 'b') {
			/* Expand the escapes first, then pad the result like %s. */
			sh_unescape(&b, s, true);
			s = b.s ? b.s : "";
		}
		snprintf(fmt, sizeof(fmt), "%.*ss", (int)speclen, spec);
		{
			struct sh_buf w = { 0 };

			sh_buf_printf(&w, fmt, s);
			sh_buf_free(&b);
			b = w;
		}
		break;
	}
	}
	/* Built in a buffer: a width can be wider than any fixed array. */
	if (b.s)
		sh_buf_put(&st->out, b.s, b.len);
	sh_buf_free(&b);
}

/*
 * A width or precision at *f: digits, or `*` for the next argument (a
 * negative one is returned as is). Sets *given when there was one.
 */
static long field(struct printf_state *st, const char **f, bool *given)
{
	const char *digits = *f;
	long long v = 0;

	*given = **f == '*' || sh_isdigit(**f);
	if (**f == '*') {
		(*f)++;
		v = int_arg(st);
	} else {
		for (; sh_isdigit(**f); (*f)++)
			if (v <= PRINTF_FIELD_MAX)
				v = v * 10 + (**f - '0');
	}
	if (v > PRINTF_FIELD_MAX || v < -PRINTF_FIELD_MAX) {
		if (*digits == '*')
			sh_eprintf("printf: %lld: field width or precision out of range\n", v);
		else
			sh_eprintf("printf: %.*s: field width or precision out of range\n",
				   (int)(*f - digits), digits);
		st->status = 1;
		v = 0;
	}
	return (long)v;
}

/*
 * The directive at *f (just past its %) in spec as "%[flags][width][.prec]"
 * with the numbers written out (at most 8 flags and two 6-digit numbers, so
 * spec and a conversion letter fit in convert's fmt); *f is left at the
 * conversion letter.
 */
static void directive(struct printf_state *st, const char **f, char *spec, size_t size)
{
	size_t nflags = strspn(*f, "-+ #0"), n;
	long width, prec = -1;
	bool has_width, has_prec = false;

	if (nflags > 8)
		nflags = 8;
	n = (size_t)snprintf(spec, size, "%%%.*s", (int)nflags, *f);
	*f += strspn(*f, "-+ #0");
	width = field(st, f, &has_width);
	if (**f == '.') {
		(*f)++;
		prec = field(st, f, &has_prec);
		has_prec = true;
	}
	/* C's rules for * arguments: a negative width left-justifies, a negative precision is none. */
	if (width < 0) {
		n += (size_t)snprintf(spec + n, size - n, "-");
		width = -width;
	}
	if (has_width)
		n += (size_t)snprintf(spec + n, size - n, "%ld", width);
	if (has_prec && prec >= 0)
		snprintf(spec + n, size - n, ".%ld", prec);
}

/* One pass over the format; returns false at \c. */
static bool format_once(struct printf_state *st, const char *f)
{
	while (*f) {
		if (*f == '\\') {
			struct sh_buf b = { 0 };
			char esc[5] = "\\";
			size_t n = 1;
			bool stop;

			/* One escape: \c, or up to three octal digits. */
			if (f[1] >= '0' && f[1] <= '7')
				while (n < 4 && f[n] >= '0' && f[n] <= '7')
					esc[n] = f[n], n++;
			else if (f[1])
				esc[n] = f[n], n++;
			stop = sh_unescape(&b, esc, true);
			if (b.s)
				sh_buf_put(&st->out, b.s, b.len);
			sh_buf_free(&b);
			if (stop)
				return false;
			f += n;
			continue;
		}
		if (*f != '%') {
			sh_buf_putc(&st->out, *f++);
			continue;
		}
		if (f[1] == '%') {
			sh_buf_putc(&st->out, '%');
			f += 2;
			continue;
		}
		char spec[40];

		f++;
		directive(st, &f, spec, sizeof(spec));
		if (!*f || !strchr("diuoxXcsb", *f)) {
			sh_eprintf("printf: %%%c: invalid directive\n", *f ? *f : ' ');
			st->status = 1;
			return false;
		}
		convert(st, spec, strlen(spec), *f);
		f++;
	}
	return true;
}

static bool has_conversion(const char *f)
{
	for (; *f; f++)
		if (*f == '%' && f[1] != '%' && f[1])
			return true;
		else if (*f == '%')
			f++;
	return false;
}

int cmd_printf(int argc, char **argv, char **envp)
{
	struct printf_state st = { .argc = argc, .argv = argv, .next = 2 };
	struct sh_out o;

	/* `printf -- FORMAT`: the end of (no) options, as utilities take it. */
	if (argc > 1 && !strcmp(argv[1], "--")) {
		argc--;
		argv++;
		st = (struct printf_state){ .argc = argc, .argv = argv, .next = 2 };
	}
	if (argc < 2) {
		sh_eprintf("printf: usage: printf FORMAT [ARG]...\n");
		return 2;
	}
	do {
		if (!format_once(&st, argv[1]))
			break;
	} while (st.next < argc && has_conversion(argv[1]));
	out_init(&o, 1);
	out_put_whole(&o, st.out.s, st.out.len);
	sh_buf_free(&st.out);
	return out_finish(&o, "printf", st.status);
}
