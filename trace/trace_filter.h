/*
 * Event filters: the language of events/<sys>/<event>/filter and of
 * `if <filter>` in triggers, as Linux has it:
 *
 *   field op value, combined with && || ! and parentheses
 *   numbers: == != < <= > >= and & (bits in common), decimal, hex, negative
 *   strings: == != and ~ (glob: *x, x*, *x*, and [..] ? classes), "quoted" or bare
 *   addresses: FIELD.function == / != SYMBOL or 0xADDR: the field's value
 *     lies in (or outside) the function holding that symbol or address
 *
 * Fields are the event's, the common_ fields, and the specials cpu /
 * common_cpu (the CPU writing the record) and comm / common_comm (the
 * running task's name). A filter is compiled once into a predicate tree
 * and evaluated per record without allocating. Pure (symbols come from
 * kallsyms_lookup_name/kallsyms_lookup: the host's stand-ins in tests).
 */
#ifndef TRACE_TRACE_FILTER_H
#define TRACE_TRACE_FILTER_H

#include <kernel/types.h>
#include <trace/trace_event.h>

#define FILTER_MAX_PREDS	512	/* field op value terms in one filter */

struct event_filter;

/* Why a filter was refused, for error_log: message and where in the text. */
struct filter_error {
	const char *msg;	/* Linux's text, e.g. "Field not found" */
	int pos;		/* byte offset of the offending token in the filter */
};

/*
 * Compile str for the event call. 0 and *filter set, or -EINVAL (bad
 * filter: err says why and where) / -ENOMEM. "0" and "" give no filter
 * (*filter = NULL: keep everything), as writing 0 to `filter` clears it.
 */
int filter_parse(const struct trace_event_call *call, const char *str,
		 struct event_filter **filter, struct filter_error *err);
/* Whether the record (starting with its struct trace_entry) passes. */
bool filter_match(const struct event_filter *filter, const void *rec);
void filter_free(struct event_filter *filter);
/* The text the filter was compiled from (what reading `filter` shows). */
const char *filter_string(const struct event_filter *filter);

/*
 * The error_log entry for a refused filter, Linux's layout:
 *   [   12.345678] event filter parse error: error: Field not found
 *     Command: <the filter>
 *                ^
 * ts in ns. Returns the length it needs, like snprintf.
 */
int filter_format_error(char *buf, size_t size, u64 ts, const char *cmd,
			const struct filter_error *err);

#endif
