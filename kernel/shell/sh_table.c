/* Hashed name tables (sh_table.h). */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/shell/sh_table.h>

/* FNV-1a: names are short, so a byte loop is as fast as anything wider. */
static u32 name_hash(const char *s)
{
	u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (u8)*s) * 16777619u;
	return h;
}

struct sh_name *sh_table_find(const struct sh_table *t, const char *name)
{
	u32 h;

	if (!t->count)
		return NULL;
	h = name_hash(name);
	for (struct sh_name *n = t->buckets[h & (t->nbuckets - 1)]; n; n = n->hnext)
		if (n->hash == h && !strcmp(n->name, name))
			return n;
	return NULL;
}

/* Rehash into twice the buckets once there are more names than buckets. */
static int grow(struct sh_table *t)
{
	u32 nb = t->nbuckets ? t->nbuckets * 2 : 16;
	struct sh_name **b = kcalloc(nb, sizeof(*b), GFP_KERNEL);

	if (!b)
		return -ENOMEM;
	for (u32 i = 0; i < t->nbuckets; i++) {
		while (t->buckets[i]) {
			struct sh_name *n = t->buckets[i];

			t->buckets[i] = n->hnext;
			n->hnext = b[n->hash & (nb - 1)];
			b[n->hash & (nb - 1)] = n;
		}
	}
	kfree(t->buckets);
	t->buckets = b;
	t->nbuckets = nb;
	return 0;
}

int sh_table_add(struct sh_table *t, struct sh_name *n)
{
	struct sh_name **head;

	if (t->count >= t->nbuckets && grow(t) && !t->nbuckets)
		return -ENOMEM;	/* a full table that cannot grow still takes more */
	n->hash = name_hash(n->name);
	head = &t->buckets[n->hash & (t->nbuckets - 1)];
	n->hnext = *head;
	*head = n;
	t->count++;
	return 0;
}

void sh_table_del(struct sh_table *t, struct sh_name *n)
{
	for (struct sh_name **pp = &t->buckets[n->hash & (t->nbuckets - 1)]; *pp; pp = &(*pp)->hnext) {
		if (*pp == n) {
			*pp = n->hnext;
			t->count--;
			return;
		}
	}
}

void sh_table_free(struct sh_table *t)
{
	kfree(t->buckets);
	*t = (struct sh_table){ 0 };
}
