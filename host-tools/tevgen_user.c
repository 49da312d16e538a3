/*
 * spoor tevgen -u: the header a ring-3 program includes to define and write
 * the user_events of a spec (docs/user_events.md). Per event it gives the
 * registration string, an enable word the kernel flips (bit 0), the check
 * NAME_enabled() (one load) and NAME_emit(proto), which sends the write
 * index and the fields in one writev without copying them into a packed
 * struct: each field is its own iovec, and strings and dynamic arrays
 * follow the fixed part, addressed by __data_loc words (offset from the
 * record's start, common fields included, as Linux validates them).
 *
 * The header's variables are weak definitions, so any number of files of
 * one program may include it and still share one copy of each.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spoor.h"
#include "tevgen.h"
#include "tevgen_spec.h"

/* user_events' own names for fixed-size types: written as they are. */
static const char *const user_type_names[] = {
	"s64", "u64", "s32", "u32", "int", "unsigned int", "s16", "u16", "short",
	"unsigned short", "s8", "u8", "char", "unsigned char",
};

/* Linux's limit on char[N] fields of a user event. */
#define USER_ARRAY_MAX 1024

/* The user_events name of a scalar field type: its own, or sN/uN of its size. */
static const char *scalar_name(const struct tev_field *f, char *buf, size_t n)
{
	const char *t = strncmp(f->type, "const ", 6) ? f->type : f->type + 6;

	for (size_t i = 0; i < sizeof(user_type_names) / sizeof(user_type_names[0]); i++)
		if (!strcmp(t, user_type_names[i]))
			return t;
	snprintf(buf, n, "%c%u", f->is_signed ? 's' : 'u', f->size * 8);
	return buf;
}

/* The field's type in a registration string. */
static void user_type(const struct tev_field *f, FILE *out)
{
	char buf[8];

	switch (f->kind) {
	case FK_STRING:
		fputs("__data_loc char[]", out);
		break;
	case FK_ARRAY:
		fprintf(out, "char[%s]", f->len);
		break;
	case FK_DYNARRAY:
		fprintf(out, "__data_loc %s[]", scalar_name(f, buf, sizeof(buf)));
		break;
	default:
		fputs(scalar_name(f, buf, sizeof(buf)), out);
		break;
	}
}

const char *tev_user_field_problem(const struct tev_field *f)
{
	char buf[8];

	if (f->kind == FK_ARRAY && f->size != 1)
		return "user_events carry fixed arrays of bytes only (char[N])";
	if (f->kind == FK_ARRAY && strtoul(f->len, NULL, 10) > USER_ARRAY_MAX)
		return "a user event's char[N] holds at most 1024 bytes";
	/* The kernel wants a NUL at the end of any __data_loc char array. */
	if (f->kind == FK_DYNARRAY && strstr(scalar_name(f, buf, sizeof(buf)), "char"))
		return "text in a user event is a 'string' (a char dynarray needs its NUL)";
	return NULL;
}

static const struct tev_event *body_of(const struct tev_event *ev)
{
	return ev->class ? ev->class : ev;
}

static void write_reg_string(const struct tev_event *ev, FILE *out)
{
	const struct tev_event *body = body_of(ev);

	fputs(ev->name, out);
	for (size_t i = 0; i < body->nfields; i++) {
		fputs(i ? "; " : " ", out);
		user_type(&body->fields[i], out);
		fprintf(out, " %s", body->fields[i].name);
	}
}

size_t tev_user_reg_len(const struct tev_event *ev)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f) {
		spoor_err("tevgen: out of memory");
		exit(1);
	}
	write_reg_string(ev, f);
	fclose(f);
	free(s);
	return n;
}

/* Bytes a field takes in the fixed part of the record. */
static unsigned int fixed_size(const struct tev_field *f)
{
	if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
		return 4;
	if (f->kind == FK_ARRAY)
		return (unsigned int)strtoul(f->len, NULL, 10);
	return f->size;
}

/* The C type holding a scalar field's value in the emit function. */
static void c_type(const struct tev_field *f, FILE *out)
{
	fprintf(out, "%sint%u_t", f->is_signed ? "" : "u", f->size * 8);
}

