/*
 * Event format files -> struct rep_event, and reading fields out of
 * records. A format file is Linux's events/<sys>/<name>/format text:
 *
 *	name: sched_switch
 *	ID: 372
 *	format:
 *		field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *		...
 *	print fmt: "prev_comm=%s ...", REC->prev_comm, ...
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"
#include "host-tools/spoor.h"

#define MAX_EVENT_ID	65536

void rep_ctx_init(struct rep_ctx *ctx, struct tdat *file)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->by_id = calloc(MAX_EVENT_ID, sizeof(*ctx->by_id));
	if (!ctx->by_id)
		abort();
	ob_init(&ctx->scratch, NULL);
	ctx->file = file;
	ctx->long_size = file ? file->long_size : 8;
	ctx->big_endian = file ? file->big_endian : false;
}

static void free_event(struct rep_event *ev)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++) {
		free(ev->fields[i].name);
		free(ev->fields[i].type);
	}
	free(ev->fields);
	free(ev->system);
	free(ev->name);
	free(ev->head);
	pf_free(ev->print);
	free(ev);
}

void rep_ctx_free(struct rep_ctx *ctx)
{
	for (unsigned int i = 0; i < ctx->nr_events; i++)
		free_event(ctx->events[i]);
	free(ctx->events);
	free(ctx->by_id);
	syms_free(&ctx->syms);
	ob_free(&ctx->scratch);
	free(ctx->fn_chain);
	memset(ctx, 0, sizeof(*ctx));
}

void rep_diag(struct rep_ctx *ctx, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->file)
		tdat_diag(ctx->file, offset, "%s", msg);
	else
		spoor_err("report: offset %#llx: %s", (unsigned long long)offset, msg);
	ctx->errors++;
}

void rep_warn(struct rep_ctx *ctx, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	spoor_err("report: %s%soffset %#llx: warning: %s", ctx->file ? ctx->file->path : "",
		  ctx->file ? ": " : "", (unsigned long long)offset, msg);
}

struct pf_prog *rep_event_print(struct rep_ctx *ctx, struct rep_event *ev)
{
	const char *err = NULL;
	size_t err_pos = 0;

	if (!ev->print_src)
		return ev->print;
	ev->print = pf_compile(ev, ev->print_src, ev->print_len, &err, &err_pos);
	if (!ev->print)
		rep_warn(ctx, ev->print_offset + err_pos, "%s:%s: print fmt: %s", ev->system, ev->name, err);
	ev->print_src = NULL;
	/* What trace-cmd cannot print (and, with -N, what only its plugins can) prints as it fails. */
	if (ev->print && !pf_printable(ev->print, ctx->no_plugins)) {
		pf_free(ev->print);
		ev->print = NULL;
	}
	return ev->print;
}

const struct rep_field *rep_find_field(const struct rep_event *ev, const char *name)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

