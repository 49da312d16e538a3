/*
 * Printing a record with its compiled print fmt: C's printf on each
 * argument cast to its directive's length, with Linux's %p extensions,
 * as trace-cmd (libtraceevent) prints them.
 */
#include <string.h>
#include "host-tools/report_printfmt.h"

static void pad_to(struct obuf *o, size_t have, int width)
{
	if (width > 0 && (size_t)width > have)
		ob_pad(o, ' ', (size_t)width - have);
}

/* %s and text results, honouring width, '-' and precision. */
static void put_text(struct obuf *o, const struct pf_spec *sp, int width, int prec,
		     const char *s, size_t len)
{
	const char *nul = memchr(s, 0, len);

	if (nul)
		len = (size_t)(nul - s);
	if (prec >= 0 && (size_t)prec < len)
		len = (size_t)prec;
	if (!sp->left)
		pad_to(o, len, width);
	ob_write(o, s, len);
	if (sp->left)
		pad_to(o, len, width);
}

/* %d %i %u %x with no flags, width or precision: most directives. */
static void put_bare_int(struct obuf *o, char conv, int length, uint64_t v)
{
	bool sign = conv == 'd' || conv == 'i';

	v = pf_cast(v, (unsigned int)length, sign);
	if (conv == 'x')
		ob_hex(o, v);
	else if (sign)
		ob_s64(o, (int64_t)v);
	else
		ob_u64(o, v);
}

/*
 * printf's integer conversions done here (flags - + space # 0, width,
 * precision; d i u x X o): vsnprintf per field is what made decoding slow.
 */
void rep_put_int(struct obuf *o, const struct rep_numfmt *nf, uint64_t v)
{
	const char *digits = nf->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned int base = nf->conv == 'x' || nf->conv == 'X' ? 16 : nf->conv == 'o' ? 8 : 10;
	bool sign = nf->conv == 'd' || nf->conv == 'i', neg = false, left = false, zero = false;
	bool plus = false, space = false, alt = false;
	char body[24], prefix[3] = "";
	int n = 0, prec = nf->prec, width = nf->width, len, zeros;

	if (!nf->flags[0] && width < 0 && prec < 0 && base != 8 && nf->conv != 'X') {
		put_bare_int(o, nf->conv, nf->length, v);
		return;
	}
	for (const char *f = nf->flags; *f; f++) {
		left |= *f == '-';
		zero |= *f == '0';
		plus |= *f == '+';
		space |= *f == ' ';
		alt |= *f == '#';
	}
	v = pf_cast(v, (unsigned int)nf->length, sign);
	if (sign && (int64_t)v < 0) {
		neg = true;
		v = -v;
	}
	if (v || prec != 0)
		do {
			body[n++] = digits[v % base];
			v /= base;
		} while (v);
	if (sign)
		strcpy(prefix, neg ? "-" : plus ? "+" : space ? " " : "");
	else if (alt && base == 16 && n && !(n == 1 && body[0] == '0'))
		strcpy(prefix, nf->conv == 'X' ? "0X" : "0x");
	else if (alt && base == 8 && (n == 0 || body[n - 1] != '0') && prec <= n)
		prec = n + 1;
	zeros = prec > n ? prec - n : 0;
	len = (int)strlen(prefix) + zeros + n;
	if (zero && !left && prec < 0 && width > len) {
		zeros += width - len;
		len = width;
	}
	if (!left && width > len)
		ob_pad(o, ' ', (size_t)(width - len));
	ob_puts(o, prefix);
	if (zeros)
		ob_pad(o, '0', (size_t)zeros);
	ob_reserve(o, (size_t)n);
	while (n)
		o->buf[o->len++] = body[--n];
	if (left && width > len)
		ob_pad(o, ' ', (size_t)(width - len));
}

