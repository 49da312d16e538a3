/*
 * awk's built-in functions (string, arithmetic, I/O) and the format walk
 * shared by printf and sprintf.
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_os.h>
#include <kernel/cmds/awk/awk.h>

/* The arguments of a printf, evaluated as the format consumes them. */
struct fmt_args {
	struct awk *a;
	struct awk_node *next;
};

static void next_arg(struct fmt_args *fa, struct awk_val *v)
{
	*v = (struct awk_val){ 0 };
	if (fa->next) {
		awk_eval(fa->a, fa->next, v);
		fa->next = fa->next->next;
	}
}

static long star_arg(void *ctx)
{
	struct awk_val v;
	long long i;

	next_arg(ctx, &v);
	i = awk_num_to_int(val_tonum(&v));
	val_free(&v);
	return i > 100000 ? 100000 : i < -100000 ? -100000 : (long)i;
}

void awk_format(struct awk *a, struct sh_buf *b, const char *fmt, size_t len, struct awk_node *args)
{
	struct fmt_args fa = { a, args };
	const char *end = fmt + len;

	while (fmt < end && !a->unwind) {
		struct awk_spec sp;
		struct awk_val v;
		size_t used;

		if (*fmt != '%' || fmt + 1 >= end) {
			sh_buf_putc(b, *fmt++);
			continue;
		}
		if (fmt[1] == '%') {
			sh_buf_putc(b, '%');
			fmt += 2;
			continue;
		}
		used = awk_spec_parse(fmt + 1, &sp, star_arg, &fa);
		if (!used) {	/* not a conversion: printed as it is */
			sh_buf_putc(b, *fmt++);
			continue;
		}
		fmt += 1 + used;
		next_arg(&fa, &v);
		if (sp.conv == 's' || (sp.conv == 'c' && v.type != T_NUM)) {
			struct awk_str *s = val_tostr(a, &v, false);

			awk_fmt_str(b, &sp, s->s, sp.conv == 'c' && s->len ? 1 : s->len);
			str_put(s);
		} else {
			awk_fmt_num(b, &sp, val_tonum(&v));
		}
		val_free(&v);
	}
	if (b->oom)
		awk_error(a, "out of memory");
}

/* The regex of an argument: a literal's own, else its string compiled. */
static struct regex *arg_regex(struct awk *a, struct awk_node *n)
{
	struct awk_str *text;
	struct regex *re;

	if (n->kind == N_REGEX)
		return n->re;
	text = awk_eval_str(a, n);
	re = a->unwind ? NULL : awk_regex(a, text);
	str_put(text);
	return re;
}

/* Rounded to the nearest integer, halves up, as substr wants its positions. */
static long long round_int(awk_num v)
{
	return awk_num_to_int(v >= 0 ? v + AWK_ONE / 2 : v - AWK_ONE / 2);
}

static void do_substr(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s = awk_eval_str(a, n->a);
	/* 128 bits: a position plus a count cannot overflow. */
	__int128 len = (__int128)s->len, from = round_int(awk_eval_num(a, n->a->next)), to = len + 1;

	if (n->a->next->next)
		to = from + round_int(awk_eval_num(a, n->a->next->next));
	if (from < 1)
		from = 1;
	if (to > len + 1)
		to = len + 1;
	val_str(out, to > from ? str_make(a, s->s + from - 1, (size_t)(to - from)) : str_get(&awk_empty));
	str_put(s);
}

static void do_index(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s = awk_eval_str(a, n->a), *t = awk_eval_str(a, n->a->next);
	long pos = 0;

	for (size_t i = 0; t->len && i + t->len <= s->len; i++)
		if (!memcmp(s->s + i, t->s, t->len)) {
			pos = (long)i + 1;
			break;
		}
	val_num(out, awk_num_from_int(pos));
	str_put(s);
	str_put(t);
}

struct split_ctx {
	struct awk_array *arr;
	long n;
};

static void split_elem(struct awk *a, void *ctx, const char *s, size_t len)
{
	struct split_ctx *sc = ctx;
	char key[24];
	struct awk_str *k = str_make(a, key, (size_t)snprintf(key, sizeof(key), "%ld", ++sc->n));
	struct awk_val *v = arr_lookup(a, sc->arr, k, true);

	if (v)
		val_input(v, str_make(a, s, len));
	str_put(k);
}

