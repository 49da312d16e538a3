/*
 * Static keys: a branch that costs one 5-byte NOP (or one JMP) until it is
 * flipped, by patching every site of the key in kernel text.
 *
 *   DEFINE_STATIC_KEY_FALSE(k);          off at boot
 *   if (static_branch_unlikely(&k)) ...  NOP while off: the body is out of line
 *   static_branch_enable(&k);            patch every site to a JMP
 *   static_key_slow_inc/dec(&k.key);     reference-counted enable/disable
 *
 * Each site records { code, target, key } (PC-relative) in __jump_table;
 * jump_label_init() sorts the table by key at boot. On the host (unit
 * tests) the branch is a plain read of the key.
 */
#ifndef KERNEL_JUMP_LABEL_H
#define KERNEL_JUMP_LABEL_H

#include <kernel/types.h>
#include <kernel/atomic.h>

/*
 * One site in __jump_table, PC-relative so the table needs no relocation:
 * { s32 code - &code, s32 target - &target, s64 key - &key | branch }.
 * branch (bit 0 of the key) is true for static_branch_likely sites: the
 * site jumps exactly when (key enabled) != branch.
 */
struct jump_entry {
	s32 code;
	s32 target;
	long key;
};

struct static_key {
	atomic_t enabled;		/* > 0: on (a count for slow_inc/dec) */
	struct jump_entry *entries;	/* this key's run in the sorted __jump_table */
};

struct static_key_true { struct static_key key; };
struct static_key_false { struct static_key key; };

#define STATIC_KEY_INIT_TRUE	{ .enabled = ATOMIC_INIT(1), .entries = NULL }
#define STATIC_KEY_INIT_FALSE	{ .enabled = ATOMIC_INIT(0), .entries = NULL }
#define DEFINE_STATIC_KEY_TRUE(name) struct static_key_true name = { STATIC_KEY_INIT_TRUE }
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { STATIC_KEY_INIT_FALSE }
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name

static inline unsigned long jump_entry_code(const struct jump_entry *e)
{
	return (unsigned long)&e->code + (unsigned long)(long)e->code;
}
static inline unsigned long jump_entry_target(const struct jump_entry *e)
{
	return (unsigned long)&e->target + (unsigned long)(long)e->target;
}
static inline struct static_key *jump_entry_key(const struct jump_entry *e)
{
	return (struct static_key *)(((unsigned long)&e->key + (unsigned long)e->key) & ~1UL);
}
static inline bool jump_entry_is_branch(const struct jump_entry *e)
{
	return ((unsigned long)&e->key + (unsigned long)e->key) & 1UL;
}

#include <asm/jump_label.h>

#define __key_is_true(x) __builtin_types_compatible_p(__typeof__(*(x)), struct static_key_true)

/*
 * The site starts as the instruction matching the key's initial state:
 * unlikely + default-false and likely + default-true start as NOP.
 */
#define static_branch_unlikely(x) (__key_is_true(x) ?				\
	arch_static_branch_jump(&(x)->key, false) :				\
	arch_static_branch(&(x)->key, false))
#define static_branch_likely(x) (__key_is_true(x) ?				\
	!arch_static_branch(&(x)->key, true) :					\
	!arch_static_branch_jump(&(x)->key, true))

static inline bool static_key_enabled(struct static_key *key)
{
	return atomic_read(&key->enabled) > 0;
}

void static_key_slow_inc(struct static_key *key);
void static_key_slow_dec(struct static_key *key);
void static_key_enable(struct static_key *key);
void static_key_disable(struct static_key *key);
#define static_branch_enable(x)		static_key_enable(&(x)->key)
#define static_branch_disable(x)	static_key_disable(&(x)->key)
#define static_branch_inc(x)		static_key_slow_inc(&(x)->key)
#define static_branch_dec(x)		static_key_slow_dec(&(x)->key)

/* Boot: sort __jump_table, check every site holds its expected instruction. */
void jump_label_init(void);
/*
 * Call show(arg, e, state) for every site, grouped by key (table order),
 * state being what the site holds now: 1 JMP, 0 NOP, -1 neither. Under
 * the lock flips take, so no site is seen mid-patch. For
 * /sys/kernel/debug/static_keys (kernel/jump_label_debugfs.c).
 */
void jump_label_for_each_site(void (*show)(void *arg, const struct jump_entry *e, int state),
			      void *arg);
/* Kernel: create /sys/kernel/debug/static_keys (after tracefs made debug/). */
int jump_label_debugfs_init(void);

#endif
