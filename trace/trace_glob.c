/*
 * The glob patterns of set_event, the enable files' system/event names
 * and set_ftrace_filter: *, ? and [...] classes ([!...] or [^...]
 * negated, a-z ranges), matched against the whole string. Pure.
 */
#include <kernel/types.h>
#include <trace/trace.h>

bool trace_glob_match(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return true;
			for (; *s; s++)
				if (trace_glob_match(p, s))
					return true;
			return false;
		}
		if (!*s)
			return false;
		if (*p == '[') {
			const char *q = p + 1;
			bool neg = *q == '!' || *q == '^', hit = false;

			q += neg;
			for (; *q && *q != ']'; q++) {
				if (q[1] == '-' && q[2] && q[2] != ']') {
					hit |= *s >= q[0] && *s <= q[2];
					q += 2;
				} else {
					hit |= *s == *q;
				}
			}
			if (!*q || hit == neg)
				return false;
			p = q;
		} else if (*p != '?' && *p != *s) {
			return false;
		}
	}
	return !*s;
}
