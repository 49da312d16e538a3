/*
 * The user_events field grammar and the record layout it implies. Each
 * field is `type name`, or `struct type name size`; fields are split by
 * ';' and words by single spaces (two spaces make an empty word, which
 * Linux rejects, so we do too). Types with a space in them (`unsigned
 * int`, `struct foo`, `__data_loc char[]`) are recognised by their first
 * word. Fields are packed in declaration order after the common fields.
 * Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/trace_output.h>
#include <trace/user_events_fields.h>

/* Fixed-size types and their print conversion. */
static const struct {
	const char *type;
	u8 size;
	const char *conv;
} user_basic_types[] = {
	{ "s64", 8, "%lld" }, { "u64", 8, "%llu" }, { "s32", 4, "%d" }, { "u32", 4, "%u" },
	{ "int", 4, "%d" }, { "unsigned int", 4, "%u" }, { "s16", 2, "%d" }, { "u16", 2, "%u" },
	{ "short", 2, "%d" }, { "unsigned short", 2, "%u" }, { "s8", 1, "%d" }, { "u8", 1, "%u" },
	{ "char", 1, "%d" }, { "unsigned char", 1, "%u" },
};

/* Types whose first word is not the whole type: the type runs to the next space. */
static const char *const user_two_word_prefixes[] = {
	"unsigned ", "struct ", "__data_loc unsigned ", "__data_loc ", "__rel_loc unsigned ",
	"__rel_loc ",
};

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void user_event_split(char *cmd, char **name, char **flags, char **args)
{
	char *sp = strchr(cmd, ' '), *colon;

	if (sp)
		*sp++ = '\0';
	colon = strchr(cmd, ':');
	if (colon)
		*colon++ = '\0';
	*name = cmd;
	*flags = colon;
	*args = sp;
}

/* N of `char[N]`: decimal, octal or hex, at most 7 characters, at most 1024. */
static int array_size(const char *type)
{
	const char *open = strchr(type, '['), *close;
	char digits[8];
	unsigned long long n;

	if (!open)
		return -EINVAL;
	close = strchr(open, ']');
	/* Linux copies what follows '[' into 8 bytes: a longer rest is an error */
	if (strlen(open + 1) >= sizeof(digits) || !close)
		return -EINVAL;
	memcpy(digits, open + 1, (size_t)(close - open - 1));
	digits[close - open - 1] = '\0';
	if (kstrtoull(digits, 0, &n) || n > USER_FIELD_ARRAY_MAX)
		return -EINVAL;
	return (int)n;
}

/* Bytes of a field of a basic type; -EINVAL for a type we do not know. */
static int basic_size(const char *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(user_basic_types); i++)
		if (!strcmp(type, user_basic_types[i].type))
			return user_basic_types[i].size;
	if (has_prefix(type, "char[") || has_prefix(type, "unsigned char["))
		return array_size(type);
	if (has_prefix(type, "__data_loc ") || has_prefix(type, "__rel_loc "))
		return sizeof(u32);
	return -EINVAL;
}

/* Append one field: type and name are copied. */
static int add_field(struct user_event_fields *f, const char *type, const char *name,
		     u32 offset, u32 size)
{
	struct user_field *nf = krealloc(f->field, (f->count + 1) * sizeof(*nf), GFP_KERNEL);
	struct user_field *uf;

	if (!nf)
		return -ENOMEM;
	f->field = nf;
	uf = &nf[f->count];
	memset(uf, 0, sizeof(*uf));
	uf->type = kstrdup(type, GFP_KERNEL);
	uf->name = kstrdup(name, GFP_KERNEL);
	f->count++;
	if (!uf->type || !uf->name)
		return -ENOMEM;
	uf->offset = offset;
	uf->size = size;
	uf->is_signed = type[0] != 'u';
	if (has_prefix(type, "__data_loc "))
		uf->loc = USER_LOC_DATA;
	else if (has_prefix(type, "__rel_loc "))
		uf->loc = USER_LOC_REL;
	uf->ensure_null = uf->loc != USER_LOC_NONE && strstr(type, "char");
	return 0;
}

