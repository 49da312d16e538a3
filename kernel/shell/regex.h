/*
 * Regular expressions for grep and sed: POSIX basic (BRE) and extended
 * (ERE) syntax with GNU's \+ \? \| in BRE, bracket expressions with
 * [:class:], anchors, \< \> \b \w \s, intervals and up to nine groups.
 * Compiled to a small program run by a backtracking matcher with a step
 * budget, so a pathological pattern fails instead of hanging, or by a
 * set-of-states simulation for leftmost-longest matches. Pure.
 */
#ifndef KERNEL_SHELL_REGEX_H
#define KERNEL_SHELL_REGEX_H

#include <kernel/types.h>

#define RE_EXTENDED	1
#define RE_ICASE	2

#define RE_NGROUPS	10	/* \0 (the whole match) .. \9 */

struct regex;

/* Match bounds: start[0]/end[0] the whole match, [i] group i; -1 if unset. */
struct re_match {
	long start[RE_NGROUPS], end[RE_NGROUPS];
};

/* 0, or -EINVAL with a message in err ("unmatched ( or \\("). */
int regex_compile(struct regex **re, const char *pattern, int flags, char *err, size_t errsize);
/*
 * Find the leftmost match in s[0..len) starting at or after from; s is
 * the whole line, so ^ and \< look behind from. Returns true on a match.
 */
bool regex_search(const struct regex *re, const char *s, size_t len, size_t from, struct re_match *m);
/*
 * POSIX's leftmost-longest match (awk's sub, gsub, match, split): of the
 * matches starting leftmost, the longest, where regex_search takes the
 * first its alternatives find. Only m->start[0]/end[0] are set (groups
 * are -1). Runs in time proportional to len times the pattern's size, with
 * no step budget, so it never gives up on a match that exists.
 */
bool regex_search_longest(const struct regex *re, const char *s, size_t len, size_t from,
			  struct re_match *m);
void regex_free(struct regex *re);

#endif
