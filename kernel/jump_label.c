/*
 * Static key core: the sorted __jump_table and the enable/disable paths.
 * Flips are serialized by jump_label_lock; the patching itself (int3
 * protocol, cross-CPU sync) is arch_jump_label_transform's. Pure: on the
 * host there are no sites (the table bounds are weak and resolve to
 * NULL), so only the counting runs.
 */
#include <kernel/jump_label.h>
#include <kernel/spinlock.h>
#include <kernel/printk.h>

/* Bounded by the kernel linker script; absent (NULL) on the host. */
extern struct jump_entry __start___jump_table[] __attribute__((weak));
extern struct jump_entry __stop___jump_table[] __attribute__((weak));

static DEFINE_SPINLOCK(jump_label_lock);
static bool jump_label_ready;

/* An entry with its PC-relative fields resolved, so it can be stored anywhere. */
struct jump_abs {
	unsigned long code, target, key;	/* key keeps the branch bit */
};

static struct jump_abs jump_entry_abs(const struct jump_entry *e)
{
	return (struct jump_abs){
		.code = jump_entry_code(e),
		.target = jump_entry_target(e),
		.key = (unsigned long)&e->key + (unsigned long)e->key,
	};
}

static void jump_entry_store(struct jump_entry *e, struct jump_abs a)
{
	e->code = (s32)(long)(a.code - (unsigned long)&e->code);
	e->target = (s32)(long)(a.target - (unsigned long)&e->target);
	e->key = (long)(a.key - (unsigned long)&e->key);
}

static bool jump_abs_before(struct jump_abs a, struct jump_abs b)
{
	return (a.key & ~1UL) != (b.key & ~1UL) ? a.key < b.key : a.code < b.code;
}

/* Insertion sort by (key, code): a few hundred entries, once, at boot. */
static void jump_table_sort(struct jump_entry *t, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct jump_abs cur = jump_entry_abs(&t[i]);
		unsigned int j = i;

		while (j > 0 && jump_abs_before(cur, jump_entry_abs(&t[j - 1]))) {
			jump_entry_store(&t[j], jump_entry_abs(&t[j - 1]));
			j--;
		}
		jump_entry_store(&t[j], cur);
	}
}

static unsigned int key_run_length(struct static_key *key)
{
	struct jump_entry *e = key->entries;
	unsigned int n = 0;

	if (!e)
		return 0;
	while (e + n < __stop___jump_table && jump_entry_key(e + n) == key)
		n++;
	return n;
}

static void jump_label_update(struct static_key *key)
{
	unsigned int n = key_run_length(key);

	if (n && jump_label_ready)
		arch_jump_label_transform(key->entries, n, static_key_enabled(key));
}

/* Patch the key's sites whose instruction disagrees with its state. */
static void jump_label_fixup(struct static_key *key)
{
	unsigned int n = key_run_length(key);
	bool enabled = static_key_enabled(key);

	for (unsigned int i = 0; i < n; i++) {
		struct jump_entry *e = &key->entries[i];

		if (arch_jump_label_site_state(e) != (enabled != jump_entry_is_branch(e))) {
			arch_jump_label_transform(key->entries, n, enabled);
			return;
		}
	}
}

void jump_label_init(void)
{
	struct jump_entry *t = __start___jump_table;
	unsigned int n = (unsigned int)(__stop___jump_table - __start___jump_table);

	spin_lock(&jump_label_lock);
	jump_table_sort(t, n);
	for (unsigned int i = 0; i < n; i++) {
		struct static_key *key = jump_entry_key(&t[i]);

		if (arch_jump_label_site_state(&t[i]) < 0)
			panic("jump_label: site %pS holds neither NOP nor JMP",
			      (void *)jump_entry_code(&t[i]));
		if (i == 0 || jump_entry_key(&t[i - 1]) != key)
			key->entries = &t[i];
	}
	jump_label_ready = true;
	/* Keys flipped before now have sites still in their compile-time state. */
	for (unsigned int i = 0; i < n; i++)
		if (&t[i] == jump_entry_key(&t[i])->entries)
			jump_label_fixup(jump_entry_key(&t[i]));
	spin_unlock(&jump_label_lock);
	printk(KERN_INFO "jump_label: %u static branch sites\n", n);
}

void static_key_slow_inc(struct static_key *key)
{
	spin_lock(&jump_label_lock);
	if (atomic_inc_return(&key->enabled) == 1)
		jump_label_update(key);
	spin_unlock(&jump_label_lock);
}

void static_key_slow_dec(struct static_key *key)
{
	spin_lock(&jump_label_lock);
	if (atomic_read(&key->enabled) <= 0) {
		spin_unlock(&jump_label_lock);
		pr_warn("jump_label: unbalanced static_key_slow_dec\n");
		return;
	}
	if (atomic_dec_return(&key->enabled) == 0)
		jump_label_update(key);
	spin_unlock(&jump_label_lock);
}

void static_key_enable(struct static_key *key)
{
	spin_lock(&jump_label_lock);
	if (atomic_read(&key->enabled) <= 0) {
		atomic_set(&key->enabled, 1);
		jump_label_update(key);
	}
	spin_unlock(&jump_label_lock);
}

void static_key_disable(struct static_key *key)
{
	spin_lock(&jump_label_lock);
	if (atomic_read(&key->enabled) > 0) {
		atomic_set(&key->enabled, 0);
		jump_label_update(key);
	}
	spin_unlock(&jump_label_lock);
}

void jump_label_for_each_site(void (*show)(void *arg, const struct jump_entry *e, int state),
			      void *arg)
{
	spin_lock(&jump_label_lock);
	for (struct jump_entry *e = __start___jump_table; e < __stop___jump_table; e++)
		show(arg, e, arch_jump_label_site_state(e));
	spin_unlock(&jump_label_lock);
}
