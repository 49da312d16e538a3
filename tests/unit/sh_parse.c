/* Unit tests of the shell parser: structure, quoting, redirections, errors, hostile input. */
/* uses: kernel/shell/sh_parse.c kernel/shell/sh_lex.c kernel/shell/sh_arena.c kernel/shell/sh_buf.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <kernel/shell/sh.h>
#include <stdio.h>
#include <stdlib.h>

static void dump(struct sh_buf *b, const struct sh_node *n);

static void dump_redirs(struct sh_buf *b, const struct sh_redir *r)
{
	static const char *const ops[] = {
		[SH_R_IN] = "<", [SH_R_OUT] = ">", [SH_R_APPEND] = ">>", [SH_R_RDWR] = "<>",
		[SH_R_DUPIN] = "<&", [SH_R_DUPOUT] = ">&", [SH_R_HEREDOC] = "<<",
	};

	for (; r; r = r->next)
		sh_buf_printf(b, " %d%s%s", r->fd, ops[r->op], r->word);
}

static void dump_list(struct sh_buf *b, const char *tag, const struct sh_node *n)
{
	sh_buf_printf(b, "(%s", tag);
	if (n) {
		sh_buf_putc(b, ' ');
		dump(b, n);
	}
	sh_buf_putc(b, ')');
}

/* The tree as an s-expression: what the tests compare. */
static void dump(struct sh_buf *b, const struct sh_node *n)
{
	switch (n->type) {
	case SH_N_SIMPLE:
		sh_buf_putc(b, '[');
		for (int i = 0; i < n->simple.nassigns; i++)
			sh_buf_printf(b, "%s%s", i ? " " : "", n->simple.assigns[i]);
		for (int i = 0; i < n->simple.nwords; i++)
			sh_buf_printf(b, "%s%s", i || n->simple.nassigns ? " " : "", n->simple.words[i]);
		dump_redirs(b, n->redirs);
		sh_buf_putc(b, ']');
		return;
	case SH_N_PIPE:
		sh_buf_puts(b, "(pipe");
		for (int i = 0; i < n->pipe.n; i++) {
			sh_buf_putc(b, ' ');
			dump(b, n->pipe.cmds[i]);
		}
		sh_buf_putc(b, ')');
		return;
	case SH_N_AND:
	case SH_N_OR:
		sh_buf_puts(b, n->type == SH_N_AND ? "(and " : "(or ");
		dump(b, n->bin.left);
		sh_buf_putc(b, ' ');
		dump(b, n->bin.right);
		sh_buf_putc(b, ')');
		return;
	case SH_N_NOT:
		dump_list(b, "not", n->one.body);
		return;
	case SH_N_SUBSHELL:
	case SH_N_GROUP:
		dump_list(b, n->type == SH_N_GROUP ? "group" : "sub", n->one.body);
		break;
	case SH_N_LIST:
		sh_buf_puts(b, "(list");
		for (int i = 0; i < n->list.n; i++) {
			sh_buf_putc(b, ' ');
			dump(b, n->list.items[i]);
			if (n->list.background[i])
				sh_buf_putc(b, '&');
		}
		sh_buf_putc(b, ')');
		return;
	case SH_N_IF:
		sh_buf_puts(b, "(if ");
		dump(b, n->ifn.cond);
		sh_buf_putc(b, ' ');
		dump(b, n->ifn.then);
		if (n->ifn.els) {
			sh_buf_putc(b, ' ');
			dump(b, n->ifn.els);
		}
		sh_buf_putc(b, ')');
		break;
	case SH_N_WHILE:
	case SH_N_UNTIL:
		sh_buf_puts(b, n->type == SH_N_WHILE ? "(while " : "(until ");
		dump(b, n->loop.cond);
		sh_buf_putc(b, ' ');
		dump(b, n->loop.body);
		sh_buf_putc(b, ')');
		break;
	case SH_N_FOR:
		sh_buf_printf(b, "(for %s", n->forn.var);
		if (n->forn.has_in) {
			sh_buf_puts(b, " in");
			for (int i = 0; i < n->forn.nwords; i++)
				sh_buf_printf(b, " %s", n->forn.words[i]);
		}
		sh_buf_puts(b, " : ");
		dump(b, n->forn.body);
		sh_buf_putc(b, ')');
		break;
	case SH_N_CASE:
		sh_buf_printf(b, "(case %s", n->casen.word);
		for (const struct sh_case_item *it = n->casen.items; it; it = it->next) {
			sh_buf_puts(b, " (");
			for (int i = 0; i < it->npats; i++)
				sh_buf_printf(b, "%s%s", i ? "|" : "", it->pats[i]);
			sh_buf_puts(b, " :");
			if (it->body) {
				sh_buf_putc(b, ' ');
				dump(b, it->body);
			}
			sh_buf_putc(b, ')');
		}
		sh_buf_putc(b, ')');
		break;
	case SH_N_FUNC:
		sh_buf_printf(b, "(func %s ", n->func.name);
		dump(b, n->func.body);
		sh_buf_putc(b, ')');
		return;
	}
	dump_redirs(b, n->redirs);
}

