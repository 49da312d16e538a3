/* Symbol-table search (pure, so unit tests can run it on made-up tables). */
#include <kernel/kallsyms.h>

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
	/* Aliases share an address: report the first name given to it. */
	while (lo > 0 && t->addrs[lo - 1] == t->addrs[lo])
		lo--;
	u64 next = lo + 1;
	while (next < t->num && t->addrs[next] == t->addrs[lo])
		next++;
	*name = t->names + t->name_off[lo];
	*start = t->addrs[lo];
	*size = (next < t->num ? t->addrs[next] : end) - t->addrs[lo];
	return true;
}
