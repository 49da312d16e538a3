/* Unit tests of tracing_map: counting, drops, concurrency, NMI-style nesting, sorting, clear. */
/* uses: trace/tracing_map.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <pthread.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <asm/percpu.h>
#include <trace/tracing_map.h>

/* A map keyed by one u64 with hitcount (field 0) and one more sum (field 1). */
static struct tracing_map *new_map(unsigned int bits, const struct tracing_map_ops *ops)
{
	struct tracing_map *map = tracing_map_create(bits, sizeof(u64), ops, NULL);

	cr_assert_not_null(map);
	cr_assert_eq(tracing_map_add_sum_field(map), 0);
	cr_assert_eq(tracing_map_add_sum_field(map), 1);
	cr_assert_eq(tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, false)), 2);
	cr_assert_eq(tracing_map_init(map), 0);
	return map;
}

/* What the hist trigger does per event: insert, then count. */
static bool hit(struct tracing_map *map, u64 key, u64 val)
{
	struct tracing_map_elt *elt = tracing_map_insert(map, &key);

	if (!elt)
		return false;
	tracing_map_update_sum(elt, 0, 1);
	tracing_map_update_sum(elt, 1, val);
	return true;
}

static u64 count_of(struct tracing_map *map, u64 key)
{
	struct tracing_map_elt *elt = tracing_map_lookup(map, &key);

	return elt ? tracing_map_read_sum(elt, 0) : 0;
}

Test(tracing_map, create_rejects_bad_sizes)
{
	cr_assert_null(tracing_map_create(TRACING_MAP_BITS_MIN - 1, 8, NULL, NULL));
	cr_assert_null(tracing_map_create(TRACING_MAP_BITS_MAX + 1, 8, NULL, NULL));
	cr_assert_null(tracing_map_create(11, 0, NULL, NULL));

	struct tracing_map *map = tracing_map_create(TRACING_MAP_BITS_MAX, 8, NULL, NULL);

	cr_assert_eq(map->max_elts, 131072);
	cr_assert_eq(map->map_size, 262144);
	/* init needs a key and at least two fields */
	cr_assert_eq(tracing_map_init(map), -EINVAL);
	tracing_map_add_sum_field(map);
	cr_assert_eq(tracing_map_add_key_field(map, 8, tracing_map_cmp_num(8, false)), -EINVAL);
	cr_assert_eq(tracing_map_init(map), -EINVAL);
	tracing_map_destroy(map);
}

Test(tracing_map, single_thread_exact_counts)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_DEFAULT, NULL);

	for (u64 i = 0; i < 10000; i++)
		cr_assert(hit(map, i % 100, i));
	for (u64 k = 0; k < 100; k++) {
		struct tracing_map_elt *elt = tracing_map_lookup(map, &k);

		cr_assert_not_null(elt);
		cr_assert_eq(tracing_map_read_sum(elt, 0), 100);
		/* sum of k, k+100, ..., k+9900 */
		cr_assert_eq(tracing_map_read_sum(elt, 1), 100 * k + 100 * 9900 / 2);
		cr_assert_eq(*(u64 *)elt->key, k);
	}
	u64 missing = 100;
	cr_assert_null(tracing_map_lookup(map, &missing));
	cr_assert_eq(tracing_map_hits(map), 10000);
	cr_assert_eq(tracing_map_drops(map), 0);
	cr_assert_eq(atomic_read(&map->next_elt), 100);
	tracing_map_destroy(map);
}

Test(tracing_map, full_map_drops_exactly_counted)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, NULL);
	unsigned int ok = 0;

	for (u64 k = 0; k < 300; k++)
		ok += hit(map, k * 7919, 1);
	cr_assert_eq(ok, 128);
	cr_assert_eq(tracing_map_drops(map), 172);
	cr_assert_eq(tracing_map_hits(map), 128);
	/* Keys already in keep updating; new keys keep dropping. */
	cr_assert(hit(map, 0, 1));
	cr_assert_eq(count_of(map, 0), 2);
	cr_assert_not(hit(map, 1, 1));
	cr_assert_eq(tracing_map_drops(map), 173);
	tracing_map_destroy(map);
}

/* --- concurrency ---------------------------------------------------------- */

struct hammer {
	struct tracing_map *map;
	int cpu;
	unsigned int n_keys;
	unsigned int iters;
	unsigned int ok;
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	u64 x = (u64)h->cpu * 0x9e3779b97f4a7c15UL + 1;

