/*
 * test EXPR and [ EXPR ]: file tests, string and integer comparisons,
 * ! -a -o and parentheses. Status 0 true, 1 false, 2 on a bad expression.
 */
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

struct test_state {
	int argc, pos;
	char **argv;
	bool error;
	int depth;
};

static bool test_or(struct test_state *t);

static void test_error(struct test_state *t, const char *what, const char *arg)
{
	if (!t->error)
		sh_eprintf("test: %s%s%s\n", arg ? arg : "", arg ? ": " : "", what);
	t->error = true;
}

static const char *peek_arg(struct test_state *t, int off)
{
	return t->pos + off < t->argc ? t->argv[t->pos + off] : NULL;
}

static bool file_test(char op, const char *path)
{
	struct sh_stat st;

	if ((op == 'L' || op == 'h') ? sh_os->lstat(path, &st) : sh_os->stat(path, &st))
		return false;
	switch (op) {
	case 'L':
	case 'h': return st.type == SH_FT_LNK;
	case 'f': return st.type == SH_FT_REG;
	case 'd': return st.type == SH_FT_DIR;
	case 'c': return st.type == SH_FT_CHR;
	case 'p': return st.type == SH_FT_FIFO;
	case 's': return st.size > 0;
	case 'r': return st.mode & 0444;
	case 'w': return st.mode & 0222;
	case 'x': return st.mode & 0111;
	default: return true;	/* -e */
	}
}

static bool int_arg(struct test_state *t, const char *s, long long *v)
{
	if (sh_parse_int(s, v)) {
		test_error(t, "integer expression expected", s);
		return false;
	}
	return true;
}

static int binary_op(const char *op)
{
	static const char *const ops[] = { "=", "==", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "<", ">" };

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (op && !strcmp(op, ops[i]))
			return (int)i;
	return -1;
}

static bool test_primary(struct test_state *t)
{
	const char *a = peek_arg(t, 0), *b = peek_arg(t, 1);
	int op;

	if (!a) {
		test_error(t, "argument expected", NULL);
		return false;
	}
	if (++t->depth > SH_MAX_NESTING) {
		test_error(t, "expression too complex", NULL);
		return false;
	}
	/* A binary operator after the first operand wins over unary readings. */
	if ((op = binary_op(b)) >= 0 && peek_arg(t, 2)) {
		const char *c = peek_arg(t, 2);
		long long x, y;

		t->pos += 3;
		t->depth--;
		if (op <= 2)
			return (strcmp(a, c) == 0) == (op < 2);
		if (op >= 9)
			return op == 9 ? strcmp(a, c) < 0 : strcmp(a, c) > 0;
		if (!int_arg(t, a, &x) || !int_arg(t, c, &y))
			return false;
		switch (op) {
		case 3: return x == y;
		case 4: return x != y;
		case 5: return x < y;
		case 6: return x <= y;
		case 7: return x > y;
		default: return x >= y;
		}
	}
	if (!strcmp(a, "!")) {
		bool r;

		t->pos++;
		r = !test_primary(t);
		t->depth--;
		return r;
	}
	if (!strcmp(a, "(") && t->argc - t->pos > 1) {
		bool r;

		t->pos++;
		r = test_or(t);
		if (!peek_arg(t, 0) || strcmp(peek_arg(t, 0), ")"))
			test_error(t, "')' expected", NULL);
		t->pos++;
		t->depth--;
		return r;
	}
	if (a[0] == '-' && a[1] && !a[2] && b && strchr("efdcpsrwxznLht", a[1])) {
		long long fd;

		t->pos += 2;
		t->depth--;
		if (a[1] == 'z')
			return !*b;
		if (a[1] == 'n')
			return *b;
		if (a[1] == 't')
			return int_arg(t, b, &fd) && fd >= 0 && fd <= 1000 && sh_os->isatty((int)fd);
		return file_test(a[1], b);
	}
	t->pos++;
	t->depth--;
	return *a != '\0';
}

static bool test_and(struct test_state *t)
{
	bool r = test_primary(t);

	while (!t->error && peek_arg(t, 0) && !strcmp(peek_arg(t, 0), "-a")) {
		t->pos++;
		r = test_primary(t) && r;
	}
	return r;
}

static bool test_or(struct test_state *t)
{
	bool r = test_and(t);

	while (!t->error && peek_arg(t, 0) && !strcmp(peek_arg(t, 0), "-o")) {
		t->pos++;
		r = test_and(t) || r;
	}
	return r;
}

int cmd_test(int argc, char **argv, char **envp)
{
	struct test_state t = { .argc = argc, .argv = argv, .pos = 1 };
	bool r;

	if (!strcmp(argv[0], "[")) {
		if (strcmp(argv[argc - 1], "]")) {
			sh_eprintf("[: missing ']'\n");
			return 2;
		}
		t.argc--;
	}
	if (t.argc == 1)
		return 1;
	r = test_or(&t);
	if (!t.error && t.pos < t.argc)
		test_error(&t, "unexpected operator", t.argv[t.pos]);
	return t.error ? 2 : !r;
}