/* Parse all of src; the dumps of its commands joined by " ; ", or "ERR: msg". */
static char *parse(const char *src, size_t len)
{
	struct sh_parser p;
	struct sh_buf b = { 0 };
	struct sh_node *n;
	struct sh_arena *a;
	int r, count = 0;

	sh_parser_init(&p, src, len);
	while ((r = sh_parse_next(&p, &n, &a)) == SH_PARSE_OK) {
		if (count++)
			sh_buf_puts(&b, " ; ");
		dump(&b, n);
		sh_arena_put(a);
	}
	if (r == SH_PARSE_ERROR)
		sh_buf_printf(&b, "%sERR%s: %s", count ? " ; " : "", p.incomplete ? "+" : "", p.err);
	return sh_buf_take(&b);
}

#define check(src, want) do {						\
	char *got_ = parse(src, strlen(src));				\
	cr_expect_str_eq(got_, want, "parse of \"%s\": got \"%s\"", src, got_);		\
	free(got_);							\
} while (0)

Test(sh_parse, simple_commands)
{
	check("echo hello world", "[echo hello world]");
	check("  echo   a\tb  ", "[echo a b]");
	check("", "");
	check("\n\n", "");
	check("ls; pwd", "(list [ls] [pwd])");
	check("ls\npwd", "[ls] ; [pwd]");
	check("a;b;", "(list [a] [b])");
	check("true&", "(list [true]&)");
	check("a & b", "(list [a]& [b])");
}

Test(sh_parse, comments)
{
	check("echo a # comment", "[echo a]");
	check("# only a comment", "");
	check("echo a#b", "[echo a#b]");
	check("echo '#x' \"#y\"", "[echo '#x' \"#y\"]");
	check("echo a\n# c\necho b", "[echo a] ; [echo b]");
}

Test(sh_parse, quoting_keeps_words_whole)
{
	check("echo 'a b' \"c d\" e\\ f", "[echo 'a b' \"c d\" e\\ f]");
	check("echo 'a;b|c&d'", "[echo 'a;b|c&d']");
	check("echo \"a \\\" b\"", "[echo \"a \\\" b\"]");
	check("echo '\\'", "[echo '\\']");
	check("echo \"it's\"", "[echo \"it's\"]");
	check("echo a'b'\"c\"d", "[echo a'b'\"c\"d]");
	check("echo \"multi\nline\"", "[echo \"multi\nline\"]");
	check("echo 'x\ny'", "[echo 'x\ny']");
}

Test(sh_parse, line_continuation)
{
	check("echo a \\\nb", "[echo a b]");
	check("ec\\\nho x", "[echo x]");
	check("echo 'a\\\nb'", "[echo 'a\\\nb']");
	check("a &&\\\n b", "(and [a] [b])");
}