static char *dup_range(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

/* Does [p, end) start with key? The text is a piece of the file: no NUL to stop at. */
static bool starts(const char *p, const char *end, const char *key)
{
	size_t n = strlen(key);

	return (size_t)(end - p) >= n && !memcmp(p, key, n);
}

/* The decimal number at p (spaces before it skipped); false when there is none. */
static bool decimal(const char *p, const char *end, unsigned long *v)
{
	const char *d;

	while (p < end && *p == ' ')
		p++;
	*v = 0;
	for (d = p; d < end && *d >= '0' && *d <= '9' && *v <= 0xffffffffu; d++)
		*v = *v * 10 + (unsigned long)(*d - '0');
	return d != p;
}

/* The value after "key:" in a field line, up to ';'. */
static bool field_attr(const char *line, const char *end, const char *key, unsigned long *v)
{
	size_t kl = strlen(key);

	for (const char *p = line; p + kl < end; p++)
		if (!memcmp(p, key, kl))
			return decimal(p + kl, end, v);
	return false;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * "field:TYPE NAME[N];" -> type and name. The name is the last identifier
 * before an optional [..]; the type is everything else, with the array
 * part attached ("char[16]") the way the raw view and tests expect.
 */
static bool parse_decl(const char *decl, size_t n, struct rep_field *f)
{
	const char *end = decl + n, *brk = NULL, *name_end, *name;
	size_t tl;

	while (end > decl && end[-1] == ' ')
		end--;
	/* An array suffix belongs to the name ("char comm[16]"), not to "__data_loc char[]". */
	if (end > decl && end[-1] == ']') {
		for (brk = end - 1; brk > decl && *brk != '['; brk--)
			;
		if (*brk != '[')
			return false;
	}
	name_end = brk ? brk : end;
	while (name_end > decl && name_end[-1] == ' ')
		name_end--;
	name = name_end;
	while (name > decl && ident_char(name[-1]))
		name--;
	if (name == name_end || name == decl)
		return false;
	f->name = dup_range(name, (size_t)(name_end - name));
	tl = (size_t)(name - decl);
	while (tl && decl[tl - 1] == ' ')
		tl--;
	if (brk) {
		size_t al = (size_t)(end - brk);

		f->type = malloc(tl + al + 1);
		if (f->type) {
			memcpy(f->type, decl, tl);
			memcpy(f->type + tl, brk, al);
			f->type[tl + al] = 0;
		}
		f->flags |= FIELD_ARRAY;
	} else {
		f->type = dup_range(decl, tl);
	}
	return f->name && f->type;
}

/* What the type text says about how to read and show the field. */
static void classify(struct rep_field *f, int long_size)
{
	const char *t = f->type;
	bool is_char;

	if (!strncmp(t, "__data_loc ", 11)) {
		f->flags |= FIELD_DYNAMIC;
		t += 11;
	} else if (!strncmp(t, "__rel_loc ", 10)) {
		f->flags |= FIELD_DYNAMIC | FIELD_RELATIVE;
		t += 10;
	}
	if (!strncmp(t, "const ", 6))
		t += 6;
	is_char = !strncmp(t, "char", 4) && (t[4] == '[' || t[4] == 0 || t[4] == ' ');
	if (f->flags & FIELD_DYNAMIC) {
		f->flags &= ~FIELD_ARRAY;
		if (is_char)
			f->flags |= FIELD_STRING;
		return;
	}
	if (strchr(t, '*'))
		f->flags |= FIELD_POINTER;
	if (f->flags & FIELD_ARRAY) {
		const char *brk = strchr(t, '[');
		unsigned long n = brk ? strtoul(brk + 1, NULL, 0) : 0;

		/* trace-cmd takes u8/s8 arrays for text too (when printable). */
		if (is_char || strstr(t, "u8") || strstr(t, "s8"))
			f->flags |= FIELD_STRING;
		f->elem_size = n && f->size % n == 0 ? f->size / (unsigned int)n : 1;
		return;
	}
	if (!strcmp(t, "long") || !strcmp(t, "unsigned long") || !strcmp(t, "long int") ||
	    !strcmp(t, "unsigned long int"))
		f->flags |= FIELD_LONG;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		f->flags |= FIELD_BAD;
	(void)long_size;
}

static bool add_field(struct rep_event *ev, struct rep_field *f)
{
	struct rep_field *n = realloc(ev->fields, (ev->nr_fields + 1) * sizeof(*n));

	if (!n)
		return false;
	ev->fields = n;
	ev->fields[ev->nr_fields++] = *f;
	return true;
}

static bool add_event(struct rep_ctx *ctx, struct rep_event *ev)
{
	struct rep_event **n = realloc(ctx->events, (ctx->nr_events + 1) * sizeof(*n));

	if (!n)
		return false;
	ctx->events = n;
	ctx->events[ctx->nr_events++] = ev;
	ctx->by_id[ev->id] = ev;
	return true;
}

/* The line [p, end) begins at; *nl at its end, *body after its indentation. */
static void line_at(const char *p, const char *end, const char **nl, const char **body)
{
	const char *q;

	*nl = memchr(p, '\n', (size_t)(end - p));
	if (!*nl)
		*nl = end;
	for (q = p; q < *nl && (*q == ' ' || *q == '\t'); q++)
		;
	*body = q;
}

struct rep_event *rep_add_format(struct rep_ctx *ctx, const char *system, const char *text,
				 size_t len, uint64_t file_offset)
{
	struct rep_event *ev = calloc(1, sizeof(*ev));
	const char *p = text, *end = text + len, *nl, *q;
	bool have_id = false;

	if (!ev)
		return NULL;
	ev->format = text;
	ev->format_len = len;
	ev->format_offset = file_offset;
	ev->system = strdup(system ? system : "");
	/* Name and ID come first; the fields wait for rep_event_load. */
	for (; p < end && !starts(p, end, "format:"); p = nl + 1) {
		line_at(p, end, &nl, &q);
		if (starts(q, nl, "name:") && !ev->name) {
			for (q += 5; q < nl && *q == ' '; q++)
				;
			ev->name = dup_range(q, (size_t)(nl - q));
		} else if (starts(q, nl, "ID:")) {
			unsigned long id;

			have_id = decimal(q + 3, nl, &id);
			if (have_id && id >= MAX_EVENT_ID) {
				rep_diag(ctx, file_offset + (uint64_t)(q - text), "event ID %lu out of range", id);
				goto bad;
			}
			ev->id = (unsigned int)id;
		}
	}
	if (!ev->name || !have_id) {
		rep_diag(ctx, file_offset, "format file without %s", !ev->name ? "a name" : "an ID");
		goto bad;
	}
	if (ctx->by_id[ev->id]) {
		rep_diag(ctx, file_offset, "%s:%s: ID %u already belongs to %s:%s", ev->system, ev->name,
			 ev->id, ctx->by_id[ev->id]->system, ctx->by_id[ev->id]->name);
		goto bad;
	}
	if (add_event(ctx, ev))
		return ev;
bad:
	free_event(ev);
	return NULL;
}

/* One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line into ev; false if unreadable. */
static bool load_field(struct rep_ctx *ctx, struct rep_event *ev, const char *q, const char *nl)
{
	struct rep_field f = { 0 };
	const char *semi = memchr(q, ';', (size_t)(nl - q));
	unsigned long off, size, sgn = 0;

	q += 6;
	if (!semi || !field_attr(semi, nl, "offset:", &off) || !field_attr(semi, nl, "size:", &size) ||
	    off > 0xffff || size > 0xffff || !parse_decl(q, (size_t)(semi - q), &f))
		goto bad;
	field_attr(semi, nl, "signed:", &sgn);
	f.offset = (unsigned int)off;
	f.size = (unsigned int)size;
	f.is_signed = sgn != 0;
	/* A size no number fits (uuid_t) prints as bytes, as trace-cmd shows it. */
	classify(&f, ctx->long_size);
	if (add_field(ev, &f))
		return true;
bad:
	free(f.name);
	free(f.type);
	return false;
}

bool rep_event_load(struct rep_ctx *ctx, struct rep_event *ev)
{
	const char *text = ev->format, *p = text, *end = text + ev->format_len, *nl, *q;
	bool in_common = true;

	if (!ev->format)
		return !ev->bad;
	ev->format = NULL;
	for (; p < end; p = nl + 1) {
		line_at(p, end, &nl, &q);
		if (q == nl) {
			in_common = ev->nr_fields == 0;
		} else if (starts(q, nl, "field:")) {
			if (!load_field(ctx, ev, q, nl)) {
				rep_diag(ctx, ev->format_offset + (uint64_t)(p - text),
					 "%s:%s: unreadable field line", ev->system, ev->name);
				ev->bad = true;
				return false;
			}
			if (in_common)
				ev->nr_common = ev->nr_fields;
		} else if (starts(q, nl, "print fmt:")) {
			for (q += 10; q < end && *q == ' '; q++)
				;
			ev->print_src = q;
			ev->print_len = (size_t)(end - q);
			while (ev->print_len && (q[ev->print_len - 1] == '\n' || !q[ev->print_len - 1]))
				ev->print_len--;
			ev->print_offset = ev->format_offset + (uint64_t)(q - text);
			break;
		}
	}
	if (!ev->nr_fields) {
		rep_diag(ctx, ev->format_offset, "%s:%s: format file without fields", ev->system, ev->name);
		ev->bad = true;
		return false;
	}
	rep_plugin_setup(ev);
	return true;
}

struct rep_event *rep_parse_format(struct rep_ctx *ctx, const char *system, const char *text,
				   size_t len, uint64_t file_offset)
{
	struct rep_event *ev = rep_add_format(ctx, system, text, len, file_offset);

	return ev && rep_event_load(ctx, ev) ? ev : NULL;
}

uint64_t rep_read_num(const struct rep_ctx *ctx, const struct rep_record *r,
		      unsigned int offset, unsigned int size, bool is_signed)
{
	const unsigned char *p = r->data + offset;

	if (offset + size > r->size)
		return 0;
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)*p : *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		if (ctx->big_endian)
			v = __builtin_bswap16(v);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		if (ctx->big_endian)
			v = __builtin_bswap32(v);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, p, 8);
		return ctx->big_endian ? __builtin_bswap64(v) : v;
	}
	default:
		return 0;
	}
}

