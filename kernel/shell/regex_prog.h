/*
 * The compiled form of a regular expression, shared by the compiler and
 * backtracking matcher (regex.c) and the leftmost-longest matcher
 * (regex_longest.c). Private to those two.
 */
#ifndef KERNEL_SHELL_REGEX_PROG_H
#define KERNEL_SHELL_REGEX_PROG_H

#include <kernel/types.h>
#include <kernel/shell/sh.h>

enum re_op { OP_CHAR, OP_ANY, OP_CLASS, OP_BOL, OP_EOL, OP_WORDB, OP_NWORDB, OP_WBEGIN,
	     OP_WEND, OP_SPLIT, OP_JMP, OP_SAVE, OP_MATCH };

/* One instruction; SPLIT tries x first, then y. */
struct re_inst {
	enum re_op op;
	unsigned char c;	/* OP_CHAR: lower case when icase */
	int x, y;
	const u8 *set;		/* OP_CLASS: 256-bit map, both cases when icase */
};

struct re_node;

struct regex {
	struct re_inst *prog;
	int n, cap;
	bool icase, anchored;
	/* the characters a match can begin with, unless any_start (it can be empty) */
	u8 first[32];
	bool any_start;
	/* the pattern is this plain string (lit_len > 0): a search needs no matcher */
	char lit[64];
	int lit_len;
	/* Every node, for freeing. */
	struct re_node **nodes;
	int nnodes, nodecap;
};

static inline bool is_word(int c)
{
	return sh_isalnum(c) || c == '_';
}

static inline bool test_bit(const u8 *set, int c)
{
	return set[c >> 3] >> (c & 7) & 1;
}

#endif