Test(sh_parse, substitutions_are_one_word)
{
	check("echo $(ls -l | wc -l) x", "[echo $(ls -l | wc -l) x]");
	check("echo `date; uptime`", "[echo `date; uptime`]");
	check("echo $((1 + (2 * 3)))", "[echo $((1 + (2 * 3)))]");
	check("echo ${A:-a b} c", "[echo ${A:-a b} c]");
	check("echo \"$(echo \")\")\"", "[echo \"$(echo \")\")\"]");
	check("echo $(echo $(echo deep))", "[echo $(echo $(echo deep))]");
	check("x=$(cat f; echo ')')", "[x=$(cat f; echo ')')]");
	check("echo \"${x}\"$y", "[echo \"${x}\"$y]");
}

Test(sh_parse, assignments)
{
	check("A=1", "[A=1]");
	check("A=1 B=2 cmd arg", "[A=1 B=2 cmd arg]");
	check("cmd A=1", "[cmd A=1]");
	check("1A=x", "[1A=x]");
	check("A='x y' env", "[A='x y' env]");
	check("=x", "[=x]");
}

Test(sh_parse, redirections)
{
	check("echo a > f", "[echo a 1>f]");
	check("echo a >f", "[echo a 1>f]");
	check("echo a >> f", "[echo a 1>>f]");
	check("cat < f", "[cat 0<f]");
	check("cmd 2>&1", "[cmd 2>&1]");
	check("cmd >&2", "[cmd 1>&2]");
	check("cmd 2>/dev/null >out", "[cmd 2>/dev/null 1>out]");
	check("cmd 3>f 0<&3", "[cmd 3>f 0<&3]");
	check(">f", "[ 1>f]");
	check("cmd a2>f", "[cmd a2 1>f]");
	check("cmd 2 >f", "[cmd 2 1>f]");
	check("cmd <>f", "[cmd 0<>f]");
	check("cmd >|f", "[cmd 1>f]");
	check("echo a>f b", "[echo a b 1>f]");
	check("{ echo a; } > f 2>&1", "(group [echo a]) 1>f 2>&1");
	check("while read l; do echo $l; done < in", "(while [read l] [echo $l]) 0<in");
}

Test(sh_parse, heredocs)
{
	check("cat <<EOF\nhello $x\nEOF\n", "[cat 0<<hello $x\n]");
	check("cat <<'E'\na\nb\nE\necho after", "[cat 0<<a\nb\n] ; [echo after]");
	check("cat <<-E\n\tindented\n\tE\n", "[cat 0<<indented\n]");
	check("cat <<A; cat <<B\n1\nA\n2\nB\n", "(list [cat 0<<1\n] [cat 0<<2\n])");
	check("cat <<EOF\nno end", "ERR+: here-document delimited by end of file");
}

Test(sh_parse, and_or_not_pipes)
{
	check("a && b || c", "(or (and [a] [b]) [c])");
	check("a || b && c", "(and (or [a] [b]) [c])");
	check("a | b | c", "(pipe [a] [b] [c])");
	check("! a | b", "(not (pipe [a] [b]))");
	check("a |\n b", "(pipe [a] [b])");
	check("a &&\n\n b", "(and [a] [b])");
	check("a|b&&c|d", "(and (pipe [a] [b]) (pipe [c] [d]))");
	check("! true", "(not [true])");
}

Test(sh_parse, compound_commands)
{
	check("if a; then b; fi", "(if [a] [b])");
	check("if a; then b; elif c; then d; else e; fi", "(if [a] [b] (if [c] [d] [e]))");
	check("if a\nthen\n b\n c\nfi", "(if [a] (list [b] [c]))");
	check("while a; do b; done", "(while [a] [b])");
	check("until a; do b; done", "(until [a] [b])");
	check("for i in 1 2 3; do echo $i; done", "(for i in 1 2 3 : [echo $i])");
	check("for i\ndo echo $i\ndone", "(for i : [echo $i])");
	check("for i in; do x; done", "(for i in : [x])");
	check("(cd /; ls)", "(sub (list [cd /] [ls]))");
	check("{ a; b; }", "(group (list [a] [b]))");
	check("( ( a ) )", "(sub (sub [a]))");
	check("{ a & }", "(group (list [a]&))");
	check("if a; then b; fi | c", "(pipe (if [a] [b]) [c])");
	check("echo if then fi", "[echo if then fi]");
	check("'if' x", "['if' x]");
}

