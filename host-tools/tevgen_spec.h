/*
 * The parsed form of an event spec (docs/tevgen.md), shared by the parser
 * (tevgen.c) and the writers of its outputs: the kernel's TRACE_EVENT header
 * and format files (tevgen.c), a ring-3 program's user_events header
 * (tevgen_user.c).
 */
#ifndef HOST_TOOLS_TEVGEN_SPEC_H
#define HOST_TOOLS_TEVGEN_SPEC_H

#include <stdbool.h>
#include <stddef.h>

enum field_kind { FK_FIELD, FK_ARRAY, FK_STRING, FK_DYNARRAY, FK_FLEX };

/* One record field of a class or event, and how TP_fast_assign fills it. */
struct tev_field {
	enum field_kind kind;
	char *type;	/* element type, whitespace as written (collapsed) */
	char *name;
	char *len;	/* array length: digits (array) or a C expression (dynarray, flex) */
	char *src;	/* "= src", or NULL */
	unsigned int size, align;	/* of one element */
	bool is_signed;
};

/* A class (DECLARE_EVENT_CLASS), an event with its own body (TRACE_EVENT) or an instance (DEFINE_EVENT). */
struct tev_event {
	char *name;
	bool is_class;
	struct tev_event *class;	/* instance: its class */
	char *proto, *args;
	struct tev_field *fields;
	size_t nfields;
	char **assign;		/* extra TP_fast_assign statements */
	size_t nassign;
	char *fmt;		/* TP_printk format, as written between the quotes */
	char *print_args;	/* macro-expanded, whitespace collapsed; "" if none */
	int line;
};

/* A print-format macro: tevgen expands it as cpp would before TP_printk sees it. */
struct tev_macro {
	char *name;
	char **params;
	int nparams;		/* -1: object-like */
	char *body;
};

struct tev_spec {
	char *system;
	char **includes;
	size_t nincludes;
	char *prelude;
	struct tev_macro *macros;
	size_t nmacros;
	struct tev_event **events;	/* each allocated alone: instances point at classes */
	size_t nevents;
};

/* Linux refuses a registration string longer than this (EINVAL). */
#define TEV_USER_REG_MAX 511

/*
 * tevgen_user.c, for the parser of a TEV_USER spec: why user_events cannot
 * carry field f (NULL if it can), and the length of an event's registration
 * string ("NAME TYPE FIELD; ...").
 */
const char *tev_user_field_problem(const struct tev_field *f);
size_t tev_user_reg_len(const struct tev_event *ev);

#endif
