/* Sorting and number parsing for the shell and its commands (sh_util.h). */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/sh_io.h>
#include <kernel/time.h>
#include <kernel/shell/sh_os.h>

static void merge_sort(void **v, void **tmp, size_t n, sh_cmp_fn cmp, void *ctx)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, mid, cmp, ctx);
	merge_sort(v + mid, tmp, n - mid, cmp, ctx);
	while (i < mid && j < n)
		tmp[k++] = cmp(v[j], v[i], ctx) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

int sh_sort(void **v, size_t n, sh_cmp_fn cmp, void *ctx)
{
	void **tmp;

	if (n < 2)
		return 0;
	tmp = kmalloc(n * sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	merge_sort(v, tmp, n, cmp, ctx);
	kfree(tmp);
	return 0;
}

static int cmp_str(const void *a, const void *b, void *ctx)
{
	return strcmp(a, b);
}

int sh_sort_strings(char **v, size_t n)
{
	return sh_sort((void **)v, n, cmp_str, NULL);
}

int sh_parse_int(const char *s, long long *v)
{
	unsigned long long u = 0;
	bool neg = false, any = false;

	while (sh_isspace(*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; sh_isdigit(*s); s++) {
		if (u > (1ULL << 63) / 10)
			return -ERANGE;
		u = u * 10 + (unsigned)(*s - '0');
		any = true;
	}
	while (sh_isspace(*s))
		s++;
	if (!any || *s)
		return -EINVAL;
	if (u > (1ULL << 63) - (neg ? 0 : 1))
		return -ERANGE;
	*v = neg ? (long long)(0 - u) : (long long)u;
	return 0;
}

int sh_parse_seconds(const char *s, u64 *ns)
{
	u64 whole = 0, frac = 0, scale = NSEC_PER_SEC;
	bool any = false;

	for (; sh_isdigit(*s); s++, any = true) {
		if (whole > 1000000000ULL)
			return -ERANGE;
		whole = whole * 10 + (u64)(*s - '0');
	}
	if (*s == '.')
		for (s++; sh_isdigit(*s); s++, any = true)
			if (scale /= 10)
				frac += (u64)(*s - '0') * scale;
	if (!any || *s)
		return -EINVAL;
	*ns = whole * NSEC_PER_SEC + frac;
	return 0;
}

static bool sh_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

/*
 * Bring the next option at or after argv[g->ind] (with its separate
 * argument, if its last letter takes one) to g->ind, shifting the
 * operands before it right: their order is kept.
 */
static void sh_getopt_permute(struct sh_getopt *g, int argc, char **argv, const char *optstring)
{
	int j = g->ind, n = 1;

	while (j < argc && !sh_is_option(argv[j]))
		j++;
	if (j == g->ind || j == argc)
		return;
	for (const char *p = argv[j] + 1; *p && strcmp(argv[j], "--"); p++) {
		const char *spec = strchr(optstring, *p);

		if (spec && *p != ':' && spec[1] == ':') {
			if (!p[1] && j + 1 < argc)
				n = 2;
			break;
		}
	}
	for (int k = 0; k < n; k++) {
		char *opt = argv[j + k];

		memmove(&argv[g->ind + k + 1], &argv[g->ind + k],
			(size_t)(j - g->ind) * sizeof(*argv));
		argv[g->ind + k] = opt;
	}
}

int sh_getopt(struct sh_getopt *g, int argc, char **argv, const char *optstring)
{
	const char *spec;
	char c;

	if (!g->ind)
		g->ind = 1;
	if (!g->next || !*g->next) {
		if (g->permute)
			sh_getopt_permute(g, argc, argv, optstring);
		if (g->ind >= argc || argv[g->ind][0] != '-' || !argv[g->ind][1])
			return -1;
		if (!strcmp(argv[g->ind], "--")) {
			g->ind++;
			return -1;
		}
		g->next = argv[g->ind++] + 1;
	}
	c = *g->next++;
	spec = strchr(optstring, c);
	if (!spec || c == ':') {
		sh_eprintf("%s: invalid option -- '%c'\n", argv[0], c);
		return '?';
	}
	g->arg = NULL;
	if (spec[1] == ':') {
		if (*g->next) {
			g->arg = g->next;
		} else if (g->ind < argc) {
			g->arg = argv[g->ind++];
		} else {
			sh_eprintf("%s: option requires an argument -- '%c'\n", argv[0], c);
			return '?';
		}
		g->next = NULL;
	}
	return c;
}

enum sh_ftype sh_ftype_of_mode(unsigned int mode)
{
	switch (mode & 0170000) {
	case 0040000: return SH_FT_DIR;
	case 0100000: return SH_FT_REG;
	case 0020000: return SH_FT_CHR;
	case 0010000: return SH_FT_FIFO;
	case 0120000: return SH_FT_LNK;
	default: return SH_FT_UNKNOWN;
	}
}

void sh_mode_string(const struct sh_stat *st, char mode[11])
{
	switch (st->type) {
	case SH_FT_DIR: mode[0] = 'd'; break;
	case SH_FT_CHR: mode[0] = 'c'; break;
	case SH_FT_FIFO: mode[0] = 'p'; break;
	case SH_FT_LNK: mode[0] = 'l'; break;
	default: mode[0] = '-'; break;
	}
	for (int i = 0; i < 9; i++)
		mode[1 + i] = st->mode & (1u << (8 - i)) ? "rwxrwxrwx"[i] : '-';
	mode[10] = '\0';
}
