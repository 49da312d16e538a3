/* Symbol-table search (pure, so unit tests can run it on made-up tables). */
#include <kernel/kallsyms.h>
#include <kernel/string.h>

bool kallsyms_table_lookup(const struct kallsyms_table *t, unsigned long addr,
			   unsigned long end, const char **name,
			   unsigned long *start, unsigned long *size)
{
	u64 lo = 0, hi = t->num;

	if (!t->num || addr < t->addrs[0] || addr >= end)
		return false;
	/* Last symbol whose address is <= addr. */
	while (hi - lo > 1) {
		u64 mid = lo + (hi - lo) / 2;

		if (t->addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/*
	 * Aliases share an address (a function and a linker-script marker
	 * like _text): report the name with the fewest leading underscores.
	 */
	while (lo > 0 && t->addrs[lo - 1] == t->addrs[lo])
		lo--;
	u64 best = lo, next = lo + 1;
	while (next < t->num && t->addrs[next] == t->addrs[lo]) {
		if (strspn(t->names + t->name_off[next], "_") <
		    strspn(t->names + t->name_off[best], "_"))
			best = next;
		next++;
	}
	*name = t->names + t->name_off[best];
	*start = t->addrs[lo];
	*size = (next < t->num ? t->addrs[next] : end) - t->addrs[lo];
	return true;
}