/* One field's text (modified in place); *offset moves past it. Empty text adds nothing. */
static int parse_field(struct user_event_fields *f, char *text, u32 *offset)
{
	char *type = NULL, *name = NULL, *part;
	bool is_struct = false;
	unsigned int depth = 0;
	long long size = -EINVAL;

	text += strspn(text, " ");
	if (!*text)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(user_two_word_prefixes); i++) {
		size_t len = strlen(user_two_word_prefixes[i]);

		if (strncmp(text, user_two_word_prefixes[i], len))
			continue;
		is_struct = i == 1;
		type = text;
		text = strchr(text + len, ' ');
		if (!text)
			return -EINVAL;
		*text++ = '\0';
		depth = 1;
		break;
	}
	while (text) {
		part = text;
		text = strchr(text, ' ');
		if (text)
			*text++ = '\0';
		switch (depth++) {
		case 0:
			type = part;
			break;
		case 1:
			name = part;
			break;
		case 2: {
			unsigned long long n;

			if (!is_struct || kstrtoull(part, 10, &n) || n > 0xffffffffULL)
				return -EINVAL;
			size = (long long)n;
			break;
		}
		default:
			return -EINVAL;
		}
	}
	if (depth < 2 || !name)
		return -EINVAL;
	if (depth == 2)
		size = basic_size(type);
	if (size <= 0)
		return size ? (int)size : -EINVAL;
	/* Spoor's field table keeps 16-bit offsets: a record past that cannot be described */
	if (*offset + size > 0xffff)
		return -EINVAL;
	if (add_field(f, type, name, *offset, (u32)size))
		return -ENOMEM;
	*offset += (u32)size;
	return 0;
}

/* The conversion of a field in the print fmt, and what it prints. */
static void field_print_spec(const struct user_field *uf, const char **conv, const char **fn)
{
	*fn = NULL;
	if (uf->loc != USER_LOC_NONE && strstr(uf->type, "char")) {
		*conv = "%s";
		*fn = uf->loc == USER_LOC_DATA ? "__get_str" : "__get_rel_str";
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(user_basic_types); i++) {
		if (!strcmp(uf->type, user_basic_types[i].type)) {
			*conv = user_basic_types[i].conv;
			return;
		}
	}
	/* char[N]; anything else (a struct) Linux prints as a u64 */
	*conv = strstr(uf->type, "char[") ? "%s" : "%llu";
}

/* `"a=%u s=%s", REC->a, __get_str(s)`; returns the length needed (snprintf's way). */
static size_t build_print_fmt(const struct user_event_fields *f, char *buf, size_t size)
{
	size_t n = 0;
	const char *conv, *fn;

#define PUT(...) (n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__))
	PUT("\"");
	for (unsigned int i = 0; i < f->count; i++) {
		field_print_spec(&f->field[i], &conv, &fn);
		PUT("%s%s=%s", i ? " " : "", f->field[i].name, conv);
	}
	PUT("\"");
	for (unsigned int i = 0; i < f->count; i++) {
		field_print_spec(&f->field[i], &conv, &fn);
		if (fn)
			PUT(", %s(%s)", fn, f->field[i].name);
		else
			PUT(", REC->%s", f->field[i].name);
	}
#undef PUT
	return n;
}

/* "type name[ size]" joined by "; ": the canonical text of the declaration. */
static size_t build_text(const struct user_event_fields *f, char *buf, size_t size)
{
	size_t n = 0;

	for (unsigned int i = 0; i < f->count; i++) {
		const struct user_field *uf = &f->field[i];

		n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s %s",
				      i ? "; " : "", uf->type, uf->name);
		if (has_prefix(uf->type, "struct "))
			n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
					      " %u", uf->size);
	}
	return n;
}

/*
 * The field table the tracing core reads. A char[N] is listed as
 * "char[]" with size N: the format file then shows `char name[]`, as
 * Linux's does for user events, and filters and hist read N from size.
 */
