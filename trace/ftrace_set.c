/*
 * Site sets as bitmaps, and set_ftrace_filter's tokens applied to them
 * (the grammar of Linux's ftrace.rst "Filter commands": globs, '!' to
 * remove, an index into available_filter_functions, :mod:). Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <trace/trace.h>
#include <trace/ftrace_set.h>

int ftrace_set_alloc(struct ftrace_set *set, unsigned int n)
{
	set->count = 0;
	set->bits = kcalloc(DIV_ROUND_UP(n ? n : 1, FTRACE_SET_BITS), sizeof(unsigned long),
			    GFP_KERNEL);
	return set->bits ? 0 : -ENOMEM;
}

void ftrace_set_free(struct ftrace_set *set)
{
	kfree(set->bits);
	set->bits = NULL;
	set->count = 0;
}

void ftrace_set_clear(struct ftrace_set *set, unsigned int n)
{
	memset(set->bits, 0, DIV_ROUND_UP(n ? n : 1, FTRACE_SET_BITS) * sizeof(unsigned long));
	set->count = 0;
}

void ftrace_set_assign(struct ftrace_set *set, unsigned int i, bool on)
{
	unsigned long bit = 1ul << (i % FTRACE_SET_BITS);
	unsigned long *w = &set->bits[i / FTRACE_SET_BITS];

	if (!!(*w & bit) == on)
		return;
	if (on) {
		*w |= bit;
		set->count++;
	} else {
		*w &= ~bit;
		set->count--;
	}
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int ftrace_set_apply(struct ftrace_set *set, unsigned int n, ftrace_site_name_t name, void *arg,
		     const char *token)
{
	bool remove = token[0] == '!';
	const char *glob = token + remove;
	unsigned long long index;
	int matched = 0;

	/* Modules are named after the glob; Spoor has none, so nothing is in one. */
	if (strstr(glob, ":mod:"))
		return 0;
	if (all_digits(glob)) {
		if (kstrtoull(glob, 10, &index) || index == 0 || index > n)
			return -EINVAL;
		ftrace_set_assign(set, (unsigned int)(index - 1), !remove);
		return 1;
	}
	for (unsigned int i = 0; i < n; i++) {
		const char *s = name(i, arg);

		if (s && trace_glob_match(glob, s)) {
			ftrace_set_assign(set, i, !remove);
			matched++;
		}
	}
	return matched ? matched : -EINVAL;
}