static void do_split(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s = awk_eval_str(a, n->a), *fs = NULL;
	struct awk_node *sep = n->a->next->next;
	struct split_ctx sc = { awk_array_of(a, n->a->next), 0 };
	struct regex *re = NULL;
	long count = 0;

	if (sep && sep->kind == N_REGEX)
		re = sep->re;
	else
		fs = sep ? awk_eval_str(a, sep) : val_tostr(a, &a->globals[V_FS].val, false);
	if (sc.arr && !a->unwind) {
		arr_clear(sc.arr);
		count = awk_split(a, s->s, s->len, fs, re, split_elem, &sc);
	}
	val_num(out, awk_num_from_int(count));
	str_put(s);
	str_put(fs);
}

/* The replacement of sub/gsub: & is the match, \& a literal &, \\ a backslash. */
static void put_repl(struct sh_buf *b, const struct awk_str *repl, const char *m, size_t mlen)
{
	for (size_t i = 0; i < repl->len; i++) {
		char c = repl->s[i];

		if (c == '\\' && i + 1 < repl->len && (repl->s[i + 1] == '&' || repl->s[i + 1] == '\\'))
			sh_buf_putc(b, repl->s[++i]);
		else if (c == '&')
			sh_buf_put(b, m, mlen);
		else
			sh_buf_putc(b, c);
	}
}

static void do_sub(struct awk *a, struct awk_node *n, bool global, struct awk_val *out)
{
	struct awk_node *target = n->a->next->next;
	struct awk_node field0 = { .kind = N_FIELD, .a = &(struct awk_node){ .kind = N_NUM } };
	struct awk_str *repl = awk_eval_str(a, n->a->next), *s;
	struct sh_buf b = { 0 };
	size_t pos = 0, copied = 0, last = (size_t)-1, ms, me;
	struct regex *re;
	struct awk_val v;
	long count = 0;

	if (!target)
		target = &field0;
	s = awk_eval_str(a, target);
	/* The regex last: evaluating the others may push it out of the cache. */
	re = arg_regex(a, n->a);
	while (re && !a->unwind && pos <= s->len && awk_match(re, s->s, s->len, pos, &ms, &me)) {
		/* An empty match right where the last match ended does not count. */
		if (ms == me && ms == last) {
			if (ms >= s->len)
				break;
			pos = ms + 1;
			continue;
		}
		sh_buf_put(&b, s->s + copied, ms - copied);
		put_repl(&b, repl, s->s + ms, me - ms);
		copied = last = me;
		count++;
		if (!global || (ms == me && ms >= s->len))
			break;
		pos = me > ms ? me : me + 1;
	}
	if (count && !a->unwind) {
		sh_buf_put(&b, s->s + copied, s->len - copied);
		if (b.oom) {
			awk_error(a, "out of memory");
		} else {
			val_str(&v, str_make(a, b.s ? b.s : "", b.len));
			awk_assign(a, target, &v);
		}
	}
	sh_buf_free(&b);
	str_put(s);
	str_put(repl);
	val_num(out, awk_num_from_int(count));
}

static void do_match(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s = awk_eval_str(a, n->a);
	struct regex *re = arg_regex(a, n->a->next);
	size_t ms, me;
	long start = 0, len = -1;

	if (re && awk_match(re, s->s, s->len, 0, &ms, &me)) {
		start = (long)ms + 1;
		len = (long)(me - ms);
	}
	awk_set_num(a, V_RSTART, awk_num_from_int(start));
	awk_set_num(a, V_RLENGTH, awk_num_from_int(len));
	val_num(out, awk_num_from_int(start));
	str_put(s);
}

static void do_case(struct awk *a, struct awk_node *n, bool upper, struct awk_val *out)
{
	struct awk_str *s = awk_eval_str(a, n->a), *r = str_make(a, s->s, s->len);

	for (size_t i = 0; i < r->len; i++)
		if (upper && r->s[i] >= 'a' && r->s[i] <= 'z')
			r->s[i] -= 32;
		else if (!upper && r->s[i] >= 'A' && r->s[i] <= 'Z')
			r->s[i] += 32;
	val_str(out, r);
	str_put(s);
}

