/*
 * The value of an argument tree for one record: numbers as trace-cmd
 * computes them (fields zero-extended, comparisons unsigned), text from
 * the record or built in the context's scratch buffer.
 */
#include <string.h>
#include "host-tools/report_printfmt.h"

static struct pf_val str(const char *s, size_t len)
{
	return (struct pf_val){ V_STR, 0, s, len };
}

/* Text built in the scratch buffer, kept as an offset: the buffer may move. */
static struct pf_val tmp_text(struct pf_eval *e, size_t start)
{
	return (struct pf_val){ V_STR, start, NULL, e->tmp->len - start };
}

/* Where a text value's bytes are now. */
const char *pf_text_of(const struct pf_eval *e, const struct pf_val *v)
{
	return v->s ? v->s : e->tmp->buf + v->n;
}

uint64_t pf_as_num(struct pf_eval *e, const struct pf_node *n)
{
	struct pf_val v = pf_eval(e, n);

	return v.kind == V_NUM ? v.n : 1;
}

static struct pf_val field_value(struct pf_eval *e, const struct rep_field *f)
{
	const struct rep_record *r = e->r;
	unsigned int len;
	const unsigned char *p;

	if (!r) {
		e->ok = false;
		return pf_num(0);
	}
	if (f->flags & FIELD_DYNAMIC) {
		p = rep_dyn_data(e->ctx, r, f, &len);
		return str((const char *)p, len);
	}
	if (f->flags & (FIELD_ARRAY | FIELD_BAD)) {
		/* A trailing "char buf[]" (size 0) runs to the end of the record. */
		p = r->data + f->offset;
		len = f->offset + f->size > r->size ? 0 : f->size ? f->size : r->size - f->offset;
		return str((const char *)p, len);
	}
	/* Zero-extended, as trace-cmd reads fields: %d and casts give the sign back. */
	return pf_num(rep_read_num(e->ctx, r, f->offset, f->size, false));
}

static uint64_t binop(const char *op, uint64_t a, uint64_t b)
{
	switch (op[0]) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/': return b ? (uint64_t)((int64_t)a / (int64_t)b) : 0;
	case '%': return b ? (uint64_t)((int64_t)a % (int64_t)b) : 0;
	case '^': return a ^ b;
	/* Comparisons are unsigned, as trace-cmd evaluates them ("x >= -9ULL"). */
	case '<':
		if (op[1] == '<')
			return b < 64 ? a << b : 0;
		return op[1] == '=' ? a <= b : a < b;
	case '>':
		if (op[1] == '>')
			return b < 64 ? a >> b : 0;
		return op[1] == '=' ? a >= b : a > b;
	case '=': return a == b;
	case '!': return a != b;
	case '&': return op[1] == '&' ? (a && b) : a & b;
	case '|': return op[1] == '|' ? (a || b) : a | b;
	default: return 0;
	}
}

uint64_t pf_cast(uint64_t v, unsigned int size, bool sign)
{
	switch (size) {
	case 1: return sign ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
	case 2: return sign ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	case 4: return sign ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	default: return v;
	}
}

/* __print_flags: set flags' names joined by the delimiter, leftover bits as hex. */
static struct pf_val print_flags(struct pf_eval *e, const struct pf_node *n)
{
	uint64_t v = pf_as_num(e, n->a);
	size_t start = e->tmp->len;
	bool any = false;

	for (unsigned int i = 0; i < n->nr_syms && e->r; i++) {
		uint64_t f = n->syms[i].value;

		if (!v && !f) {
			ob_puts(e->tmp, n->syms[i].name);
			any = true;
			break;
		}
		if (f && (v & f) == f) {
			if (any)
				ob_write(e->tmp, n->str, n->slen);
			ob_puts(e->tmp, n->syms[i].name);
			any = true;
			v &= ~f;
		}
	}
	if (v) {
		if (any)
			ob_write(e->tmp, n->str, n->slen);
		ob_printf(e->tmp, "0x%llx", (unsigned long long)v);
	}
	return tmp_text(e, start);
}

static struct pf_val print_symbolic(struct pf_eval *e, const struct pf_node *n)
{
	uint64_t v = pf_as_num(e, n->a);
	size_t start = e->tmp->len;

	for (unsigned int i = 0; i < n->nr_syms; i++)
		if (n->syms[i].value == v)
			return str(n->syms[i].name, strlen(n->syms[i].name));
	ob_printf(e->tmp, "0x%llx", (unsigned long long)v);
	return tmp_text(e, start);
}

/* __print_hex (bytes as "xx xx") and __print_hex_str ("xxxx"). */
static struct pf_val print_hex(struct pf_eval *e, const struct pf_node *n, bool joined)
{
	struct pf_val buf = pf_eval(e, n->a);
	uint64_t len = pf_as_num(e, n->b);
	size_t start = e->tmp->len;

	if (buf.kind != V_STR)
		return tmp_text(e, start);
	if (len > buf.len)
		len = buf.len;
	for (uint64_t i = 0; i < len; i++)
		ob_printf(e->tmp, joined || !i ? "%02x" : " %02x", (unsigned char)pf_text_of(e, &buf)[i]);
	return tmp_text(e, start);
}

/* __print_array(array, count, element size): "{0x1,0x2}". */
static struct pf_val print_array(struct pf_eval *e, const struct pf_node *n)
{
	struct pf_val buf = pf_eval(e, n->a);
	uint64_t count = pf_as_num(e, n->b), size = pf_as_num(e, n->c);
	size_t start = e->tmp->len;