static int build_event_fields(struct user_event_fields *f)
{
	f->event_fields = kzalloc((f->count + 1) * sizeof(*f->event_fields), GFP_KERNEL);
	if (!f->event_fields)
		return -ENOMEM;
	for (unsigned int i = 0; i < f->count; i++) {
		const struct user_field *uf = &f->field[i];
		struct trace_event_field *ef = &f->event_fields[i];
		const char *dim = strchr(uf->type, '[');

		ef->name = uf->name;
		ef->type = uf->type;
		if (dim && uf->loc == USER_LOC_NONE) {
			size_t len = (size_t)(dim - uf->type);
			char *t = kmalloc(len + 3, GFP_KERNEL);

			if (!t)
				return -ENOMEM;
			memcpy(t, uf->type, len);
			strcpy(t + len, "[]");
			ef->type = t;
		}
		ef->offset = (u16)uf->offset;
		ef->size = (u16)uf->size;
		ef->is_signed = uf->is_signed;
		if (uf->loc == USER_LOC_DATA && strstr(uf->type, "char"))
			ef->filter_type = FILTER_DYN_STRING;
		else if (uf->loc == USER_LOC_REL && strstr(uf->type, "char"))
			ef->filter_type = FILTER_RDYN_STRING;
		else if (dim && strstr(uf->type, "char"))
			ef->filter_type = FILTER_STATIC_STRING;
		else
			ef->filter_type = FILTER_OTHER;
	}
	return 0;
}

static char *alloc_built(const struct user_event_fields *f,
			 size_t (*build)(const struct user_event_fields *, char *, size_t))
{
	size_t len = build(f, NULL, 0);
	char *s = kmalloc(len + 1, GFP_KERNEL);

	if (s) {
		s[0] = '\0';	/* no fields: nothing is printed */
		build(f, s, len + 1);
	}
	return s;
}

