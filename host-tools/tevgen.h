/*
 * spoor tevgen: event specs (trace/events/<system>.tev, docs/tevgen.md)
 * to TRACE_EVENT headers and to the format files those events will show.
 * The functions are here so tests can run the generator on strings.
 */
#ifndef HOST_TOOLS_TEVGEN_H
#define HOST_TOOLS_TEVGEN_H

#include <stddef.h>
#include <stdio.h>

struct tev_spec;

/*
 * What a spec describes: kernel events (a TRACE_EVENT header, format files)
 * or user_events a ring-3 program registers and writes (a header for it:
 * no print, assign, args or flex lines; fields user_events can carry).
 */
enum tev_target { TEV_KERNEL, TEV_USER };

/*
 * Parse a spec. file names it in messages and must be <system>.tev. On
 * error returns NULL with "file:line:column: error: message" in err.
 */
struct tev_spec *tev_parse(const char *file, const char *text, enum tev_target target,
			   char *err, size_t errsize);
void tev_free(struct tev_spec *spec);

/* The TRACE_EVENT header (build/gen/trace/events/<system>.h). */
void tev_write_header(const struct tev_spec *spec, FILE *out);

/*
 * The header of a ring-3 program for a TEV_USER spec: per event its
 * user_events registration string, enable word, NAME_enabled() and
 * NAME_emit(proto) (one writev); <system>_register()/_unregister().
 */
void tev_write_user_header(const struct tev_spec *spec, FILE *out);

/* Events (not classes) in spec order; NULL past the last. */
const char *tev_event_name(const struct tev_spec *spec, size_t i);

/*
 * The events/<system>/<event>/format text the kernel will show for an
 * event, with "ID: <id>". Returns -1 for an unknown event.
 */
int tev_write_format(const struct tev_spec *spec, const char *event, unsigned int id,
		     FILE *out);

#endif