/* An integer directive, as printf prints the value cast to the directive's length. */
static void put_int(struct obuf *o, const struct pf_spec *sp, int width, int prec, uint64_t v)
{
	struct rep_numfmt nf = { .conv = sp->conv, .width = width, .prec = prec, .length = sp->length };

	memcpy(nf.flags, sp->flags, sizeof(nf.flags));
	rep_put_int(o, &nf, v);
}

/* %pI4 (dotted quad) and %pI6/%pI6c (IPv6, c: the longest zero run as "::"). */
static void put_ip(struct obuf *o, const struct pf_spec *sp, const unsigned char *a, size_t len)
{
	int best = -1, best_len = 0;
	bool compress = strstr(sp->ext, "c") != NULL;

	if (strstr(sp->ext, "4") || len == 4) {
		if (len >= 4)
			ob_printf(o, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		return;
	}
	if (len < 16)
		return;
	if (!compress) {
		for (int i = 0; i < 8; i++)
			ob_printf(o, i ? ":%02x%02x" : "%02x%02x", a[2 * i], a[2 * i + 1]);
		return;
	}
	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && !a[2 * j] && !a[2 * j + 1])
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	if (best_len < 2)
		best = -1;
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			ob_puts(o, "::");
			i += best_len - 1;
			continue;
		}
		if (i && i != best + best_len)
			ob_putc(o, ':');
		ob_printf(o, "%x", a[2 * i] << 8 | a[2 * i + 1]);
	}
}

static void put_hex_byte(struct obuf *o, unsigned char b)
{
	static const char hex[] = "0123456789abcdef";

	ob_putc(o, hex[b >> 4]);
	ob_putc(o, hex[b & 15]);
}

/*
 * %p and its extensions: symbols for S/s/F/f, 0x-hex otherwise, "(nil)"
 * for a plain NULL. trace-cmd ignores width and flags here.
 */
static void put_pointer(struct rep_ctx *ctx, struct obuf *o, const struct pf_spec *sp, struct pf_val v)
{
	struct rep_sym sym;

	if (v.kind == V_STR && sp->pext == 'U' && v.len >= 16) {
		/* A UUID: 16 bytes as 8-4-4-4-12 hex digits. */
		for (int i = 0; i < 16; i++) {
			put_hex_byte(o, (unsigned char)v.s[i]);
			if (i == 3 || i == 5 || i == 7 || i == 9)
				ob_putc(o, '-');
		}
		return;
	}
	if (v.kind == V_STR && (sp->pext == 'M' || sp->pext == 'm')) {
		/* A MAC address: six bytes in hex, colon-separated for %pM. */
		if (v.len < 6) {
			ob_puts(o, "INVALIDMAC");
			return;
		}
		for (int i = 0; i < 6; i++) {
			if (i && sp->pext == 'M')
				ob_putc(o, ':');
			put_hex_byte(o, (unsigned char)v.s[i]);
		}
		return;
	}
	if (v.kind == V_STR && (sp->pext == 'I' || sp->pext == 'i')) {
		put_ip(o, sp, (const unsigned char *)v.s, v.len);
		return;
	}
	if (v.kind == V_STR) {
		/* A pointer to record bytes (%pM and friends): print what is there as text. */
		put_text(o, sp, -1, -1, v.s, v.len);
		return;
	}
	if (sp->pext && strchr("SsFf", sp->pext) && syms_find(&ctx->syms, v.n, &sym)) {
		ob_write(o, sym.name, sym.name_len);
		if (sp->pext == 'S' || sp->pext == 'F') {
			ob_puts(o, "+0x");
			ob_hex(o, v.n - sym.addr);
		}
	} else if (!v.n && !sp->pext) {
		ob_puts(o, "(nil)");
	} else {
		ob_puts(o, "0x");
		ob_hex(o, v.n);
	}
}

