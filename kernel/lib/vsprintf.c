/*
 * vsnprintf for the kernel: C99 conversions (d i u x X o c s p %, flags
 * -+ 0#, width, precision, hh h l ll L z t j) and Linux's %pS/%ps, which
 * print symbol+offset/size through kallsyms. No floating point.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/kallsyms.h>

struct out {
	char *buf;
	size_t size;
	size_t len;	/* would-be length, may exceed size */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_str(struct out *o, const char *s, int width, int prec, bool left)
{
	int n = (int)strnlen(s, prec < 0 ? (size_t)-1 : (size_t)prec);

	if (!left)
		for (; width > n; width--)
			put(o, ' ');
	for (int i = 0; i < n; i++)
		put(o, s[i]);
	for (; width > n; width--)
		put(o, ' ');
}

struct numspec {
	int base, width, prec;
	bool left, zero, plus, space, alt, upper, neg;
};

static void put_num(struct out *o, unsigned long long v, struct numspec *f)
{
	const char *digits = f->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, sign = 0, pre = 0;

	if (v == 0 && f->prec == 0)
		n = 0;
	else
		do {
			tmp[n++] = digits[v % (unsigned)f->base];
			v /= (unsigned)f->base;
		} while (v);
	if (f->neg || f->plus || f->space)
		sign = 1;
	if (f->alt && f->base == 16 && n)
		pre = 2;
	if (f->alt && f->base == 8 && (n == 0 || tmp[n - 1] != '0'))
		tmp[n++] = '0';
	int digits_n = n > f->prec ? n : f->prec;
	int pad = f->width - digits_n - sign - pre;

	if (!f->left && !(f->zero && f->prec < 0))
		for (; pad > 0; pad--)
			put(o, ' ');
	if (sign)
		put(o, f->neg ? '-' : f->plus ? '+' : ' ');
	if (pre) {
		put(o, '0');
		put(o, f->upper ? 'X' : 'x');
	}
	if (!f->left && f->zero && f->prec < 0)
		for (; pad > 0; pad--)
			put(o, '0');
	for (int i = n; i < digits_n; i++)
		put(o, '0');
	while (n)
		put(o, tmp[--n]);
	for (; pad > 0; pad--)
		put(o, ' ');
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		struct numspec f = { .base = 10, .prec = -1 };
		int lng = 0;
		unsigned long long v;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;;) {
			char c = *++fmt;
			if (c == '-') f.left = true;
			else if (c == '0') f.zero = true;
			else if (c == '+') f.plus = true;
			else if (c == ' ') f.space = true;
			else if (c == '#') f.alt = true;
			else break;
		}
		if (*fmt == '*') {
			f.width = va_arg(ap, int);
			if (f.width < 0) {
				f.left = true;
				f.width = -f.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				f.width = f.width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			f.prec = 0;
			if (*fmt == '*') {
				f.prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					f.prec = f.prec * 10 + (*fmt++ - '0');
			}
		}
		for (;; fmt++) {
			if (*fmt == 'l') lng++;
			else if (*fmt == 'h') lng--;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') lng = 1;
			else if (*fmt == 'L') lng = 2;	/* %Lu: Linux's long long (sched_stat_runtime) */
			else break;
		}
		switch (*fmt) {
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			put_str(&o, s ? s : "(null)", f.width, f.prec, f.left);
			break;
		}
		case 'p':
			if (fmt[1] == 'S' || fmt[1] == 's') {
				char sym[160];
				unsigned long addr = (unsigned long)va_arg(ap, void *);
				if (fmt[1] == 'S')
					sprint_symbol(sym, sizeof(sym), addr);
				else
					sprint_symbol_no_offset(sym, sizeof(sym), addr);
				put_str(&o, sym, f.width, -1, f.left);
				fmt++;
				break;
			}
			f.base = 16;
			f.alt = true;
			put_num(&o, (unsigned long)va_arg(ap, void *), &f);
			break;
		case 'd':
		case 'i': {
			long long s = lng >= 2 ? va_arg(ap, long long) :
				      lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
			if (lng == -1) s = (short)s;
			if (lng <= -2) s = (signed char)s;
			f.neg = s < 0;
			put_num(&o, f.neg ? 0ULL - (unsigned long long)s : (unsigned long long)s, &f);
			break;
		}
		case 'X':
			f.upper = true;
			/* fall through */
		case 'x':
		case 'o':
		case 'u':
			f.base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			v = lng >= 2 ? va_arg(ap, unsigned long long) :
			    lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			if (lng == -1) v = (unsigned short)v;
			if (lng <= -2) v = (unsigned char)v;
			put_num(&o, v, &f);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