	host_cpu_id = h->cpu;
	for (unsigned int i = 0; i < h->iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		h->ok += hit(h->map, x % h->n_keys, 3);
	}
	return NULL;
}

static void hammer(struct tracing_map *map, unsigned int n_keys, unsigned int iters,
		   struct hammer *h, int n)
{
	pthread_t t[8];

	for (int i = 0; i < n; i++) {
		h[i] = (struct hammer){ map, i, n_keys, iters, 0 };
		pthread_create(&t[i], NULL, hammer_thread, &h[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static u64 total_sum(struct tracing_map *map, unsigned int field, unsigned int *entries)
{
	struct tracing_map_sort_key sk = { 0, false };
	struct tracing_map_sort_entry *v;
	int n = tracing_map_sort_entries(map, &sk, 1, &v);
	u64 sum = 0;

	cr_assert_geq(n, 0);
	for (int i = 0; i < n; i++)
		sum += tracing_map_read_sum(v[i].elt, field);
	kfree(v);
	*entries = (unsigned int)n;
	return sum;
}

Test(tracing_map, threads_overlapping_keys_lose_nothing)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_DEFAULT, NULL);
	struct hammer h[4];
	unsigned int entries;

	hammer(map, 1500, 50000, h, 4);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(h[i].ok, 50000);
	cr_assert_eq(tracing_map_drops(map), 0);
	cr_assert_eq(tracing_map_hits(map), 200000);
	cr_assert_eq(total_sum(map, 0, &entries), 200000);
	cr_assert_eq(total_sum(map, 1, &entries), 3 * 200000);
	cr_assert_eq(entries, 1500);
	tracing_map_destroy(map);
}

Test(tracing_map, threads_on_a_full_map_count_drops_exactly)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, NULL);
	struct hammer h[4];
	unsigned int entries, ok = 0;

	hammer(map, 1000, 20000, h, 4);
	for (int i = 0; i < 4; i++)
		ok += h[i].ok;
	cr_assert_eq(total_sum(map, 0, &entries), ok);
	cr_assert_eq(entries, 128);
	cr_assert_eq(tracing_map_hits(map), ok);
	cr_assert_eq(tracing_map_drops(map), 80000 - ok);
	cr_assert_gt(tracing_map_drops(map), 0);
	tracing_map_destroy(map);
}

/* --- NMI-style nesting ------------------------------------------------------- */

/*
 * elt_init runs between claiming a slot and publishing its element: the
 * window an NMI on the same CPU can hit. The nested insert must neither
 * hang nor corrupt the map.
 */
static struct tracing_map_elt *nested_result;
static u64 nested_key;
static bool nesting;

static void nmi_elt_init(struct tracing_map_elt *elt)
{
	if (nesting)
		return;
	nesting = true;
	nested_result = tracing_map_insert(elt->map, &nested_key);
	if (nested_result)
		tracing_map_update_sum(nested_result, 0, 1);
	nesting = false;
}

static const struct tracing_map_ops nmi_ops = { .elt_init = nmi_elt_init };

Test(tracing_map, nested_insert_of_same_key_is_a_counted_drop)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, &nmi_ops);

	nested_key = 42;
	cr_assert(hit(map, 42, 5));
	cr_assert_null(nested_result);
	cr_assert_eq(tracing_map_drops(map), 1);
	cr_assert_eq(tracing_map_hits(map), 1);
	cr_assert_eq(count_of(map, 42), 1);
	/* The interrupted insert completed; the key works normally afterwards. */
	cr_assert(hit(map, 42, 5));
	cr_assert_eq(count_of(map, 42), 2);
	tracing_map_destroy(map);
}

Test(tracing_map, nested_insert_of_other_key_succeeds)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, &nmi_ops);

	nested_key = 7;
	cr_assert(hit(map, 8, 5));
	cr_assert_not_null(nested_result);
	cr_assert_eq(*(u64 *)nested_result->key, 7);
	cr_assert_eq(count_of(map, 7), 1);
	cr_assert_eq(count_of(map, 8), 1);
	cr_assert_eq(tracing_map_hits(map), 2);
	cr_assert_eq(tracing_map_drops(map), 0);
	tracing_map_destroy(map);
}

/* --- variables, private data, clear ------------------------------------------- */

static int allocs, fail_at = -1;

static int count_alloc(struct tracing_map_elt *elt)
{
	if (allocs == fail_at)
		return -ENOMEM;
	elt->private_data = kzalloc(16, GFP_KERNEL);
	allocs++;
	return 0;
}

static void count_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
	allocs--;
}