/* One directive with its argument(s). */
static void render(struct pf_eval *e, struct obuf *o, const struct pf_prog *p, const struct pf_spec *sp)
{
	int width = sp->width, prec = sp->prec;
	unsigned int star = (width == -2) + (prec == -2);
	struct pf_val v;

	if (width == -2)
		width = sp->arg >= star ? (int)pf_as_num(e, p->args[sp->arg - star]) : -1;
	if (prec == -2)
		prec = sp->arg >= 1 ? (int)pf_as_num(e, p->args[sp->arg - 1]) : -1;
	if (width > 4096)
		width = 4096;
	if (prec > 4096)
		prec = 4096;
	if (width < -1)
		width = -1;
	v = sp->arg < p->nr_args ? pf_eval(e, p->args[sp->arg]) : pf_num(0);
	if (v.kind == V_STR)
		v.s = pf_text_of(e, &v);
	if (v.kind == V_NUM && sp->bare) {	/* most directives: straight to the digits */
		put_bare_int(o, sp->conv, sp->length, v.n);
		return;
	}
	switch (sp->conv) {
	case 's':
		if (v.kind == V_STR)
			put_text(o, sp, width, prec, v.s, v.len);
		else
			put_int(o, &(struct pf_spec){ .conv = 'x', .length = 8 }, -1, -1, v.n);
		break;
	case 'p':
		put_pointer(e->ctx, o, sp, v);
		break;
	case 'c':
		ob_putc(o, v.kind == V_NUM ? (char)v.n : v.len ? v.s[0] : 0);
		break;
	default:
		put_int(o, sp, width, prec, v.kind == V_NUM ? v.n : 0);
		break;
	}
}

void pf_print(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
	      const struct rep_record *r)
{
	struct pf_eval e = { .ctx = ctx, .r = r, .ok = true, .tmp = &ctx->scratch };

	ctx->scratch.len = 0;
	for (unsigned int i = 0; i < p->nr_specs; i++) {
		const struct pf_spec *sp = &p->specs[i];

		ob_write(o, sp->lit, sp->lit_len);
		if (sp->conv == '%')
			ob_putc(o, '%');
		else if (sp->conv)
			render(&e, o, p, sp);
	}
}

/*
 * Items of the format in trace-cmd's order: item 2i is spec i's literal
 * text (when it has any), 2i + 1 its directive (when it is one).
 */
static bool item_exists(const struct pf_prog *p, unsigned int item)
{
	const struct pf_spec *sp = &p->specs[item / 2];

	if (item % 2 == 0)
		return sp->lit_len || sp->conv == '%';
	return sp->conv && sp->conv != '%';
}

bool pf_print_field(struct rep_ctx *ctx, struct obuf *o, const struct pf_prog *p,
		    const struct rep_field *f, const struct rep_record *r, int *cursor)
{
	struct pf_eval e = { .ctx = ctx, .r = r, .ok = true, .tmp = &ctx->scratch };
	unsigned int n = 2 * p->nr_specs, start, item;
	bool has_0x = false;

	if (*cursor < 0 || !n)
		return false;
	start = (unsigned int)*cursor % n;
	while (!item_exists(p, start))		/* the cursor points at a real item */
		if ((start = (start + 1) % n) == (unsigned int)*cursor % n)
			return false;
	item = start;
	do {
		const struct pf_spec *sp = &p->specs[item / 2];
		const struct pf_node *a;

		if (item % 2 == 0) {
			has_0x = sp->lit_len >= 2 && !memcmp(sp->lit + sp->lit_len - 2, "0x", 2);
		} else {
			for (a = sp->arg < p->nr_args ? p->args[sp->arg] : NULL; a && a->op == N_CAST;)
				a = a->a;
			if (a && a->op == N_FIELD && a->field == f) {
				ctx->scratch.len = 0;
				if (has_0x)
					ob_puts(o, "0x");
				render(&e, o, p, sp);
				do
					item++;
				while (item < n && !item_exists(p, item));
				*cursor = item < n ? (int)item : -1;
				return true;
			}
			has_0x = false;
		}
		do
			item = (item + 1) % n;
		while (!item_exists(p, item));
	} while (item != start);
	return false;
}
