/*
 * printf FORMAT [ARG]...: C's conversions %s %b %c %d %i %u %o %x %X %%
 * with flags, width and precision; the format is reused while arguments
 * remain.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_escape.h>

struct printf_state {
	struct sh_out o;
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

/* One conversion; spec is "%[flags][width][.prec]" without the letter. */
static void convert(struct printf_state *st, const char *spec, size_t speclen, char conv)
{
	char fmt[40];
	struct sh_buf b = { 0 };

	if (speclen > 30)
		speclen = 30;
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

		if (s && *s)
			out_putc(&st->o, *s);
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
		out_put(&st->o, b.s, b.len);
	sh_buf_free(&b);
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
				out_put(&st->o, b.s, b.len);
			sh_buf_free(&b);
			if (stop)
				return false;
			f += n;
			continue;
		}
		if (*f != '%') {
			out_putc(&st->o, *f++);
			continue;
		}
		if (f[1] == '%') {
			out_putc(&st->o, '%');
			f += 2;
			continue;
		}
		const char *spec = f++;

		f += strspn(f, "-+ #0");
		while (sh_isdigit(*f))
			f++;
		if (*f == '.')
			for (f++; sh_isdigit(*f); f++)
				;
		if (!*f || !strchr("diuoxXcsb", *f)) {
			sh_eprintf("printf: %%%c: invalid directive\n", *f ? *f : ' ');
			st->status = 1;
			return false;
		}
		convert(st, spec, (size_t)(f - spec), *f);
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

	if (argc < 2) {
		sh_eprintf("printf: usage: printf FORMAT [ARG]...\n");
		return 2;
	}
	out_init(&st.o, 1);
	do {
		if (!format_once(&st, argv[1]))
			break;
	} while (st.next < argc && has_conversion(argv[1]));
	return out_finish(&st.o, "printf", st.status);
}
