/*
 * awk's values (awk.h): refcounted strings, the number/string/strnum
 * distinction of POSIX with its comparison rules, and associative arrays
 * (hash chains, plus a list in insertion order that for-in walks).
 */
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/cmds/awk/awk.h>

/* What an allocation that failed hands out, after reporting the error: never freed. */
struct awk_str awk_empty = { .ref = 1, .len = 0, .s = "" };

struct awk_str *str_new(struct awk *a, size_t len)
{
	struct awk_str *s = len < ((size_t)1 << 40) ? kmalloc(sizeof(*s) + len + 1, GFP_KERNEL) : NULL;

	if (!s) {
		if (a)
			awk_error(a, "out of memory");
		return str_get(&awk_empty);
	}
	s->ref = 1;
	s->len = len;
	s->s[len] = '\0';
	return s;
}

struct awk_str *str_make(struct awk *a, const char *p, size_t len)
{
	struct awk_str *s = str_new(a, len);

	if (s != &awk_empty)
		memcpy(s->s, p, len);
	return s;
}

void str_put(struct awk_str *s)
{
	if (s && s != &awk_empty && !--s->ref)
		kfree(s);
}

void val_free(struct awk_val *v)
{
	str_put(v->str);
	*v = (struct awk_val){ 0 };
}

void val_copy(struct awk_val *dst, const struct awk_val *src)
{
	*dst = *src;
	if (dst->str)
		str_get(dst->str);
}

void val_input(struct awk_val *v, struct awk_str *s)
{
	awk_num n;

	if (awk_num_looks(s->s, s->len, &n))
		*v = (struct awk_val){ .type = T_STRNUM, .num = n, .str = s };
	else
		val_str(v, s);
}

awk_num val_tonum(const struct awk_val *v)
{
	awk_num n = 0;

	switch (v->type) {
	case T_NUM:
	case T_STRNUM:
		return v->num;
	case T_STR:
		awk_num_scan(v->str->s, v->str->len, &n);
		return n;
	default:
		return 0;
	}
}

void awk_num_text(struct awk *a, struct sh_buf *b, awk_num n, const struct awk_str *fmt)
{
	struct awk_spec sp = { .prec = -1, .conv = 'd' };
	bool done = false;

	if (n % AWK_ONE == 0) {
		awk_fmt_num(b, &sp, n);
		return;
	}
	/* CONVFMT and OFMT: the first conversion gets the number, the rest is text. */
	for (const char *f = fmt->s; *f; f++) {
		size_t used;

		if (*f != '%' || done) {
			sh_buf_putc(b, *f);
			continue;
		}
		if (f[1] == '%') {
			sh_buf_putc(b, *++f);
			continue;
		}
		used = awk_spec_parse(f + 1, &sp, NULL, NULL);
		if (!used || sp.conv == 's' || sp.conv == 'c') {
			sp = (struct awk_spec){ .prec = 6, .conv = 'g' };
			used = 0;
		}
		awk_fmt_num(b, &sp, n);
		f += used;
		done = true;
	}
	if (!done) {
		sp = (struct awk_spec){ .prec = 6, .conv = 'g' };
		awk_fmt_num(b, &sp, n);
	}
}

struct awk_str *val_tostr(struct awk *a, const struct awk_val *v, bool output)
{
	struct sh_buf b = { 0 };
	struct awk_str *s;

	switch (v->type) {
	case T_STR:
	case T_STRNUM:
		return str_get(v->str);
	case T_UNINIT:
		return str_get(&awk_empty);
	default:
		break;
	}
	awk_num_text(a, &b, v->num, a->globals[output ? V_OFMT : V_CONVFMT].val.str ?: &awk_empty);
	if (b.oom) {
		awk_error(a, "out of memory");
		s = str_get(&awk_empty);
	} else {
		s = str_make(a, b.s ? b.s : "", b.len);
	}
	sh_buf_free(&b);
	return s;
}