static void write_emit(const struct tev_spec *spec, const struct tev_event *ev, FILE *out)
{
	const struct tev_event *body = body_of(ev);
	unsigned int fixed = 8;		/* the common fields come first */
	size_t i, slot;

	for (i = 0; i < body->nfields; i++)
		fixed += fixed_size(&body->fields[i]);
	fprintf(out, "/* One %s record, if the event is traced (else -EBADF); 0 or -errno. */\n"
		"static inline int %s_emit(%s)\n{\n", ev->name, ev->name, body->proto);
	/* Every value is evaluated once, into a local the iovecs point at. */
	for (i = 0; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];
		const char *src = f->src ? f->src : f->name;

		switch (f->kind) {
		case FK_FIELD:
			fputc('\t', out);
			c_type(f, out);
			if (f->type[strlen(f->type) - 1] == '*')
				fprintf(out, " tev_%s = (uintptr_t)(%s);\n", f->name, src);
			else
				fprintf(out, " tev_%s = (%s);\n", f->name, src);
			break;
		case FK_ARRAY:
			fprintf(out, "\tconst void *tev_%s = (%s);\n", f->name, src);
			break;
		case FK_STRING:
			fprintf(out, "\tconst char *tev_%s = (%s);\n"
				"\tuint32_t tev_len_%s, tev_loc_%s;\n", f->name, src, f->name, f->name);
			break;
		case FK_DYNARRAY:
			fprintf(out, "\tconst void *tev_%s = (%s);\n"
				"\tuint32_t tev_len_%s = (uint32_t)(%s) * %u, tev_loc_%s;\n",
				f->name, src, f->name, f->len, f->size, f->name);
			break;
		default:
			break;
		}
	}
	fprintf(out, "\tuint32_t tev_off = %u;\t/* where the variable part starts */\n"
		"\tstruct iovec tev_io[] = {\n\t\t{ &%s_write_index, sizeof(int) },\n",
		fixed, ev->name);
	for (i = 0; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];

		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
			fprintf(out, "\t\t{ &tev_loc_%s, 4 },\n", f->name);
		else if (f->kind == FK_ARRAY)
			fprintf(out, "\t\t{ (void *)tev_%s, %s },\n", f->name, f->len);
		else
			fprintf(out, "\t\t{ &tev_%s, %u },\n", f->name, f->size);
	}
	for (i = 0; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];

		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
			fprintf(out, "\t\t{ 0, 0 },\t/* %s */\n", f->name);
	}
	fputs("\t};\n\n", out);
	/* The variable parts: lengths, then each __data_loc word (size << 16 | offset). */
	for (i = 0; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];

		if (f->kind == FK_STRING)
			fprintf(out, "\tif (!tev_%s)\n\t\ttev_%s = \"(null)\";\t/* as the kernel's __assign_str */\n"
				"\ttev_len_%s = (uint32_t)strlen(tev_%s) + 1;\n",
				f->name, f->name, f->name, f->name);
		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
			fprintf(out, "\tif (tev_len_%s > 0xffff - tev_off)\n\t\treturn -E2BIG;\n"
				"\ttev_loc_%s = tev_len_%s << 16 | tev_off;\n"
				"\ttev_off += tev_len_%s;\n",
				f->name, f->name, f->name, f->name);
	}
	for (i = 0, slot = 1 + body->nfields; i < body->nfields; i++) {
		const struct tev_field *f = &body->fields[i];

		if (f->kind == FK_STRING || f->kind == FK_DYNARRAY)
			fprintf(out, "\ttev_io[%zu] = (struct iovec){ (void *)tev_%s, tev_len_%s };\n",
				slot++, f->name, f->name);
	}
	fprintf(out, "\treturn writev(%s_fd, tev_io, %zu) < 0 ? -errno : 0;\n}\n\n",
		spec->system, slot);
}

/* Linux's uapi structures and ioctls, once per program whatever the number of specs. */
static const char user_abi[] =
	"#ifndef TEVGEN_USER_ABI\n"
	"#define TEVGEN_USER_ABI\n"
	"/* Linux's struct user_reg and struct user_unreg (include/uapi/linux/user_events.h). */\n"
	"struct tevgen_user_reg {\n"
	"\tuint32_t size;\n"
	"\tuint8_t enable_bit, enable_size;\n"
	"\tuint16_t flags;\n"
	"\tuint64_t enable_addr, name_args;\n"
	"\tuint32_t write_index;\n"
	"} __attribute__((packed));\n"
	"struct tevgen_user_unreg {\n"
	"\tuint32_t size;\n"
	"\tuint8_t disable_bit, reserved;\n"
	"\tuint16_t reserved2;\n"
	"\tuint64_t disable_addr;\n"
	"} __attribute__((packed));\n"
	"#define TEVGEN_DIAG_IOCSREG 0xc0082a00u\t/* _IOWR('*', 0, struct user_reg *) */\n"
	"#define TEVGEN_DIAG_IOCSUNREG 0x40082a02u\t/* _IOW('*', 2, struct user_unreg *) */\n\n"
	"/* Register reg with enable bit 0 of *word; its write index into *index. */\n"
	"static inline int tevgen_user_register(int fd, const char *reg, uint32_t *word, int *index)\n"
	"{\n"
	"\tstruct tevgen_user_reg r = { .size = sizeof(r), .enable_size = 4,\n"
	"\t\t.enable_addr = (uintptr_t)word, .name_args = (uintptr_t)reg };\n\n"
	"\tif (ioctl(fd, TEVGEN_DIAG_IOCSREG, &r) < 0)\n"
	"\t\treturn -errno;\n"
	"\t*index = (int)r.write_index;\n"
	"\treturn 0;\n"
	"}\n\n"
	"static inline int tevgen_user_unregister(int fd, uint32_t *word)\n"
	"{\n"
	"\tstruct tevgen_user_unreg u = { .size = sizeof(u), .disable_addr = (uintptr_t)word };\n\n"
	"\treturn ioctl(fd, TEVGEN_DIAG_IOCSUNREG, &u) < 0 ? -errno : 0;\n"
	"}\n"
	"#endif\n\n";

