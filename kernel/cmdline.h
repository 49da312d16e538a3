/*
 * The kernel command line: "key=value" parameters and bare words, split
 * the way Linux splits them (whitespace separates, double quotes protect
 * spaces: key="a b" and "key=a b" both give key -> a b; "--" ends the
 * kernel's part, the rest is for init). Lookups see the last occurrence
 * of a key, and like Linux treat '-' and '_' in keys as the same. Pure.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <kernel/types.h>

#define COMMAND_LINE_SIZE	2048	/* x86's limit, terminating NUL included */
#define CMDLINE_MAX_PARAMS	128

/* One word of the line. */
struct cmdline_param {
	const char *key;	/* the word, or the part before the first '=' */
	const char *val;	/* after the '=' (quotes removed); NULL for a bare word */
};

/*
 * A parsed command line. params[0..nr_params) are the kernel's,
 * params[nr_params..nr_params+nr_init_args) the words after "--".
 */
struct cmdline {
	char raw[COMMAND_LINE_SIZE];	/* as the loader gave it (/proc/cmdline) */
	char buf[COMMAND_LINE_SIZE];	/* split copy that params point into */
	struct cmdline_param params[CMDLINE_MAX_PARAMS];
	unsigned int nr_params;
	unsigned int nr_init_args;
};

/*
 * Parses line (NULL: empty). Returns 0, or -E2BIG when the line was
 * longer than COMMAND_LINE_SIZE - 1 or had more than CMDLINE_MAX_PARAMS
 * words: the part that fits is still parsed and usable.
 */
int cmdline_parse(struct cmdline *cl, const char *line);

/* The last kernel parameter named key, or NULL. */
const struct cmdline_param *cmdline_find(const struct cmdline *cl, const char *key);
/* key is present, as a bare word or with a value. */
bool cmdline_has(const struct cmdline *cl, const char *key);
/* The value of the last key=value; NULL when absent or a bare word. */
const char *cmdline_get(const struct cmdline *cl, const char *key);

/*
 * Typed getters: 0 and *res set, or -ENOENT (absent), -EINVAL (bare word
 * or not a number), -ERANGE (does not fit); *res is untouched on error.
 * Numbers take 0x/0 prefixes. Booleans take y/Y/1/on and n/N/0/off, and a
 * bare word means true, as for Linux's bool parameters.
 */
int cmdline_get_ulong(const struct cmdline *cl, const char *key, unsigned long *res);
int cmdline_get_int(const struct cmdline *cl, const char *key, int *res);
int cmdline_get_bool(const struct cmdline *cl, const char *key, bool *res);

/* The command line the kernel booted with (arch/x86_64/setup.c fills it). */
extern struct cmdline boot_cmdline;

#endif