bool val_true(const struct awk_val *v)
{
	switch (v->type) {
	case T_NUM:
	case T_STRNUM:
		return v->num != 0;
	case T_STR:
		return v->str->len != 0;
	default:
		return false;
	}
}

static int str_compare(const struct awk_str *x, const struct awk_str *y)
{
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

int val_compare(struct awk *a, const struct awk_val *x, const struct awk_val *y)
{
	struct awk_str *xs, *ys;
	int c;

	/* Numbers, strnums and uninitialised values compare as numbers with each other. */
	if (x->type != T_STR && y->type != T_STR) {
		awk_num m = val_tonum(x), n = val_tonum(y);

		return m < n ? -1 : m > n;
	}
	xs = val_tostr(a, x, false);
	ys = val_tostr(a, y, false);
	c = str_compare(xs, ys);
	str_put(xs);
	str_put(ys);
	return c;
}

struct awk_array *arr_new(struct awk *a)
{
	struct awk_array *arr = kzalloc(sizeof(*arr), GFP_KERNEL);

	if (!arr) {
		awk_error(a, "out of memory");
		return NULL;
	}
	arr->ref = 1;
	return arr;
}

static u32 hash_key(const struct awk_str *k)
{
	u32 h = 2166136261u;

	for (size_t i = 0; i < k->len; i++)
		h = (h ^ (unsigned char)k->s[i]) * 16777619u;
	return h;
}

static struct awk_elem **find(struct awk_array *arr, const struct awk_str *key, u32 h)
{
	struct awk_elem **pp;

	if (!arr->nbuckets)
		return NULL;
	for (pp = &arr->buckets[h % arr->nbuckets]; *pp; pp = &(*pp)->hnext)
		if ((*pp)->hash == h && !str_compare((*pp)->key, key))
			return pp;
	return NULL;
}

static bool grow(struct awk_array *arr)
{
	size_t n = arr->nbuckets ? arr->nbuckets * 4 : 16;
	struct awk_elem **b = kzalloc(sizeof(*b) * n, GFP_KERNEL);

	if (!b)
		return false;
	for (struct awk_elem *e = arr->first; e; e = e->next) {
		e->hnext = b[e->hash % n];
		b[e->hash % n] = e;
	}
	kfree(arr->buckets);
	arr->buckets = b;
	arr->nbuckets = n;
	return true;
}

struct awk_val *arr_lookup(struct awk *a, struct awk_array *arr, struct awk_str *key, bool create)
{
	u32 h = hash_key(key);
	struct awk_elem **pp = find(arr, key, h), *e;

	if (pp)
		return &(*pp)->val;
	if (!create)
		return NULL;
	if (arr->count >= arr->nbuckets * 2 && !grow(arr) && !arr->nbuckets)
		goto oom;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		goto oom;
	e->key = str_get(key);
	e->hash = h;
	e->hnext = arr->buckets[h % arr->nbuckets];
	arr->buckets[h % arr->nbuckets] = e;
	e->prev = arr->last;
	if (arr->last)
		arr->last->next = e;
	else
		arr->first = e;
	arr->last = e;
	arr->count++;
	return &e->val;
oom:
	awk_error(a, "out of memory");
	return NULL;
}

static void elem_free(struct awk_array *arr, struct awk_elem *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		arr->first = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		arr->last = e->prev;
	arr->count--;
	str_put(e->key);
	val_free(&e->val);
	kfree(e);
}

void arr_delete(struct awk_array *arr, struct awk_str *key)
{
	struct awk_elem **pp = find(arr, key, hash_key(key)), *e;

	if (!pp)
		return;
	e = *pp;
	*pp = e->hnext;
	elem_free(arr, e);
}

void arr_clear(struct awk_array *arr)
{
	while (arr->first)
		elem_free(arr, arr->first);
	kfree(arr->buckets);
	arr->buckets = NULL;
	arr->nbuckets = 0;
}

void arr_put(struct awk_array *arr)
{
	if (arr && !--arr->ref) {
		arr_clear(arr);
		kfree(arr);
	}
}