static void write_register(const struct tev_spec *spec, FILE *out)
{
	const char *sys = spec->system;
	size_t i;

	fprintf(out, "/*\n * Open user_events_data and register every event of %s: 0, or the\n"
		" * -errno of the first failure. The kernel sets an event's enable bit while\n"
		" * anything traces it (ftrace, a trigger, a histogram, perf).\n */\n"
		"static inline int %s_register(void)\n{\n\tint ret;\n\n"
		"\tif (%s_fd < 0)\n"
		"\t\t%s_fd = open(\"/sys/kernel/tracing/user_events_data\", O_RDWR | O_CLOEXEC);\n"
		"\tif (%s_fd < 0)\n\t\treturn -errno;\n", sys, sys, sys, sys, sys);
	for (i = 0; i < spec->nevents; i++) {
		const struct tev_event *ev = spec->events[i];

		if (!ev->is_class)
			fprintf(out, "\tret = tevgen_user_register(%s_fd, %s_REG, &%s_enable, &%s_write_index);\n"
				"\tif (ret)\n\t\treturn ret;\n", sys, ev->name, ev->name, ev->name);
	}
	fprintf(out, "\treturn 0;\n}\n\n"
		"/* Drop the enable bits and close the file: 0, or the first -errno. */\n"
		"static inline int %s_unregister(void)\n{\n\tint ret = 0, r;\n\n", sys);
	for (i = 0; i < spec->nevents; i++) {
		const struct tev_event *ev = spec->events[i];

		if (!ev->is_class)
			fprintf(out, "\tr = tevgen_user_unregister(%s_fd, &%s_enable);\n"
				"\tret = ret ? ret : r;\n", sys, ev->name);
	}
	fprintf(out, "\tif (close(%s_fd) && !ret)\n\t\tret = -errno;\n"
		"\t%s_fd = -1;\n\treturn ret;\n}\n\n", sys, sys);
}

void tev_write_user_header(const struct tev_spec *spec, FILE *out)
{
	char guard[128];
	size_t i;

	for (i = 0; spec->system[i] && i < sizeof(guard) - 1; i++)
		guard[i] = (char)toupper((unsigned char)spec->system[i]);
	guard[i] = '\0';
	fprintf(out, "/* Generated by spoor tevgen -u from %s.tev: do not edit. */\n"
		"#ifndef TEVGEN_USER_%s_H\n#define TEVGEN_USER_%s_H\n\n"
		"#include <errno.h>\n#include <fcntl.h>\n#include <stdint.h>\n#include <string.h>\n"
		"#include <sys/ioctl.h>\n#include <sys/uio.h>\n#include <unistd.h>\n",
		spec->system, guard, guard);
	for (i = 0; i < spec->nincludes; i++)
		fprintf(out, "#include %s\n", spec->includes[i]);
	if (spec->prelude)
		fprintf(out, "\n%s", spec->prelude);
	fprintf(out, "\n%s", user_abi);
	fprintf(out, "/* Weak: one copy in the program however many of its files include this. */\n"
		"__attribute__((weak)) int %s_fd = -1;\n\n", spec->system);
	for (i = 0; i < spec->nevents; i++) {
		const struct tev_event *ev = spec->events[i];

		if (ev->is_class)
			continue;
		fprintf(out, "#define %s_REG \"", ev->name);
		write_reg_string(ev, out);
		fprintf(out, "\"\n__attribute__((weak)) uint32_t %s_enable;\n"
			"__attribute__((weak)) int %s_write_index = -1;\n\n"
			"/* Bit 0 of the enable word: one load, no system call. */\n"
			"static inline int %s_enabled(void)\n{\n"
			"\treturn __atomic_load_n(&%s_enable, __ATOMIC_RELAXED) & 1;\n}\n\n",
			ev->name, ev->name, ev->name, ev->name);
		write_emit(spec, ev, out);
	}
	write_register(spec, out);
	fprintf(out, "#endif /* TEVGEN_USER_%s_H */\n", guard);
}
