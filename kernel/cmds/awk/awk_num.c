/*
 * awk's numbers (awk.h): fixed point in units of 10^-9 held in 128 bits,
 * so that the kernel, built without floating point, still computes 7/2 as
 * 3.5 and keeps trace timestamps exact. Arithmetic saturates instead of
 * overflowing; printf's conversions work on the exact decimal digits.
 */
#include <kernel/string.h>
#include <kernel/cmds/awk/awk.h>
#include <kernel/shell/sh.h>

typedef unsigned __int128 u128;

#define U128_MAX	(~(u128)0)
#define FMT_MAX		100000	/* widths and precisions are capped: each is built in memory */

static awk_num saturate(u128 u, bool neg)
{
	if (u > (u128)AWK_NUM_MAX)
		u = (u128)AWK_NUM_MAX;
	return neg ? -(awk_num)u : (awk_num)u;
}

static u128 uabs(awk_num v)
{
	return v < 0 ? (u128)0 - (u128)v : (u128)v;
}

static bool is_blank(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* m * 10^e in units, e >= -38; rounded to the nearest unit. */
static u128 scale10(u128 m, int e)
{
	for (; e > 0; e--) {
		if (m > U128_MAX / 10)
			return U128_MAX;
		m *= 10;
	}
	if (e < 0) {
		u128 p = 1;

		for (; e < 0 && p <= U128_MAX / 10; e++)
			p *= 10;
		if (e < 0)
			return 0;
		m = m / p + (m % p >= p - m % p ? 1 : 0);
	}
	return m;
}

size_t awk_num_scan(const char *s, size_t len, awk_num *v)
{
	size_t i = 0, digits = 0;
	bool neg = false;
	u128 m = 0;
	int e = 0;

	*v = 0;
	while (i < len && is_blank(s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < len && sh_isdigit(s[i]); i++, digits++) {
		if (m <= U128_MAX / 100)
			m = m * 10 + (u128)(s[i] - '0');
		else
			e++;
	}
	if (i < len && s[i] == '.') {
		i++;
		for (; i < len && sh_isdigit(s[i]); i++, digits++)
			if (m <= U128_MAX / 100) {
				m = m * 10 + (u128)(s[i] - '0');
				e--;
			}
	}
	if (!digits)
		return 0;
	if (i + 1 < len && (s[i] | 32) == 'e') {
		size_t j = i + 1;
		bool eneg = false;
		int x = 0;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			eneg = s[j++] == '-';
		if (j < len && sh_isdigit(s[j])) {
			for (; j < len && sh_isdigit(s[j]); j++)
				if (x < 10000)
					x = x * 10 + (s[j] - '0');
			e += eneg ? -x : x;
			i = j;
		}
	}
	e += AWK_FRAC_DIGITS;
	*v = saturate(e < -38 ? 0 : scale10(m, e), neg);
	return i;
}

bool awk_num_looks(const char *s, size_t len, awk_num *v)
{
	size_t i = awk_num_scan(s, len, v);

	if (!i)
		return false;
	while (i < len && is_blank(s[i]))
		i++;
	return i == len;
}

awk_num awk_num_add(awk_num a, awk_num b)
{
	awk_num r;

	if (__builtin_add_overflow(a, b, &r))
		return a < 0 ? -AWK_NUM_MAX : AWK_NUM_MAX;
	return r;
}

awk_num awk_num_mul(awk_num a, awk_num b)
{
	const u128 S = (u128)AWK_ONE;
	u128 ua = uabs(a), ub = uabs(b), ai = ua / S, af = ua % S, bi = ub / S, bf = ub % S;
	u128 r, t;
	bool neg = (a < 0) != (b < 0);

	/* (ai S + af)(bi S + bf) / S = ai bi S + ai bf + af bi + af bf / S */
	if (__builtin_mul_overflow(ai, bi, &r) || __builtin_mul_overflow(r, S, &r))
		return saturate(U128_MAX, neg);
	t = af * bf;
	t = t / S + (t % S >= S / 2 ? 1 : 0);
	if (__builtin_add_overflow(r, t, &r) || __builtin_mul_overflow(ai, bf, &t) ||
	    __builtin_add_overflow(r, t, &r) || __builtin_mul_overflow(af, bi, &t) ||
	    __builtin_add_overflow(r, t, &r))
		return saturate(U128_MAX, neg);
	return saturate(r, neg);
}

awk_num awk_num_div(awk_num a, awk_num b)
{
	const u128 S = (u128)AWK_ONE;
	u128 ua = uabs(a), ub = uabs(b), q = ua / ub, r = ua % ub, f;
	bool neg = (a < 0) != (b < 0);

	if (__builtin_mul_overflow(q, S, &q))
		return saturate(U128_MAX, neg);
	if (r <= U128_MAX / S) {
		u128 rs = r * S, rem = rs % ub;

		f = rs / ub + (rem >= ub - rem ? 1 : 0);
	} else {
		f = r / (ub / S);
	}
	if (__builtin_add_overflow(q, f, &q))
		return saturate(U128_MAX, neg);
	return saturate(q, neg);
}

awk_num awk_num_pow(awk_num a, awk_num b)
{
	u128 n = uabs(b) / (u128)AWK_ONE;
	awk_num r = AWK_ONE, x = a;

	if (uabs(b) % (u128)AWK_ONE == AWK_ONE / 2 && b > 0 && a >= 0)
		r = awk_num_sqrt(a);
	for (; n; n >>= 1) {
		if (n & 1)
			r = awk_num_mul(r, x);
		x = awk_num_mul(x, x);
		if (!x || (n > 1 && uabs(x) == (u128)AWK_NUM_MAX))
			break;
	}
	if (b < 0)
		return r ? awk_num_div(AWK_ONE, r) : AWK_NUM_MAX;
	return r;
}

static u128 isqrt(u128 n)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > n)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

awk_num awk_num_sqrt(awk_num a)
{
	const u128 S = (u128)AWK_ONE;
	u128 u;

	if (a <= 0)
		return 0;
	u = (u128)a;
	/* sqrt(a / S) * S = sqrt(a * S) */
	if (u <= U128_MAX / S)
		return (awk_num)isqrt(u * S);
	return (awk_num)(isqrt(u / S) * S);
}

awk_num awk_num_from_int(long long i)
{
	return (awk_num)i * AWK_ONE;
}

long long awk_num_to_int(awk_num v)
{
	awk_num i = v / AWK_ONE;

	if (i > (awk_num)__LONG_LONG_MAX__)
		return __LONG_LONG_MAX__;
	if (i < -(awk_num)__LONG_LONG_MAX__ - 1)
		return -__LONG_LONG_MAX__ - 1;
	return (long long)i;
}

/* u's digits in base (8, 10, 16) into buf (at least 44 bytes); returns the count. */
static int u128_digits(u128 u, unsigned int base, bool upper, char *buf)
{
	const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[44];
	int n = 0, i = 0;

	do {
		tmp[n++] = xd[u % base];
		u /= base;
	} while (u);
	while (n)
		buf[i++] = tmp[--n];
	return i;
}

/* Pad prefix+body to the spec's width; zeros go after the prefix when zero_ok. */
static void pad(struct sh_buf *b, const struct awk_spec *sp, const char *prefix,
		const char *body, size_t blen, bool zero_ok)
{
	size_t plen = strlen(prefix), n = plen + blen, w = sp->width > 0 ? (size_t)sp->width : 0;

	if (n >= w) {
		sh_buf_puts(b, prefix);
		sh_buf_put(b, body, blen);
	} else if (sp->minus) {
		sh_buf_puts(b, prefix);
		sh_buf_put(b, body, blen);
		sh_buf_fill(b, ' ', w - n);
	} else if (sp->zero && zero_ok) {
		sh_buf_puts(b, prefix);
		sh_buf_fill(b, '0', w - n);
		sh_buf_put(b, body, blen);
	} else {
		sh_buf_fill(b, ' ', w - n);
		sh_buf_puts(b, prefix);
		sh_buf_put(b, body, blen);
	}
}

void awk_fmt_str(struct sh_buf *b, const struct awk_spec *sp, const char *s, size_t len)
{
	struct awk_spec plain = *sp;

	if (sp->prec >= 0 && (size_t)sp->prec < len)
		len = (size_t)sp->prec;
	plain.zero = false;
	pad(b, &plain, "", s, len, false);
}

/*
 * A decimal: digits d[0..n) with the point after d[point]; room in front
 * for a carry. value = d[0..point).d[point..n).
 */
struct dec {
	char d[48];
	int n, point;
};

static void dec_of(struct dec *x, u128 u)
{
	char buf[44];
	int n = u128_digits(u, 10, false, buf), lead = n < AWK_FRAC_DIGITS + 1 ? AWK_FRAC_DIGITS + 1 - n : 0;

	memset(x->d, '0', (size_t)lead);
	memcpy(x->d + lead, buf, (size_t)n);
	x->n = n + lead;
	x->point = x->n - AWK_FRAC_DIGITS;
}

static int dec_first(const struct dec *x)
{
	for (int i = 0; i < x->n; i++)
		if (x->d[i] != '0')
			return i;
	return -1;
}

/* Keep the first k >= 1 digits, rounding half to even. */
static void dec_round(struct dec *x, int k)
{
	bool up, rest = false;
	int i;

	if (k >= x->n)
		return;
	for (i = k + 1; i < x->n; i++)
		rest |= x->d[i] != '0';
	up = x->d[k] > '5' || (x->d[k] == '5' && (rest || (x->d[k - 1] - '0') % 2));
	x->n = k;
	for (i = k - 1; up && i >= 0; i--) {
		up = x->d[i] == '9';
		x->d[i] = up ? '0' : x->d[i] + 1;
	}
	if (up) {
		memmove(x->d + 1, x->d, (size_t)x->n);
		x->d[0] = '1';
		x->n++;
		x->point++;
	}
}

static char dec_digit(const struct dec *x, int i)
{
	return i < x->n ? x->d[i] : '0';
}

/* %f of x with prec places into body. */
static void put_fixed(struct sh_buf *body, struct dec x, long prec, bool alt)
{
	int i = 0;

	dec_round(&x, x.point + (int)prec);
	while (i < x.point - 1 && x.d[i] == '0')
		i++;
	sh_buf_put(body, x.d + i, (size_t)(x.point - i));
	if (prec > 0 || alt)
		sh_buf_putc(body, '.');
	for (long j = 0; j < prec; j++)
		sh_buf_putc(body, dec_digit(&x, x.point + (int)j));
}

/* %e of x with prec places into body. */
static void put_exp(struct sh_buf *body, struct dec x, long prec, bool alt, char e)
{
	int z = dec_first(&x), ex = 0;

	if (z >= 0) {
		dec_round(&x, z + 1 + (int)prec);
		z = dec_first(&x);
		ex = x.point - z - 1;
	} else {
		z = 0;
	}
	sh_buf_putc(body, dec_digit(&x, z));
	if (prec > 0 || alt)
		sh_buf_putc(body, '.');
	for (long j = 0; j < prec; j++)
		sh_buf_putc(body, dec_digit(&x, z + 1 + (int)j));
	sh_buf_printf(body, "%c%c%02d", e, ex < 0 ? '-' : '+', ex < 0 ? -ex : ex);
}

/* %g: %e or %f by the exponent, trailing zeros dropped unless #. */
static void put_general(struct sh_buf *body, const struct dec *x, long prec, bool alt, char e)
{
	long p = prec < 0 ? 6 : prec ? prec : 1;
	struct dec r = *x;
	int z = dec_first(&r), ex = 0;
	size_t mark = body->len, end, cut;

	if (z >= 0) {
		dec_round(&r, z + (int)p);
		z = dec_first(&r);
		ex = r.point - z - 1;
	}
	if (ex < p && ex >= -4)
		put_fixed(body, *x, p - 1 - ex, alt);
	else
		put_exp(body, *x, p - 1, alt, e);
	if (alt || !body->s)
		return;
	/* Strip zeros at the end of the fraction, before any exponent. */
	end = body->len;
	for (size_t i = mark; i < body->len; i++)
		if (body->s[i] == e) {
			end = i;
			break;
		}
	if (!memchr(body->s + mark, '.', end - mark))
		return;
	cut = end;
	while (body->s[cut - 1] == '0')
		cut--;
	if (body->s[cut - 1] == '.')
		cut--;
	memmove(body->s + cut, body->s + end, body->len - end + 1);
	body->len -= end - cut;
}

void awk_fmt_num(struct sh_buf *b, const struct awk_spec *sp, awk_num v)
{
	bool neg = v < 0, upper = sp->conv >= 'A' && sp->conv <= 'Z';
	const char *sign = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
	struct sh_buf body = { 0 };
	char digits[44];
	struct dec x;
	int n;

	switch (sp->conv) {
	case 'c': {
		char c = (char)(awk_num_to_int(v) & 0xff);

		awk_fmt_str(b, sp, &c, 1);
		return;
	}
	case 'd':
	case 'i': {
		u128 u = uabs(v / AWK_ONE);

		n = u128_digits(u, 10, false, digits);
		if (!u && sp->prec == 0)
			n = 0;
		if (sp->prec > n)
			sh_buf_fill(&body, '0', (size_t)(sp->prec - n));
		sh_buf_put(&body, digits, (size_t)n);
		if (v / AWK_ONE == 0)
			sign = sp->plus ? "+" : sp->space ? " " : "";
		pad(b, sp, sign, body.s ? body.s : "", body.len, sp->prec < 0);
		break;
	}
	case 'o':
	case 'x':
	case 'X':
	case 'u': {
		awk_num i = v / AWK_ONE;
		/* A negative value prints as C's unsigned long long of it. */
		u128 u = i < 0 ? (u128)(unsigned long long)awk_num_to_int(v) : (u128)i;
		const char *prefix = "";

		n = u128_digits(u, sp->conv == 'o' ? 8 : sp->conv == 'u' ? 10 : 16, upper, digits);
		if (!u && sp->prec == 0)
			n = 0;
		if (sp->alt && u && sp->conv == 'x')
			prefix = "0x";
		if (sp->alt && u && sp->conv == 'X')
			prefix = "0X";
		if (sp->alt && sp->conv == 'o' && (n == 0 || digits[0] != '0') && sp->prec <= n)
			sh_buf_putc(&body, '0');
		if (sp->prec > n)
			sh_buf_fill(&body, '0', (size_t)(sp->prec - n));
		sh_buf_put(&body, digits, (size_t)n);
		pad(b, sp, prefix, body.s ? body.s : "", body.len, sp->prec < 0);
		break;
	}
	default:
		dec_of(&x, uabs(v));
		if (sp->conv == 'f' || sp->conv == 'F')
			put_fixed(&body, x, sp->prec < 0 ? 6 : sp->prec, sp->alt);
		else if (sp->conv == 'e' || sp->conv == 'E')
			put_exp(&body, x, sp->prec < 0 ? 6 : sp->prec, sp->alt, upper ? 'E' : 'e');
		else
			put_general(&body, &x, sp->prec, sp->alt, upper ? 'E' : 'e');
		pad(b, sp, sign, body.s ? body.s : "", body.len, true);
	}
	sh_buf_free(&body);
}

size_t awk_spec_parse(const char *f, struct awk_spec *sp, long (*star)(void *ctx), void *ctx)
{
	const char *s = f;

	*sp = (struct awk_spec){ .prec = -1 };
	for (;; s++) {
		if (*s == '-') sp->minus = true;
		else if (*s == '+') sp->plus = true;
		else if (*s == ' ') sp->space = true;
		else if (*s == '#') sp->alt = true;
		else if (*s == '0') sp->zero = true;
		else break;
	}
	if (*s == '*' && star) {
		s++;
		sp->width = star(ctx);
		if (sp->width < 0) {
			sp->minus = true;
			sp->width = -sp->width;
		}
	}
	for (; sh_isdigit(*s); s++)
		sp->width = sp->width * 10 + (*s - '0') > FMT_MAX ? FMT_MAX : sp->width * 10 + (*s - '0');
	if (*s == '.') {
		s++;
		sp->prec = 0;
		if (*s == '*' && star) {
			s++;
			sp->prec = star(ctx);
			if (sp->prec < 0)
				sp->prec = -1;
		}
		for (; sh_isdigit(*s); s++)
			sp->prec = sp->prec * 10 + (*s - '0') > FMT_MAX ? FMT_MAX : sp->prec * 10 + (*s - '0');
	}
	if (sp->width > FMT_MAX)
		sp->width = FMT_MAX;
	if (sp->prec > FMT_MAX)
		sp->prec = FMT_MAX;
	if (!*s || !strchr("cdiouxXeEfFgGs", *s))
		return 0;
	sp->conv = *s;
	return (size_t)(s + 1 - f);
}
