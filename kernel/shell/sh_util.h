/* Helpers shared by the shell and its commands: sorting, numbers. */
#ifndef KERNEL_SHELL_SH_UTIL_H
#define KERNEL_SHELL_SH_UTIL_H

#include <kernel/types.h>

/* A stable merge sort of pointers; cmp gets the pointers themselves. */
typedef int (*sh_cmp_fn)(const void *a, const void *b, void *ctx);
int sh_sort(void **v, size_t n, sh_cmp_fn cmp, void *ctx);
/* Sort C strings by byte value (the C locale's order). */
int sh_sort_strings(char **v, size_t n);

/*
 * Parse a whole string as a decimal integer with optional sign and
 * surrounding blanks (test's and sleep's operands); 0 or -EINVAL/-ERANGE.
 */
int sh_parse_int(const char *s, long long *v);
/* Parse "1.5"-style seconds into nanoseconds; 0 or -EINVAL. */
int sh_parse_seconds(const char *s, u64 *ns);

struct sh_stat;
/* ls -l's "drwxr-xr-x" for st (mode holds 10 characters and the NUL). */
void sh_mode_string(const struct sh_stat *st, char mode[11]);
/* The file type of an st_mode (Linux's S_IFMT bits), as sh_os reports it. */
enum sh_ftype sh_ftype_of_mode(unsigned int mode);

/* getopt(3) for commands: short options, "n:" takes an argument, "--" ends them. */
struct sh_getopt {
	int ind;		/* next argv index; start at 1 (zeroed struct works) */
	const char *next;	/* rest of a cluster like -abc */
	const char *arg;	/* argument of the option just returned */
	/*
	 * Options may follow operands, as GNU's grep takes `grep PAT -A 3 F`:
	 * argv is reordered so options come first (up to a "--").
	 */
	bool permute;
};
/* Returns the option, '?' after printing the error, or -1 when operands start. */
int sh_getopt(struct sh_getopt *g, int argc, char **argv, const char *optstring);

#endif