static void do_length(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s;

	if (!n->a) {
		val_num(out, awk_num_from_int(a->record ? (long long)a->record->len : 0));
		return;
	}
	/* length(array): its element count. */
	if ((n->a->kind == N_VAR || n->a->kind == N_LOCAL) && awk_cell(a, n->a)->arr) {
		val_num(out, awk_num_from_int((long long)awk_cell(a, n->a)->arr->count));
		return;
	}
	s = awk_eval_str(a, n->a);
	val_num(out, awk_num_from_int((long long)s->len));
	str_put(s);
}

/* xorshift64*: rand()'s sequence, the same for the same srand seed. */
static awk_num next_rand(struct awk *a)
{
	u64 x = a->rand_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	a->rand_state = x;
	return (awk_num)((x * 0x2545F4914F6CDD1DULL) % (u64)AWK_ONE);
}

static void seed(struct awk *a, awk_num s)
{
	a->rand_seed = s;
	a->rand_state = (u64)(s / AWK_ONE) * 0x9E3779B97F4A7C15ULL + 0x853c49e6748fea9bULL;
}

void awk_builtin(struct awk *a, struct awk_node *n, struct awk_val *out)
{
	struct awk_str *s;

	switch (n->op) {
	case B_LENGTH: return do_length(a, n, out);
	case B_SUBSTR: return do_substr(a, n, out);
	case B_INDEX: return do_index(a, n, out);
	case B_SPLIT: return do_split(a, n, out);
	case B_SUB: return do_sub(a, n, false, out);
	case B_GSUB: return do_sub(a, n, true, out);
	case B_MATCH: return do_match(a, n, out);
	case B_TOLOWER: return do_case(a, n, false, out);
	case B_TOUPPER: return do_case(a, n, true, out);
	case B_SPRINTF: {
		struct sh_buf b = { 0 };

		s = awk_eval_str(a, n->a);
		awk_format(a, &b, s->s, s->len, n->a->next);
		str_put(s);
		val_str(out, b.oom ? str_get(&awk_empty) : str_make(a, b.s ? b.s : "", b.len));
		sh_buf_free(&b);
		return;
	}
	case B_INT: {
		awk_num x = awk_eval_num(a, n->a);

		return val_num(out, x - x % AWK_ONE);
	}
	case B_SQRT: {
		awk_num x = awk_eval_num(a, n->a);

		if (x < 0)
			awk_error(a, "sqrt of a negative number");
		return val_num(out, awk_num_sqrt(x));
	}
	case B_EXP:
		return val_num(out, awk_num_exp(awk_eval_num(a, n->a)));
	case B_LOG: {
		awk_num x = awk_eval_num(a, n->a);

		if (x <= 0)
			awk_error(a, "log of a number not above zero");
		return val_num(out, awk_num_log(x));
	}
	case B_SIN:
		return val_num(out, awk_num_sin(awk_eval_num(a, n->a)));
	case B_COS:
		return val_num(out, awk_num_cos(awk_eval_num(a, n->a)));
	case B_ATAN2: {
		awk_num y = awk_eval_num(a, n->a);

		return val_num(out, awk_num_atan2(y, awk_eval_num(a, n->a->next)));
	}
	case B_RAND:
		if (!a->rand_state)
			seed(a, 0);
		return val_num(out, next_rand(a));
	case B_SRAND: {
		awk_num prev = a->rand_seed;

		seed(a, n->a ? awk_eval_num(a, n->a) : awk_num_from_int((long long)(sh_os->now_ns() / 1000000000)));
		return val_num(out, prev);
	}
	case B_SYSTEM:
		s = awk_eval_str(a, n->a);
		val_num(out, awk_num_from_int(a->unwind ? 0 : awk_system(a, s)));
		str_put(s);
		return;
	case B_CLOSE:
		s = awk_eval_str(a, n->a);
		val_num(out, awk_num_from_int(awk_close(a, s)));
		str_put(s);
		return;
	case B_FFLUSH:
		awk_flush_all(a);
		return val_num(out, 0);
	}
}
