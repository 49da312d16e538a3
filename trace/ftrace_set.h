/*
 * Sets of function-tracer sites (struct ftrace_set, trace/ftrace.h) and
 * the set_ftrace_filter / set_ftrace_notrace language that edits them
 * (trace/ftrace_set.c). Pure: sites are indices 0..n-1, their names come
 * from a callback, so unit tests run it on made-up tables.
 */
#ifndef TRACE_FTRACE_SET_H
#define TRACE_FTRACE_SET_H

#include <kernel/types.h>
#include <trace/ftrace.h>

#define FTRACE_SET_BITS	(8 * sizeof(unsigned long))

int ftrace_set_alloc(struct ftrace_set *set, unsigned int n);
void ftrace_set_free(struct ftrace_set *set);
void ftrace_set_clear(struct ftrace_set *set, unsigned int n);

static inline bool ftrace_set_test(const struct ftrace_set *set, unsigned int i)
{
	return set->bits[i / FTRACE_SET_BITS] >> (i % FTRACE_SET_BITS) & 1;
}

/* Add (on) or remove site i, keeping count. */
void ftrace_set_assign(struct ftrace_set *set, unsigned int i, bool on);

/* The name of site i (kallsyms in the kernel), or NULL if it has none. */
typedef const char *(*ftrace_site_name_t)(unsigned int i, void *arg);

/*
 * Apply one token of a set_ftrace_filter write to set (n sites): a glob
 * adds the sites whose names match, "!glob" removes them, a decimal
 * number N adds the N-th site of available_filter_functions (from 1),
 * "glob:mod:MODULE" matches in MODULE only (Spoor has no modules: none).
 * Returns the number of sites matched, 0 for a :mod: token, or -EINVAL
 * when a glob or index matched nothing (Linux's "Invalid argument").
 */
int ftrace_set_apply(struct ftrace_set *set, unsigned int n, ftrace_site_name_t name, void *arg,
		     const char *token);

#endif