static void mark_clear(struct tracing_map_elt *elt)
{
	if (elt->private_data)
		*(char *)elt->private_data = 0;
}

static void mark_init(struct tracing_map_elt *elt)
{
	*(char *)elt->private_data = 'x';
}

static const struct tracing_map_ops private_ops = {
	.elt_alloc = count_alloc, .elt_free = count_free,
	.elt_clear = mark_clear, .elt_init = mark_init,
};

Test(tracing_map, private_data_hooks_and_failed_init)
{
	struct tracing_map *map;

	allocs = 0;
	map = new_map(TRACING_MAP_BITS_MIN, &private_ops);
	cr_assert_eq(allocs, 128);	/* every element got private data */
	cr_assert(hit(map, 3, 0));
	cr_assert_eq(*(char *)tracing_map_lookup(map, &(u64){ 3 })->private_data, 'x');
	tracing_map_destroy(map);
	cr_assert_eq(allocs, 0);

	/* An element allocation failure unwinds what was allocated (ASan checks leaks). */
	fail_at = 100;	/* the 101st of 256 allocations fails */
	map = tracing_map_create(8, 8, &private_ops, NULL);
	tracing_map_add_sum_field(map);
	tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, false));
	cr_assert_eq(tracing_map_init(map), -ENOMEM);
	cr_assert_eq(allocs, 0);
	fail_at = -1;
	cr_assert_null(map->elts);
	tracing_map_destroy(map);
}

Test(tracing_map, variables_set_read_once)
{
	struct tracing_map *map = tracing_map_create(7, 8, NULL, NULL);
	struct tracing_map_elt *elt;

	tracing_map_add_sum_field(map);
	tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, false));
	cr_assert_eq(tracing_map_add_var(map), 0);
	cr_assert_eq(tracing_map_add_var(map), 1);
	cr_assert_eq(tracing_map_init(map), 0);
	cr_assert_eq(tracing_map_add_var(map), -EINVAL);	/* too late */

	elt = tracing_map_insert(map, &(u64){ 5 });
	cr_assert_not(tracing_map_var_set(elt, 0));
	tracing_map_set_var(elt, 1, 1234);
	cr_assert_not(tracing_map_var_set(elt, 0));
	cr_assert(tracing_map_var_set(elt, 1));
	cr_assert_eq(tracing_map_read_var(elt, 1), 1234);
	cr_assert(tracing_map_var_set(elt, 1));
	cr_assert_eq(tracing_map_read_var_once(elt, 1), 1234);
	cr_assert_not(tracing_map_var_set(elt, 1));
	tracing_map_destroy(map);
}

Test(tracing_map, vars_max)
{
	struct tracing_map *map = tracing_map_create(7, 8, NULL, NULL);

	for (int i = 0; i < TRACING_MAP_VARS_MAX; i++)
		cr_assert_eq(tracing_map_add_var(map), i);
	cr_assert_eq(tracing_map_add_var(map), -EINVAL);
	tracing_map_destroy(map);
}

Test(tracing_map, clear_forgets_everything)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, NULL);
	unsigned int entries;

	for (u64 k = 0; k < 200; k++)
		hit(map, k, 10);
	cr_assert_eq(tracing_map_drops(map), 72);
	tracing_map_clear(map);
	cr_assert_eq(tracing_map_hits(map), 0);
	cr_assert_eq(tracing_map_drops(map), 0);
	cr_assert_eq(total_sum(map, 0, &entries), 0);
	cr_assert_eq(entries, 0);
	cr_assert_null(tracing_map_lookup(map, &(u64){ 1 }));
	/* The whole pool is usable again, with zeroed sums. */
	for (u64 k = 1000; k < 1128; k++)
		cr_assert(hit(map, k, 1));
	cr_assert_eq(count_of(map, 1000), 1);
	cr_assert_eq(total_sum(map, 1, &entries), 128);
	tracing_map_destroy(map);
}

/* --- sorting -------------------------------------------------------------------- */

