/*
 * Leftmost-longest matching (regex.h) by simulating the compiled program
 * as a set of states, Thompson's construction run breadth first: each
 * state is held once per position, by the thread that started leftmost
 * (from a state, the future is the same whoever reached it), so a text of
 * length L and a program of N instructions cost at most L x N steps.
 */
#include <kernel/slab.h>
#include <kernel/shell/regex.h>
#include <kernel/shell/regex_prog.h>

/* A thread: an instruction that consumes a byte, and where its match started. */
struct re_thread {
	int pc;
	long start;
};

struct re_sim {
	const struct regex *re;
	const char *s;
	long len;
	long *mark;		/* mark[pc] == gen: pc is in the list being built */
	int *stack;		/* the closure's work list */
	long best_start, best_end;
};

static bool word_at(const struct re_sim *f, long pos)
{
	return pos >= 0 && pos < f->len && is_word((unsigned char)f->s[pos]);
}

/* Does the zero-width instruction in hold at pos? */
static bool assertion_holds(const struct re_sim *f, const struct re_inst *in, long pos)
{
	switch (in->op) {
	case OP_BOL: return pos == 0;
	case OP_EOL: return pos == f->len;
	case OP_WORDB: return word_at(f, pos - 1) != word_at(f, pos);
	case OP_NWORDB: return word_at(f, pos - 1) == word_at(f, pos);
	case OP_WBEGIN: return !word_at(f, pos - 1) && word_at(f, pos);
	default: return word_at(f, pos - 1) && !word_at(f, pos);	/* OP_WEND */
	}
}

/*
 * Add pc and every state it reaches without consuming a byte, at pos, to
 * list (of *n threads); a MATCH reached is a candidate match.
 */
static void add(struct re_sim *f, struct re_thread *list, int *n, int pc0, long start, long pos)
{
	const struct re_inst *prog = f->re->prog;
	long gen = pos + 1;
	int top = 0;

	f->stack[top++] = pc0;
	while (top) {
		int pc = f->stack[--top];
		const struct re_inst *in = &prog[pc];

		if (f->mark[pc] == gen)
			continue;
		f->mark[pc] = gen;
		switch (in->op) {
		case OP_SPLIT:
			f->stack[top++] = in->y;
			f->stack[top++] = in->x;
			break;
		case OP_JMP:
			f->stack[top++] = in->x;
			break;
		case OP_SAVE:
			f->stack[top++] = pc + 1;
			break;
		case OP_MATCH:
			if (f->best_start < 0 || start < f->best_start ||
			    (start == f->best_start && pos > f->best_end)) {
				f->best_start = start;
				f->best_end = pos;
			}
			break;
		case OP_CHAR:
		case OP_ANY:
		case OP_CLASS:
			list[(*n)++] = (struct re_thread){ pc, start };
			break;
		default:
			if (assertion_holds(f, in, pos))
				f->stack[top++] = pc + 1;
		}
	}
}

static bool consumes(const struct regex *re, const struct re_inst *in, unsigned char c)
{
	switch (in->op) {
	case OP_CHAR: return (re->icase && c >= 'A' && c <= 'Z' ? c | 32 : c) == in->c;
	case OP_ANY: return c != '\n';
	default: return test_bit(in->set, c);	/* OP_CLASS */
	}
}

bool regex_search_longest(const struct regex *re, const char *s, size_t len, size_t from,
			  struct re_match *m)
{
	struct re_sim f = { .re = re, .s = s, .len = (long)len, .best_start = -1, .best_end = -1 };
	size_t n = (size_t)re->n;
	struct re_thread *cur = kmalloc(sizeof(*cur) * n, GFP_KERNEL);
	struct re_thread *next = kmalloc(sizeof(*next) * n, GFP_KERNEL);
	int ncur = 0;

	f.mark = kzalloc(sizeof(*f.mark) * n, GFP_KERNEL);
	f.stack = kmalloc(sizeof(*f.stack) * (2 * n + 2), GFP_KERNEL);
	if (!cur || !next || !f.mark || !f.stack)
		goto out;
	for (long pos = (long)from; pos <= f.len; pos++) {
		int nnext = 0;

		/* A new start while nothing matched: later starts cannot be leftmost. */
		if (f.best_start < 0 && (!re->anchored || pos == 0))
			add(&f, cur, &ncur, 0, pos, pos);
		if (!ncur && (f.best_start >= 0 || re->anchored))
			break;
		for (int i = 0; pos < f.len && i < ncur; i++) {
			const struct re_inst *in = &re->prog[cur[i].pc];

			if (f.best_start >= 0 && cur[i].start > f.best_start)
				continue;
			if (consumes(re, in, (unsigned char)s[pos]))
				add(&f, next, &nnext, cur[i].pc + 1, cur[i].start, pos + 1);
		}
		{
			struct re_thread *t = cur;

			cur = next;
			next = t;
			ncur = nnext;
		}
	}
out:
	kfree(cur);
	kfree(next);
	kfree(f.mark);
	kfree(f.stack);
	if (f.best_start < 0)
		return false;
	for (int i = 0; i < RE_NGROUPS; i++)
		m->start[i] = m->end[i] = -1;
	m->start[0] = f.best_start;
	m->end[0] = f.best_end;
	return true;
}