Test(sh_parse, case_statements)
{
	check("case $x in a) echo A;; b|c) echo BC;; *) ;; esac",
	      "(case $x (a : [echo A]) (b|c : [echo BC]) (* :))");
	check("case x in\n(a*) y\nesac", "(case x (a* : [y]))");
	check("case x in esac", "(case x)");
	check("case x\nin\n  a)\n    one\n    ;;\n  'b c') two;;\nesac",
	      "(case x (a : [one]) ('b c' : [two]))");
}

Test(sh_parse, functions)
{
	check("f() { echo hi; }", "(func f (group [echo hi]))");
	check("f ()\n{\n echo hi\n}", "(func f (group [echo hi]))");
	check("f() ( echo sub )", "(func f (sub [echo sub]))");
	check("f() { a; } > log", "(func f (group [a]) 1>log)");
	check("f() if a; then b; fi", "(func f (if [a] [b]))");
}

Test(sh_parse, syntax_errors)
{
	check("fi", "ERR: unexpected 'fi'");
	check("echo a; fi", "ERR: unexpected 'fi'");
	check("if a; then fi", "ERR: unexpected 'fi'");
	check("if then", "ERR: unexpected 'then'");
	check("then", "ERR: unexpected 'then'");
	check("done", "ERR: unexpected 'done'");
	check("esac", "ERR: unexpected 'esac'");
	check("}", "ERR: unexpected '}'");
	check(";", "ERR: unexpected ';'");
	check(";;", "ERR: unexpected ';;'");
	check("a ;; b", "ERR: unexpected ';;'");
	check("| a", "ERR: unexpected '|'");
	check("a |", "ERR+: unexpected end of file");
	check("a && && b", "ERR: unexpected '&&'");
	check("a || ;", "ERR: unexpected ';'");
	check("& a", "ERR: unexpected '&'");
	check("echo >", "ERR+: unexpected end of file");
	check("echo >\n", "ERR: unexpected newline");
	check("echo > ;", "ERR: unexpected ';'");
	check("echo 2>\n", "ERR: unexpected newline");
	check("( )", "ERR: unexpected ')'");
	check(")", "ERR: unexpected ')'");
	check("( a", "ERR+: unexpected end of file");
	check("a )", "ERR: unexpected ')'");
	check("{ }", "ERR: unexpected '}'");
	check("{ a", "ERR+: unexpected end of file");
	check("if a; then b", "ERR+: unexpected end of file");
	check("if a; then b; else fi", "ERR: unexpected 'fi'");
	check("while a; done", "ERR: unexpected 'done'");
	check("while a; do done", "ERR: unexpected 'done'");
	check("for; do x; done", "ERR: unexpected ';'");
	check("for 1x in a; do b; done", "ERR: bad for loop variable '1x'");
	check("for i in a b do x; done", "ERR: unexpected 'done'");
	check("case", "ERR+: unexpected end of file");
	check("case x y", "ERR: unexpected 'y'");
	check("case x in a) b", "ERR+: unexpected end of file");
	check("case x in a b) c;; esac", "ERR: unexpected 'b'");
	check("f() echo", "ERR: unexpected 'echo'");
	check("f(x) { a; }", "ERR: unexpected 'x'");
	check("1f() { a; }", "ERR: bad function name '1f'");
	check("! !", "ERR: unexpected '!'");
	check("echo ok\nfi\necho never", "[echo ok] ; ERR: unexpected 'fi'");
}

Test(sh_parse, unterminated_quotes_need_more_input)
{
	check("echo 'abc", "ERR+: unterminated quoted string");
	check("echo \"abc", "ERR+: unterminated quoted string");
	check("echo `abc", "ERR+: unterminated quoted string");
	check("echo $(abc", "ERR+: missing ')'");
	check("echo ${abc", "ERR+: missing '}'");
	check("echo $((1+2)", "ERR+: missing ')'");
	check("echo \"$(echo 'x)\"", "ERR+: unterminated quoted string");
	check("echo a\\", "[echo a\\]");
}