int user_event_fields_parse(const char *args, struct user_event_fields *out)
{
	u32 offset = sizeof(struct trace_entry);
	char *copy = NULL, *field, *next;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (args) {
		copy = kstrdup(args, GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	for (field = copy; field && !ret; field = next) {
		next = strchr(field, ';');
		if (next)
			*next++ = '\0';
		ret = parse_field(out, field, &offset);
	}
	kfree(copy);
	out->size = offset;
	if (!ret)
		ret = build_event_fields(out);
	if (!ret) {
		out->print_fmt = alloc_built(out, build_print_fmt);
		out->text = alloc_built(out, build_text);
		if (!out->print_fmt || !out->text)
			ret = -ENOMEM;
	}
	if (ret)
		user_event_fields_free(out);
	return ret;
}

void user_event_fields_free(struct user_event_fields *f)
{
	for (unsigned int i = 0; i < f->count; i++) {
		if (f->event_fields && f->event_fields[i].type != f->field[i].type)
			kfree((void *)f->event_fields[i].type);
		kfree(f->field[i].type);
		kfree(f->field[i].name);
	}
	kfree(f->field);
	kfree(f->event_fields);
	kfree(f->print_fmt);
	kfree(f->text);
	memset(f, 0, sizeof(*f));
}

/*
 * Canonical form of a declaration without parsing it (Linux compares
 * words, so text its parser would reject can still match): each field's
 * words joined by one space, fields by "; ", empty fields dropped.
 */
static char *canonical(const char *args)
{
	char *out = kmalloc(strlen(args) + 2, GFP_KERNEL), *o = out;
	bool in_field = false, pending_space = false;

	if (!out)
		return NULL;
	for (const char *p = args; *p; p++) {
		if (*p == ';') {
			in_field = pending_space = false;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			pending_space = in_field;
			continue;
		}
		if (!in_field && o != out) {
			*o++ = ';';
			*o++ = ' ';
		} else if (pending_space) {
			*o++ = ' ';
		}
		pending_space = false;
		in_field = true;
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

bool user_event_fields_match(const struct user_event_fields *f, const char *args)
{
	char *c;
	bool match;

	if (!args)
		return f->count == 0;
	c = canonical(args);
	if (!c)
		return false;
	match = !strcmp(c, f->text);
	kfree(c);
	return match;
}

int user_event_validate(const struct user_event_fields *f, const void *rec, u32 len)
{
	const u8 *base = rec;

	for (unsigned int i = 0; i < f->count; i++) {
		const struct user_field *uf = &f->field[i];
		u32 loc, start, end;

		if (uf->loc == USER_LOC_NONE)
			continue;
		memcpy(&loc, base + uf->offset, sizeof(loc));	/* len >= f->size: inside */
		start = loc & 0xffff;
		if (uf->loc == USER_LOC_REL)
			start += uf->offset + (u32)sizeof(loc);
		end = start + (loc >> 16);
		if (end > len)
			return -EFAULT;
		/* as Linux: the byte before the end, even for an empty string */
		if (uf->ensure_null && (!end || base[end - 1] != '\0'))
			return -EFAULT;
	}
	return 0;
}

/* A number of 1, 2, 4 or 8 bytes as Linux's print_fields shows one. */
static void print_number(struct trace_seq *s, const u8 *p, u32 size)
{
	switch (size) {
	case 1:
		/* Linux's isprint() takes Latin-1 letters too: every byte but controls */
		if ((*p >= 0x20 && *p < 0x7f) || *p >= 0xa0)
			trace_seq_printf(s, "'%c'", *p);
		trace_seq_printf(s, "(%d)", *p);
		break;
	case 2: {
		u16 v;

		memcpy(&v, p, 2);
		trace_seq_printf(s, "0x%x (%d)", v, v);
		break;
	}
	case 4: {
		u32 v;

		memcpy(&v, p, 4);
		trace_seq_printf(s, "0x%x (%d)", v, (int)v);
		break;
	}
	case 8: {
		u64 v;

		memcpy(&v, p, 8);
		trace_seq_printf(s, "0x%lx (%ld)", v, (long)v);
		break;
	}
	default:
		trace_seq_puts(s, "<INVALID-SIZE>");
	}
}

int user_event_print_fields(struct trace_seq *s, const struct user_event_fields *f,
			    const void *rec, u32 len)
{
	const u8 *base = rec;

	for (unsigned int i = 0; i < f->count; i++) {
		const struct user_field *uf = &f->field[i];
		const struct trace_event_field *ef = &f->event_fields[i];
		const u8 *p = base + uf->offset;

		trace_seq_printf(s, "%s%s=", i ? " " : "", uf->name);
		if (uf->offset + uf->size > len) {
			trace_seq_puts(s, "<OVERFLOW>");
			continue;
		}
		if (ef->filter_type == FILTER_STATIC_STRING) {
			trace_seq_printf(s, "%.*s", (int)strnlen((const char *)p, uf->size), p);
		} else if (ef->filter_type == FILTER_DYN_STRING ||
			   ef->filter_type == FILTER_RDYN_STRING) {
			u32 loc, off;

			memcpy(&loc, p, 4);
			off = (loc & 0xffff) + (uf->loc == USER_LOC_REL ? uf->offset + 4 : 0);
			if (off + (loc >> 16) > len)
				trace_seq_puts(s, "<OVERFLOW>");
			else
				trace_seq_printf(s, "%.*s", (int)strnlen((const char *)base + off,
									 loc >> 16), base + off);
		} else if (uf->loc != USER_LOC_NONE) {
			u32 loc;

			/* a non-char dynamic array: Linux prints its place, ARRAY[...] */
			memcpy(&loc, p, 4);
			trace_seq_printf(s, "ARRAY[");
			for (u32 j = 0; j < (loc >> 16); j++) {
				u32 off = (loc & 0xffff) + (uf->loc == USER_LOC_REL ? uf->offset + 4 : 0);

				if (off + j >= len)
					break;
				trace_seq_printf(s, "%s%02x", j ? "," : "", base[off + j]);
			}
			trace_seq_putc(s, ']');
		} else {
			print_number(s, p, uf->size);
		}
	}
	return s->full ? -EOVERFLOW : 0;
}
