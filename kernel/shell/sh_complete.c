/*
 * Tab completion of file names in the line editor, as readline does it
 * for a shell: the word before the cursor is a path; the names in its
 * directory that start with its last component are the candidates. One
 * candidate is completed whole, with "/" after a directory and a space
 * after anything else; several are completed to their longest common
 * prefix, and a Tab that adds nothing lists them under the line. Tab never
 * inserts itself: a tab in a line is invisible and rarely meant. Pure.
 */
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_buf.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_line.h>

#define COMPLETE_MAX	256	/* candidates listed; tracefs's events/ has fewer */

struct candidates {
	const char *prefix;
	size_t plen;
	char *names[COMPLETE_MAX];
	bool dir[COMPLETE_MAX];
	int n;
	int more;		/* matches beyond COMPLETE_MAX */
};

static int collect(void *ctx, const char *name, enum sh_ftype type)
{
	struct candidates *c = ctx;

	if (!strcmp(name, ".") || !strcmp(name, "..") || strncmp(name, c->prefix, c->plen))
		return 0;
	/* Dot files only when asked for, as ls and globbing do. */
	if (name[0] == '.' && c->prefix[0] != '.')
		return 0;
	if (c->n == COMPLETE_MAX) {
		c->more++;
		return 0;
	}
	c->names[c->n] = kstrdup(name, GFP_KERNEL);
	if (!c->names[c->n])
		return 1;
	c->dir[c->n++] = type == SH_FT_DIR;
	return 0;
}

/* A symlink's type is its target's: stat() the candidate. */
static void resolve_links(struct candidates *c, const char *dir)
{
	struct sh_buf path = { 0 };
	struct sh_stat st;

	for (int i = 0; i < c->n; i++) {
		path.len = 0;
		sh_buf_printf(&path, "%s%s", dir, c->names[i]);
		if (!path.oom && !sh_os->stat(path.s, &st))
			c->dir[i] = st.type == SH_FT_DIR;
	}
	sh_buf_free(&path);
}

static size_t common_prefix(const struct candidates *c)
{
	size_t n = strlen(c->names[0]);

	for (int i = 1; i < c->n; i++) {
		size_t k = 0;

		while (k < n && c->names[i][k] == c->names[0][k])
			k++;
		n = k;
	}
	return n;
}

/* Characters the shell would take apart get a backslash. */
static void insert_quoted(struct sh_line *l, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strchr(" \t\\'\"$&|;<>()*?[]`#~", s[i]))
			sh_line_insert(l, "\\", 1);
		sh_line_insert(l, s + i, 1);
	}
}

/* Listed in ls's order. */
static void sort(struct candidates *c)
{
	for (int i = 1; i < c->n; i++)
		for (int j = i; j > 0 && strcmp(c->names[j - 1], c->names[j]) > 0; j--) {
			char *name = c->names[j];
			bool dir = c->dir[j];

			c->names[j] = c->names[j - 1];
			c->dir[j] = c->dir[j - 1];
			c->names[j - 1] = name;
			c->dir[j - 1] = dir;
		}
}

static void list(struct sh_line *l, struct candidates *c)
{
	sort(c);
	sh_buf_puts(&l->echo, "\r\n");
	for (int i = 0; i < c->n; i++)
		sh_buf_printf(&l->echo, "%s%s%s", c->names[i], c->dir[i] ? "/" : "",
			      i + 1 < c->n ? "  " : "");
	if (c->more)
		sh_buf_printf(&l->echo, "  ... (%d more)", c->more);
	sh_buf_puts(&l->echo, "\r\n");
	sh_line_redraw(l);
}

void sh_line_complete(struct sh_line *l)
{
	struct candidates c = { 0 };
	size_t start = l->pos, slash;
	char *word, *dir;

	while (start && !strchr(" \t;|&<>()", l->buf[start - 1]))
		start--;
	word = kstrndup(l->buf + start, l->pos - start, GFP_KERNEL);
	if (!word)
		return;
	slash = strlen(word);
	while (slash && word[slash - 1] != '/')
		slash--;
	dir = kstrndup(word, slash, GFP_KERNEL);
	c.prefix = word + slash;
	c.plen = strlen(c.prefix);
	if (dir && !sh_os->readdir(slash ? dir : ".", collect, &c) && c.n) {
		size_t common;

		resolve_links(&c, dir);
		common = common_prefix(&c);
		if (common > c.plen)
			insert_quoted(l, c.names[0] + c.plen, common - c.plen);
		if (c.n == 1 && !c.more)
			sh_line_insert(l, c.dir[0] ? "/" : " ", 1);
		else if (common == c.plen)
			list(l, &c);
	} else {
		sh_buf_putc(&l->echo, '\a');	/* nothing matches: the terminal's bell */
	}
	for (int i = 0; i < c.n; i++)
		kfree(c.names[i]);
	kfree(dir);
	kfree(word);
}