Test(sh_parse, error_line_numbers)
{
	struct sh_parser p;
	struct sh_node *n;
	struct sh_arena *a;
	const char *src = "echo a\n\nif x; then\n  y\nfi fi\n";

	sh_parser_init(&p, src, strlen(src));
	cr_assert_eq(sh_parse_next(&p, &n, &a), SH_PARSE_OK);
	cr_assert_eq(n->lineno, 1);
	sh_arena_put(a);
	cr_assert_eq(sh_parse_next(&p, &n, &a), SH_PARSE_ERROR);
	cr_assert_str_eq(p.err, "unexpected 'fi'");
	cr_assert_eq(p.err_line, 5);
	/* The error sticks: a broken parser does not resynchronise by itself. */
	cr_assert_eq(sh_parse_next(&p, &n, &a), SH_PARSE_ERROR);
}

Test(sh_parse, hostile_long_line)
{
	size_t len = 10 * 1024;
	char *src = malloc(len + 1);
	char *got;

	/* "echo x x x ...": 5118 words. */
	memcpy(src, "echo", 4);
	for (size_t i = 4; i < len; i++)
		src[i] = i % 2 ? 'x' : ' ';
	src[len] = '\0';
	got = parse(src, len);
	cr_assert_not_null(got);
	cr_assert_eq(strncmp(got, "[echo x x", 9), 0);
	cr_assert_eq(strlen(got), len + 2);
	free(got);
	/* One 10 kB word, and a 10 kB unterminated string. */
	memset(src, 'y', len);
	got = parse(src, len);
	cr_assert_eq(strlen(got), len + 2);
	free(got);
	src[0] = '"';
	got = parse(src, len);
	cr_assert_str_eq(got, "ERR+: unterminated quoted string");
	free(got);
	free(src);
}

static char *nest(const char *open, const char *close, int depth)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc((lo + lc) * (size_t)depth + 8), *p = s;

	for (int i = 0; i < depth; i++)
		p += sprintf(p, "%s", open);
	p += sprintf(p, "x");
	for (int i = 0; i < depth; i++)
		p += sprintf(p, "%s", close);
	*p = '\0';
	return s;
}

Test(sh_parse, hostile_deep_nesting)
{
	char *src, *got;

	src = nest("( ", " )", 200);
	got = parse(src, strlen(src));
	cr_assert_str_eq(got, "ERR: nesting too deep");
	free(got);
	free(src);

	src = nest("if a; then ", "; fi", 200);
	got = parse(src, strlen(src));
	cr_assert_str_eq(got, "ERR: nesting too deep");
	free(got);
	free(src);

	src = nest("$(", ")", 200);
	got = parse(src, strlen(src));
	cr_assert_str_eq(got, "ERR: nesting too deep");
	free(got);
	free(src);

	/* Deep, but within the limit, parses. */
	src = nest("{ ", "; }", 20);
	got = parse(src, strlen(src));
	cr_assert_eq(strncmp(got, "(group (group ", 14), 0);
	free(got);
	free(src);
}

Test(sh_parse, hostile_bytes)
{
	static const char nul[] = "echo a\0b";
	char *got = parse(nul, sizeof(nul) - 1);
	char ctl[64];

	cr_assert_str_eq(got, "ERR: NUL byte in input");
	free(got);
	/* Control bytes are ordinary word bytes. */
	snprintf(ctl, sizeof(ctl), "echo \x01\x02\x7f\x1b[0m");
	got = parse(ctl, strlen(ctl));
	cr_assert_str_eq(got, "[echo \x01\x02\x7f\x1b[0m]");
	free(got);
	/* Every byte value, at every position of a short line, never crashes. */
	for (int c = 1; c < 256; c++) {
		for (int pos = 0; pos < 6; pos++) {
			char s[8] = "a $b'c";
			s[pos] = (char)c;
			got = parse(s, 6);
			cr_assert_not_null(got);
			free(got);
		}
	}
}
