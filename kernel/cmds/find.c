/*
 * find [PATH]... [-maxdepth N] [-mindepth N] [-type f|d|c|p|l] [-name PATTERN]:
 * walk the trees below the paths (the cwd by default) and print the path
 * of every entry that passes all the tests, parents before children.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* Deeper than this is a loop or a mistake: the walk recurses. */
#define FIND_MAX_DEPTH	32

struct find {
	struct sh_out out;
	const char *name;	/* -name pattern, or NULL */
	enum sh_ftype type;	/* -type, or SH_FT_UNKNOWN for any */
	long long mindepth, maxdepth;
	int status;
};

static int collect(void *ctx, const char *name, enum sh_ftype type)
{
	if (strcmp(name, ".") && strcmp(name, ".."))
		sh_argv_push(ctx, kstrdup(name, GFP_KERNEL));
	return 0;
}

static void walk(struct find *f, const char *path, int depth)
{
	const char *base = strrchr(path, '/');
	struct sh_argv names = { 0 };
	struct sh_stat st;
	int err;

	err = sh_os->lstat(path, &st);	/* links are not followed (find -P) */
	if (err) {
		sh_eprintf("find: %s: %s\n", path, errno_text(-err));
		f->status = 1;
		return;
	}
	base = base && base[1] ? base + 1 : path;
	if (depth >= f->mindepth && (!f->name || sh_match(f->name, base)) &&
	    (f->type == SH_FT_UNKNOWN || f->type == st.type))
		out_printf(&f->out, "%s\n", path);
	if (st.type != SH_FT_DIR || depth >= f->maxdepth || sh_os->interrupted())
		return;
	if (depth == FIND_MAX_DEPTH) {
		sh_eprintf("find: %s: %s\n", path, errno_text(ELOOP));
		f->status = 1;
		return;
	}
	err = sh_os->readdir(path, collect, &names);
	if (err || names.oom) {
		sh_eprintf("find: %s: %s\n", path, errno_text(err ? -err : ENOMEM));
		f->status = 1;
	} else {
		sh_sort_strings(names.argv, (size_t)names.argc);
	}
	for (int i = 0; !err && i < names.argc && !f->out.err; i++) {
		struct sh_buf child = { 0 };
		size_t n = strlen(path);

		sh_buf_printf(&child, "%s%s%s", path, n && path[n - 1] == '/' ? "" : "/", names.argv[i]);
		if (child.s)
			walk(f, child.s, depth + 1);
		sh_buf_free(&child);
	}
	sh_argv_free(&names);
}

static bool parse_type(const char *s, enum sh_ftype *t)
{
	static const char letters[] = "fdcpl";
	static const enum sh_ftype types[] = { SH_FT_REG, SH_FT_DIR, SH_FT_CHR, SH_FT_FIFO, SH_FT_LNK };
	const char *p = s[0] && !s[1] ? strchr(letters, s[0]) : NULL;

	if (!p)
		return false;
	*t = types[p - letters];
	return true;
}

int cmd_find(int argc, char **argv, char **envp)
{
	struct find f = { .maxdepth = FIND_MAX_DEPTH };
	int first = 1, end = 1;

	while (end < argc && argv[end][0] != '-')
		end++;
	for (int i = end; i < argc; i += 2) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = arg != NULL;

		if (!strcmp(opt, "-print")) {
			i--;
			continue;
		} else if (ok && !strcmp(opt, "-name")) {
			f.name = arg;
		} else if (ok && !strcmp(opt, "-type")) {
			ok = parse_type(arg, &f.type);
		} else if (ok && (!strcmp(opt, "-maxdepth") || !strcmp(opt, "-mindepth"))) {
			ok = !sh_parse_int(arg, opt[2] == 'a' ? &f.maxdepth : &f.mindepth) &&
			     f.maxdepth >= 0 && f.mindepth >= 0;
		} else if (ok) {
			sh_eprintf("find: unknown predicate '%s'\n", opt);
			return 1;
		}
		if (!ok) {
			sh_eprintf("find: %s: %s\n", opt, arg ? "invalid argument" : "missing argument");
			return 1;
		}
	}
	if (f.maxdepth > FIND_MAX_DEPTH)
		f.maxdepth = FIND_MAX_DEPTH;
	out_init(&f.out, 1);
	if (first == end)
		walk(&f, ".", 0);
	for (int i = first; i < end && !f.out.err; i++)
		walk(&f, argv[i], 0);
	return out_finish(&f.out, "find", f.status);
}