const unsigned char *rep_dyn_data(const struct rep_ctx *ctx, const struct rep_record *r,
				  const struct rep_field *f, unsigned int *len)
{
	uint32_t loc = (uint32_t)rep_read_num(ctx, r, f->offset, 4, false);
	unsigned int off = loc & 0xffff, n = loc >> 16;

	if (f->flags & FIELD_RELATIVE)
		off += f->offset + 4;
	if (f->offset + 4 > r->size || off > r->size || n > r->size - off) {
		*len = 0;
		return r->data;
	}
	*len = n;
	return r->data + off;
}

/* A char buffer up to its NUL (or its end). */
static void put_cstr(struct obuf *o, const unsigned char *p, unsigned int n)
{
	const unsigned char *nul = memchr(p, 0, n);

	ob_write(o, p, nul ? (size_t)(nul - p) : n);
}

/* Printable up to the NUL or the end, as trace-cmd checks before printing a string. */
static bool printable(const unsigned char *p, unsigned int n)
{
	for (unsigned int i = 0; i < n && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/* A field without a print fmt directive: by its type, as trace-cmd's raw view. */
static void print_field(struct rep_ctx *ctx, struct obuf *o, struct rep_field *f,
			const struct rep_record *r)
{
	const unsigned char *p;
	unsigned int n;
	uint64_t v;

	if (f->flags & (FIELD_DYNAMIC | FIELD_ARRAY | FIELD_BAD)) {
		if (f->flags & FIELD_DYNAMIC) {
			p = rep_dyn_data(ctx, r, f, &n);
		} else {
			p = r->data + f->offset;
			n = f->offset + f->size > r->size ? 0 : f->size ? f->size : r->size - f->offset;
		}
		if (f->flags & FIELD_STRING && printable(p, n)) {
			put_cstr(o, p, n);
			return;
		}
		ob_puts(o, "ARRAY[");
		for (unsigned int i = 0; i < n; i++)
			ob_printf(o, "%s%02x", i ? ", " : "", p[i]);
		ob_putc(o, ']');
		/* trace-cmd stops taking the field for text once it was not: so do we. */
		f->flags &= ~FIELD_STRING;
		return;
	}
	v = rep_read_num(ctx, r, f->offset, f->size, false);
	if (f->flags & FIELD_POINTER) {
		ob_printf(o, "0x%llx", (unsigned long long)v);
	} else if (f->is_signed) {
		switch (f->size) {
		case 4:
			ob_printf(o, f->flags & FIELD_LONG ? "0x%x" : "%d", (int)v);
			break;
		case 2:
			ob_printf(o, "%2d", (short)v);
			break;
		case 1:
			ob_printf(o, "%1d", (signed char)v);
			break;
		default:
			ob_s64(o, (int64_t)v);
		}
	} else if (f->flags & FIELD_LONG) {
		ob_printf(o, "0x%llx", (unsigned long long)v);
	} else {
		ob_u64(o, v);
	}
}

void rep_print_fields(struct rep_ctx *ctx, struct obuf *o, struct rep_event *ev,
		      const struct rep_record *r)
{
	int cursor = 0;

	for (unsigned int i = ev->nr_common; i < ev->nr_fields; i++) {
		struct rep_field *f = &ev->fields[i];

		ob_putc(o, ' ');
		ob_puts(o, f->name);
		ob_putc(o, '=');
		if (f->flags & (FIELD_ARRAY | FIELD_STRING | FIELD_DYNAMIC | FIELD_BAD) ||
		    !rep_event_print(ctx, ev) || !pf_print_field(ctx, o, ev->print, f, r, &cursor))
			print_field(ctx, o, f, r);
	}
}