Test(tracing_map, sort_by_sum_and_key)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, NULL);
	struct tracing_map_sort_entry *v;
	/* key k hit (k % 4) + 1 times, each adding k */
	for (u64 k = 0; k < 20; k++)
		for (u64 i = 0; i <= k % 4; i++)
			hit(map, k, k);

	struct tracing_map_sort_key by_hits[2] = { { 0, false }, { 2, true } };
	cr_assert_eq(tracing_map_sort_entries(map, by_hits, 2, &v), 20);
	for (int i = 0; i < 20; i++) {
		/* hitcount ascending, then key descending within equal hitcounts */
		cr_assert_eq(tracing_map_read_sum(v[i].elt, 0), (u64)(i / 5 + 1));
		cr_assert_eq(*(u64 *)v[i].key, (u64)(16 + i / 5 - 4 * (i % 5)));
	}
	kfree(v);

	struct tracing_map_sort_key by_sum = { 1, true };
	cr_assert_eq(tracing_map_sort_entries(map, &by_sum, 1, &v), 20);
	for (int i = 1; i < 20; i++)
		cr_assert_geq(tracing_map_read_sum(v[i - 1].elt, 1), tracing_map_read_sum(v[i].elt, 1));
	cr_assert_eq(*(u64 *)v[0].key, 19);	/* 4 hits x 19 */
	kfree(v);

	struct tracing_map_sort_key by_key = { 2, false };
	cr_assert_eq(tracing_map_sort_entries(map, &by_key, 1, &v), 20);
	for (int i = 0; i < 20; i++)
		cr_assert_eq(*(u64 *)v[i].key, (u64)i);
	kfree(v);

	struct tracing_map_sort_key bad = { 9, false };
	cr_assert_eq(tracing_map_sort_entries(map, &bad, 1, &v), -EINVAL);
	cr_assert_eq(tracing_map_sort_entries(map, by_hits, 3, &v), -EINVAL);
	tracing_map_destroy(map);
}

Test(tracing_map, sort_compound_signed_and_string_keys)
{
	/* key = { s32 at 0 (8-byte slot), char[16] at 8 } */
	struct tracing_map *map = tracing_map_create(7, 24, NULL, NULL);
	struct tracing_map_sort_entry *v;
	struct { s32 n; u32 pad; char s[16]; } key;
	static const char *names[] = { "delta", "alpha", "charlie", "bravo" };

	tracing_map_add_sum_field(map);
	cr_assert_eq(tracing_map_add_key_field(map, 0, tracing_map_cmp_num(4, true)), 1);
	cr_assert_eq(tracing_map_add_key_field(map, 8, tracing_map_cmp_string), 2);
	cr_assert_eq(tracing_map_init(map), 0);
	for (int i = 0; i < 8; i++) {
		memset(&key, 0, sizeof(key));
		key.n = (i % 2) ? -i : i;
		strcpy(key.s, names[i % 4]);
		cr_assert_not_null(tracing_map_insert(map, &key));
	}
	struct tracing_map_sort_key by_num = { 1, false };
	cr_assert_eq(tracing_map_sort_entries(map, &by_num, 1, &v), 8);
	static const s32 want[] = { -7, -5, -3, -1, 0, 2, 4, 6 };
	for (int i = 0; i < 8; i++)
		cr_assert_eq(*(s32 *)v[i].key, want[i]);
	kfree(v);

	struct tracing_map_sort_key by_str[2] = { { 2, false }, { 1, true } };
	cr_assert_eq(tracing_map_sort_entries(map, by_str, 2, &v), 8);
	cr_assert_str_eq((char *)v[0].key + 8, "alpha");
	cr_assert_eq(*(s32 *)v[0].key, -1);	/* alpha: -1 and -5, descending */
	cr_assert_eq(*(s32 *)v[1].key, -5);
	cr_assert_str_eq((char *)v[7].key + 8, "delta");
	cr_assert_eq(*(s32 *)v[7].key, 0);
	kfree(v);
	tracing_map_destroy(map);
}

Test(tracing_map, empty_map_sorts_to_nothing)
{
	struct tracing_map *map = new_map(TRACING_MAP_BITS_MIN, NULL);
	struct tracing_map_sort_entry *v = (void *)1;
	struct tracing_map_sort_key sk = { 0, false };

	cr_assert_eq(tracing_map_sort_entries(map, &sk, 1, &v), 0);
	cr_assert_null(v);
	tracing_map_destroy(map);
}

Test(tracing_map, hash_spreads_sequential_keys)
{
	/* Sequential u64 keys must not pile into neighbouring top-bit buckets. */
	unsigned int buckets[16] = { 0 };

	for (u64 k = 0; k < 16000; k++)
		buckets[tracing_map_hash(&k, 8) >> 28]++;
	for (int i = 0; i < 16; i++) {
		cr_assert_gt(buckets[i], 800);
		cr_assert_lt(buckets[i], 1200);
	}
	cr_assert_neq(tracing_map_hash("abc", 3), tracing_map_hash("abd", 3));
}