	ob_putc(e->tmp, '{');
	if (buf.kind == V_STR && (size == 1 || size == 2 || size == 4 || size == 8)) {
		for (uint64_t i = 0; i < count && (i + 1) * size <= buf.len; i++) {
			uint64_t v = 0;

			memcpy(&v, pf_text_of(e, &buf) + i * size, size);
			if (e->ctx->big_endian)
				v = __builtin_bswap64(v) >> (64 - 8 * size);
			ob_printf(e->tmp, i ? ",0x%llx" : "0x%llx", (unsigned long long)v);
		}
	}
	ob_putc(e->tmp, '}');
	return tmp_text(e, start);
}

/* A bitmask as Linux prints one: 32-bit hex words, most significant first, comma-joined. */
static struct pf_val print_bitmask(struct pf_eval *e, const struct pf_node *n)
{
	struct pf_val buf = field_value(e, n->field);
	size_t start = e->tmp->len;
	bool any = false;

	for (size_t w = buf.len / 4; w-- > 0;) {
		uint32_t word;

		memcpy(&word, buf.s + 4 * w, 4);
		if (e->ctx->big_endian)
			word = __builtin_bswap32(word);
		if (!any && !word && w)
			continue;
		ob_printf(e->tmp, any ? ",%08x" : "%x", word);
		any = true;
	}
	return tmp_text(e, start);
}

struct pf_val pf_eval(struct pf_eval *e, const struct pf_node *n)
{
	if (!n) {
		e->ok = false;
		return pf_num(0);
	}
	switch (n->op) {
	case N_NUM:
		return pf_num(n->num);
	case N_STR:
		return str(n->str, n->slen);
	case N_FIELD:
		return field_value(e, n->field);
	case N_FIRST_ARG:
		return pf_eval(e, n->a);
	case N_INDEX: {
		const struct rep_field *f = n->a && n->a->op == N_FIELD ? n->a->field : NULL;
		uint64_t i = pf_as_num(e, n->b);
		unsigned int room;

		if (!f || !e->r || !(f->flags & FIELD_ARRAY) || !f->elem_size)
			return pf_num(0);
		/* A flexible array (size 0, as raw_data's buf[]) runs to the record's end. */
		room = f->size ? f->size : e->r->size > f->offset ? e->r->size - f->offset : 0;
		if (i >= room / f->elem_size)
			return pf_num(0);
		return pf_num(rep_read_num(e->ctx, e->r, f->offset + (unsigned int)i * f->elem_size,
					f->elem_size, false));
	}
	case N_UNARY: {
		uint64_t v;

		if (n->opch[0] == '*' || n->opch[0] == '&' || n->opch[0] == '+')
			return pf_eval(e, n->a);
		v = pf_as_num(e, n->a);
		return pf_num(n->opch[0] == '-' ? -v : n->opch[0] == '!' ? !v : ~v);
	}
	case N_BINARY:
		if (n->opch[0] == '&' && n->opch[1] == '&')
			return pf_num(pf_as_num(e, n->a) ? !!pf_as_num(e, n->b) : 0);
		if (n->opch[0] == '|' && n->opch[1] == '|')
			return pf_num(pf_as_num(e, n->a) ? 1 : !!pf_as_num(e, n->b));
		return pf_num(binop(n->opch, pf_as_num(e, n->a), pf_as_num(e, n->b)));
	case N_COND:
		return pf_as_num(e, n->a) ? pf_eval(e, n->b) : pf_eval(e, n->c);
	case N_CAST: {
		struct pf_val v = pf_eval(e, n->a);

		if (v.kind == V_STR)
			return v;
		return pf_num(pf_cast(v.n, n->cast_size, n->cast_signed));
	}
	case N_GET_STR:
	case N_DYN_ARRAY: {
		struct pf_val v = field_value(e, n->field);

		if (n->op == N_GET_STR && v.kind == V_STR && v.s) {
			const char *nul = memchr(v.s, 0, v.len);

			if (nul)
				v.len = (size_t)(nul - v.s);
		}
		return v;
	}
	case N_DYN_LEN:
		return pf_num(field_value(e, n->field).len);
	case N_BITMASK:
		return print_bitmask(e, n);
	case N_FLAGS:
		return print_flags(e, n);
	case N_SYMBOLIC:
		return print_symbolic(e, n);
	case N_HEX:
	case N_HEX_STR:
		return print_hex(e, n, n->op == N_HEX_STR);
	case N_ARRAY:
		return print_array(e, n);
	}
	return pf_num(0);
}

/* Constant folding for flag tables: no record, no fields. */
/* Numbers, strings and operators on them only: what can be worked out without a record. */
static bool constant(const struct pf_node *n)
{
	if (!n)
		return true;
	switch (n->op) {
	case N_NUM:
	case N_STR:
		return true;
	case N_UNARY:
	case N_BINARY:
	case N_COND:
	case N_CAST:
		return constant(n->a) && constant(n->b) && constant(n->c);
	default:
		return false;
	}
}

uint64_t pf_fold(const struct pf_node *n, bool *ok)
{
	struct pf_eval e = { .ctx = NULL, .r = NULL, .ok = true, .tmp = NULL };
	struct pf_val v;

	if (!n || !constant(n)) {
		*ok = false;
		return 0;
	}
	v = pf_eval(&e, n);
	*ok = e.ok && v.kind == V_NUM;
	return v.n;
}
