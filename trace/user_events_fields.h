/*
 * user_events' description language: what a program writes after the
 * event name when it registers (`name[:flags] type name[; type name...]`),
 * the record layout it implies, the format file's print fmt, the check
 * of a written payload's __data_loc/__rel_loc words, and the `trace`
 * text of a record. The grammar, limits and errors are Linux 6.12's
 * (kernel/trace/trace_events_user.c is the contract). Pure.
 */
#ifndef TRACE_USER_EVENTS_FIELDS_H
#define TRACE_USER_EVENTS_FIELDS_H

#include <kernel/types.h>
#include <trace/trace_event.h>

#define USER_EVENTS_SYSTEM		"user_events"
#define USER_EVENTS_MULTI_SYSTEM	"user_events_multi"
#define USER_EVENTS_PREFIX		"u:"

/* Longest registration string, terminator included (Linux's MAX_EVENT_DESC). */
#define USER_EVENT_DESC_MAX		512
/* Largest N of a char[N] field (MAX_FIELD_ARRAY_SIZE). */
#define USER_FIELD_ARRAY_MAX		1024

/* Where a dynamic field's bytes are: its u32 word is len << 16 | offset from ... */
enum user_field_loc {
	USER_LOC_NONE = 0,
	USER_LOC_DATA,		/* ... the start of the record (__data_loc) */
	USER_LOC_REL,		/* ... the end of the word itself (__rel_loc) */
};

/* One field, as declared and as laid out (packed, in declaration order). */
struct user_field {
	char *type;		/* as declared: "u32", "char[20]", "struct foo", "__rel_loc char[]" */
	char *name;
	u32 offset;		/* from the record's start (common fields included) */
	u32 size;
	bool is_signed;		/* Linux's rule: every type not starting with 'u' */
	u8 loc;			/* enum user_field_loc */
	bool ensure_null;	/* a dynamic char field: its last byte must be NUL */
};

/*
 * An event's fields and everything derived from them. `text` is the
 * canonical declaration ("u32 a; struct foo st 3"), what dynamic_events
 * lists and what a re-registration is compared with.
 */
struct user_event_fields {
	unsigned int count;
	struct user_field *field;
	u32 size;				/* record bytes: common fields + fixed payload */
	struct trace_event_field *event_fields;	/* count + 1, for the trace_event_call */
	char *print_fmt;
	char *text;
};

/*
 * Split a registration string in place: name, the flags text after ':'
 * (NULL if none) and the field text after the first space (NULL if none).
 */
void user_event_split(char *cmd, char **name, char **flags, char **args);

/* Parse the field text (NULL: no fields): 0, -EINVAL, -ENOMEM. Free with _free. */
int user_event_fields_parse(const char *args, struct user_event_fields *out);
void user_event_fields_free(struct user_event_fields *f);

/* Does args declare exactly these fields (whitespace and a dangling ';' aside)? */
bool user_event_fields_match(const struct user_event_fields *f, const char *args);

/*
 * Check the dynamic fields of a record of len bytes (common fields
 * first): every __data_loc/__rel_loc target inside the record, a char
 * one ending in NUL. 0 or -EFAULT, as Linux's validators.
 */
int user_event_validate(const struct user_event_fields *f, const void *rec, u32 len);

struct trace_seq;
/* The `trace` text after "name: ", field by field as Linux 6.12 prints fields. */
int user_event_print_fields(struct trace_seq *s, const struct user_event_fields *f,
			    const void *rec, u32 len);

#endif
