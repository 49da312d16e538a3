/*
 * tracing_map: lock-free, insert-only aggregation table. See tracing_map.h
 * for the life cycle; the concurrency argument is at __tracing_map_insert().
 */
#include <kernel/types.h>
#include <kernel/atomic.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>
#include <trace/tracing_map.h>

/* Allocation granule of the chunked arrays: one page. */
#define TRACING_MAP_CHUNK_SHIFT	12

static unsigned int ilog2_roundup(unsigned int n)
{
	unsigned int shift = 0;

	while ((1u << shift) < n)
		shift++;
	return shift;
}

/* --- chunked arrays ------------------------------------------------------- */

static void tracing_map_array_free(struct tracing_map_array *a)
{
	if (!a)
		return;
	for (unsigned int i = 0; i < a->n_chunks && a->chunks; i++)
		kfree(a->chunks[i]);
	kfree(a->chunks);
	kfree(a);
}

/* n_entries zeroed entries of entry_size bytes (rounded up to a power of two). */
static struct tracing_map_array *tracing_map_array_alloc(unsigned int n_entries,
							 unsigned int entry_size)
{
	struct tracing_map_array *a = kzalloc(sizeof(*a), GFP_KERNEL);
	unsigned int chunk_bytes;

	if (!a)
		return NULL;
	a->n_entries = n_entries;
	a->entry_shift = ilog2_roundup(entry_size);
	a->chunk_shift = a->entry_shift < TRACING_MAP_CHUNK_SHIFT ?
			 TRACING_MAP_CHUNK_SHIFT - a->entry_shift : 0;
	chunk_bytes = 1u << (a->chunk_shift + a->entry_shift);
	a->n_chunks = (n_entries + (1u << a->chunk_shift) - 1) >> a->chunk_shift;
	a->chunks = kcalloc(a->n_chunks, sizeof(void *), GFP_KERNEL);
	if (!a->chunks)
		goto fail;
	for (unsigned int i = 0; i < a->n_chunks; i++) {
		a->chunks[i] = kzalloc(chunk_bytes, GFP_KERNEL);
		if (!a->chunks[i])
			goto fail;
	}
	return a;
fail:
	tracing_map_array_free(a);
	return NULL;
}

static inline void *tracing_map_array_elt(const struct tracing_map_array *a, unsigned int idx)
{
	unsigned int mask = (1u << a->chunk_shift) - 1;

	return (char *)a->chunks[idx >> a->chunk_shift] + ((idx & mask) << a->entry_shift);
}

static void tracing_map_array_clear(struct tracing_map_array *a)
{
	unsigned int chunk_bytes = 1u << (a->chunk_shift + a->entry_shift);

	for (unsigned int i = 0; i < a->n_chunks; i++)
		memset(a->chunks[i], 0, chunk_bytes);
}

/* --- hashing and comparison -------------------------------------------- */

static inline u64 hash_mix(u64 h, u64 w)
{
	h ^= w;
	h *= 0xff51afd7ed558ccdUL;
	return h ^ (h >> 32);
}

/*
 * A 64-bit multiply-xorshift over 8-byte words with a full final
 * avalanche: the table indexes by the top bits, so they must depend on
 * every key bit.
 */
static inline u32 hash_key(const void *key, unsigned int len)
{
	const u8 *p = key;
	u64 h = 0x9e3779b97f4a7c15UL ^ len;
	u64 w;

	for (; len >= 8; p += 8, len -= 8) {
		__builtin_memcpy(&w, p, 8);
		h = hash_mix(h, w);
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = hash_mix(h, w);
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53UL;
	h ^= h >> 29;
	return (u32)(h >> 32) ^ (u32)h;
}

u32 tracing_map_hash(const void *key, unsigned int len)
{
	return hash_key(key, len);
}

#define DEFINE_TRACING_MAP_CMP(type)					\
static int tracing_map_cmp_##type(const void *a, const void *b)		\
{									\
	type x, y;							\
	memcpy(&x, a, sizeof(x));					\
	memcpy(&y, b, sizeof(y));					\
	return x < y ? -1 : x > y;					\
}
DEFINE_TRACING_MAP_CMP(s64)
DEFINE_TRACING_MAP_CMP(u64)
DEFINE_TRACING_MAP_CMP(s32)
DEFINE_TRACING_MAP_CMP(u32)
DEFINE_TRACING_MAP_CMP(s16)
DEFINE_TRACING_MAP_CMP(u16)
DEFINE_TRACING_MAP_CMP(s8)
DEFINE_TRACING_MAP_CMP(u8)

tracing_map_cmp_fn_t tracing_map_cmp_num(unsigned int size, bool is_signed)
{
	switch (size) {
	case 8: return is_signed ? tracing_map_cmp_s64 : tracing_map_cmp_u64;
	case 4: return is_signed ? tracing_map_cmp_s32 : tracing_map_cmp_u32;
	case 2: return is_signed ? tracing_map_cmp_s16 : tracing_map_cmp_u16;
	case 1: return is_signed ? tracing_map_cmp_s8 : tracing_map_cmp_u8;
	default: return tracing_map_cmp_none;
	}
}

int tracing_map_cmp_string(const void *a, const void *b)
{
	return strcmp(a, b);
}

int tracing_map_cmp_none(const void *a, const void *b)
{
	return 0;
}

/* --- setup --------------------------------------------------------------- */

struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size,
				       const struct tracing_map_ops *ops, void *private_data)
{
	struct tracing_map *map;

	if (map_bits < TRACING_MAP_BITS_MIN || map_bits > TRACING_MAP_BITS_MAX || !key_size)
		return NULL;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return NULL;
	map->map_bits = map_bits;
	map->max_elts = 1u << map_bits;
	map->map_size = 2u << map_bits;
	map->key_size = key_size;
	map->ops = ops;
	map->private_data = private_data;
	for (unsigned int i = 0; i < TRACING_MAP_KEYS_MAX; i++)
		map->key_idx[i] = -1;
	map->slots = tracing_map_array_alloc(map->map_size, sizeof(struct tracing_map_entry));
	map->counters = kcalloc(nr_cpu_ids, sizeof(*map->counters), GFP_KERNEL);
	if (!map->slots || !map->counters) {
		tracing_map_destroy(map);
		return NULL;
	}
	return map;
}

/* Sum fields have no cmp_fn: sorting compares their totals as u64. */
int tracing_map_add_sum_field(struct tracing_map *map)
{
	if (map->elts || map->n_fields >= TRACING_MAP_FIELDS_MAX)
		return -EINVAL;
	map->fields[map->n_fields].cmp_fn = NULL;
	return (int)map->n_fields++;
}

int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn)
{
	if (map->elts || map->n_fields >= TRACING_MAP_FIELDS_MAX ||
	    map->n_keys >= TRACING_MAP_KEYS_MAX || offset >= map->key_size || !cmp_fn)
		return -EINVAL;
	map->fields[map->n_fields].cmp_fn = cmp_fn;
	map->fields[map->n_fields].offset = offset;
	map->key_idx[map->n_keys++] = (int)map->n_fields;
	return (int)map->n_fields++;
}

int tracing_map_add_var(struct tracing_map *map)
{
	if (map->elts || map->n_vars >= TRACING_MAP_VARS_MAX)
		return -EINVAL;
	return (int)map->n_vars++;
}

static inline struct tracing_map_elt *elt_at(struct tracing_map *map, unsigned int idx)
{
	return tracing_map_array_elt(map->elts, idx);
}

/* Return an element to the state of a fresh, unused one. */
static void tracing_map_elt_clear(struct tracing_map_elt *elt)
{
	struct tracing_map *map = elt->map;

	for (unsigned int i = 0; i < map->n_fields; i++)
		if (!map->fields[i].cmp_fn)
			atomic64_set(&elt->fields[i].sum, 0);
	for (unsigned int i = 0; i < map->n_vars; i++) {
		atomic64_set(&elt->vars[i], 0);
		elt->var_set[i] = false;
	}
	memset(elt->key, 0, map->key_size);
	if (map->ops && map->ops->elt_clear)
		map->ops->elt_clear(elt);
}

/* Free the element pool; elements [0, n) own private data. */
static void tracing_map_free_elts(struct tracing_map *map, unsigned int n)
{
	if (!map->elts)
		return;
	for (unsigned int i = 0; i < n && map->ops && map->ops->elt_free; i++)
		map->ops->elt_free(elt_at(map, i));
	tracing_map_array_free(map->elts);
	map->elts = NULL;
}

/*
 * Element storage, in one stride: the header, fields[], vars[], var_set[]
 * and the key, so an element costs no allocation of its own.
 */
int tracing_map_init(struct tracing_map *map)
{
	size_t off_fields = ALIGN_UP(sizeof(struct tracing_map_elt), 8);
	size_t off_vars = off_fields + map->n_fields * sizeof(struct tracing_map_field);
	size_t off_set = off_vars + map->n_vars * sizeof(atomic64_t);
	size_t off_key = ALIGN_UP(off_set + map->n_vars * sizeof(bool), 8);
	size_t stride = off_key + ALIGN_UP(map->key_size, 8);

	if (map->elts || map->n_fields < 2 || !map->n_keys)
		return -EINVAL;
	map->elts = tracing_map_array_alloc(map->max_elts, (unsigned int)stride);
	if (!map->elts)
		return -ENOMEM;
	for (unsigned int i = 0; i < map->max_elts; i++) {
		struct tracing_map_elt *elt = elt_at(map, i);
		char *base = (char *)elt;

		elt->map = map;
		elt->fields = (struct tracing_map_field *)(base + off_fields);
		elt->vars = (atomic64_t *)(base + off_vars);
		elt->var_set = (bool *)(base + off_set);
		elt->key = base + off_key;
		memcpy(elt->fields, map->fields, map->n_fields * sizeof(*elt->fields));
		if (map->ops && map->ops->elt_alloc) {
			int ret = map->ops->elt_alloc(elt);

			if (ret) {
				tracing_map_free_elts(map, i);
				return ret;
			}
		}
		tracing_map_elt_clear(elt);
	}
	return 0;
}

void tracing_map_destroy(struct tracing_map *map)
{
	if (!map)
		return;
	tracing_map_free_elts(map, map->max_elts);
	tracing_map_array_free(map->slots);
	kfree(map->counters);
	kfree(map);
}

void tracing_map_clear(struct tracing_map *map)
{
	unsigned int used = (unsigned int)atomic_read(&map->next_elt);

	atomic_set(&map->next_elt, 0);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		atomic64_set(&map->counters[cpu].hits, 0);
		atomic64_set(&map->counters[cpu].drops, 0);
	}
	tracing_map_array_clear(map->slots);
	for (unsigned int i = 0; i < used && i < map->max_elts; i++)
		tracing_map_elt_clear(elt_at(map, i));
}

u64 tracing_map_hits(const struct tracing_map *map)
{
	u64 sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += (u64)atomic64_read(&map->counters[cpu].hits);
	return sum;
}

u64 tracing_map_drops(const struct tracing_map *map)
{
	u64 sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		sum += (u64)atomic64_read(&map->counters[cpu].drops);
	return sum;
}

/* --- the event path ------------------------------------------------------- */

/*
 * Atomic even though per-CPU: an NMI may count on this CPU in the middle
 * of a task-context increment.
 */
static inline void count_hit(struct tracing_map *map)
{
	atomic64_inc(&map->counters[smp_processor_id()].hits);
}

static inline void count_drop(struct tracing_map *map)
{
	atomic64_inc(&map->counters[smp_processor_id()].drops);
}

/*
 * Take the next element of the pool, or NULL once all are in use. One
 * fetch-add rather than a cmpxchg loop, so CPUs inserting new keys at once
 * do not retry; the read first keeps next_elt from running far past
 * max_elts (at most one increment per CPU in flight), and readers clamp it.
 */
static struct tracing_map_elt *get_free_elt(struct tracing_map *map)
{
	int idx;

	if (atomic_read(&map->next_elt) >= (int)map->max_elts)
		return NULL;
	idx = atomic_add_return(&map->next_elt, 1) - 1;
	if (idx >= (int)map->max_elts)
		return NULL;
	return elt_at(map, (unsigned int)idx);
}

/*
 * Keys are mostly whole 8-byte slots: compare words inline, not via
 * memcmp (__builtin_memcpy: freestanding, a plain memcpy is a call).
 */
static inline bool keys_match(const void *a, const void *b, unsigned int size)
{
	const char *x = a, *y = b;
	u64 u, v;

	for (; size >= 8; x += 8, y += 8, size -= 8) {
		__builtin_memcpy(&u, x, 8);
		__builtin_memcpy(&v, y, 8);
		if (u != v)
			return false;
	}
	return !size || !memcmp(x, y, size);
}

/*
 * Probe from the slot the hash's top bits name. A slot is claimed by
 * cmpxchg'ing its hash from 0; the claimer then copies the key into a
 * pool element and publishes the element with release order, so a CPU
 * that finds the hash but no element yet is looking at a claim in flight:
 * it re-reads the same slot (the claimer may be inserting this very key).
 * If that CPU interrupted the claimer (an NMI on the same CPU), the claim
 * can never finish under it, so after map_size re-reads it gives up and
 * counts a drop. Slots and elements are never freed while the map is live,
 * so readers need no locks at all.
 */
static struct tracing_map_elt *__tracing_map_insert(struct tracing_map *map,
						    const void *key, bool lookup_only)
{
	u32 key_hash = hash_key(key, map->key_size);
	u32 idx, test_key;
	unsigned int dup_try = 0;
	struct tracing_map_entry *entry;
	struct tracing_map_elt *val;

	if (!key_hash)
		key_hash = 1;
	idx = key_hash >> (32 - (map->map_bits + 1));

	for (;;) {
		idx &= map->map_size - 1;
		entry = tracing_map_array_elt(map->slots, idx);
		test_key = READ_ONCE(entry->key);

		if (test_key == key_hash) {
			val = smp_load_acquire(&entry->val);
			if (val && keys_match(key, val->key, map->key_size)) {
				if (!lookup_only)
					count_hit(map);
				return val;
			}
			if (!val) {
				if (++dup_try > map->map_size)
					goto drop;
				cpu_relax();	/* the claimer is copying the key in */
				continue;
			}
			/* A different key with the same hash: keep probing. */
		} else if (!test_key) {
			if (lookup_only)
				return NULL;
			if (cmpxchg(&entry->key, 0, key_hash) != 0) {
				/* Lost the slot: the winner may hold our key; look again. */
				if (++dup_try > map->map_size)
					goto drop;
				continue;
			}
			val = get_free_elt(map);
			if (!val) {
				WRITE_ONCE(entry->key, 0);
				goto drop;
			}
			memcpy(val->key, key, map->key_size);
			if (map->ops && map->ops->elt_init)
				map->ops->elt_init(val);
			smp_store_release(&entry->val, val);
			count_hit(map);
			return val;
		}
		idx++;
	}
drop:
	if (!lookup_only)
		count_drop(map);
	return NULL;
}

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, const void *key)
{
	return __tracing_map_insert(map, key, false);
}

struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, const void *key)
{
	return __tracing_map_insert(map, key, true);
}

/* --- sorting -------------------------------------------------------------- */

struct sort_ctx {
	struct tracing_map *map;
	const struct tracing_map_sort_key *keys;
	unsigned int n_keys;
};

static int cmp_one(const struct sort_ctx *ctx, const struct tracing_map_sort_key *sk,
		   const struct tracing_map_sort_entry *a, const struct tracing_map_sort_entry *b)
{
	const struct tracing_map_field *f = &ctx->map->fields[sk->field_idx];
	int ret;

	if (f->cmp_fn) {
		ret = f->cmp_fn((char *)a->key + f->offset, (char *)b->key + f->offset);
	} else {
		u64 x = tracing_map_read_sum(a->elt, sk->field_idx);
		u64 y = tracing_map_read_sum(b->elt, sk->field_idx);

		ret = x < y ? -1 : x > y;
	}
	return sk->descending ? -ret : ret;
}

static int cmp_entries(const struct sort_ctx *ctx, const struct tracing_map_sort_entry *a,
		       const struct tracing_map_sort_entry *b)
{
	for (unsigned int i = 0; i < ctx->n_keys; i++) {
		int ret = cmp_one(ctx, &ctx->keys[i], a, b);

		if (ret)
			return ret;
	}
	return 0;
}

/* Bottom-up merge sort: stable, O(n log n), one scratch array. */
static void merge_sort(const struct sort_ctx *ctx, struct tracing_map_sort_entry *v,
		       struct tracing_map_sort_entry *tmp, unsigned int n)
{
	for (unsigned int width = 1; width < n; width *= 2) {
		for (unsigned int lo = 0; lo < n; lo += 2 * width) {
			unsigned int mid = min(lo + width, n), hi = min(lo + 2 * width, n);
			unsigned int i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = cmp_entries(ctx, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
}

int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry **entries)
{
	struct sort_ctx ctx = { map, sort_keys, n_sort_keys };
	struct tracing_map_sort_entry *v, *tmp;
	unsigned int n = 0, cap = min((unsigned int)atomic_read(&map->next_elt), map->max_elts);

	*entries = NULL;
	if (n_sort_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < n_sort_keys; i++)
		if (sort_keys[i].field_idx >= map->n_fields)
			return -EINVAL;
	if (!cap)
		return 0;
	/* Elements published after next_elt was read are left for the next read. */
	v = kcalloc(cap, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (unsigned int i = 0; i < map->map_size; i++) {
		struct tracing_map_entry *entry = tracing_map_array_elt(map->slots, i);
		struct tracing_map_elt *elt;

		if (!READ_ONCE(entry->key))
			continue;
		elt = smp_load_acquire(&entry->val);
		if (!elt || n == cap)
			continue;
		v[n].key = elt->key;
		v[n].elt = elt;
		n++;
	}
	if (!n) {
		kfree(v);
		return 0;
	}
	tmp = kcalloc(n, sizeof(*tmp), GFP_KERNEL);
	if (!tmp) {
		kfree(v);
		return -ENOMEM;
	}
	merge_sort(&ctx, v, tmp, n);
	kfree(tmp);
	*entries = v;
	return (int)n;
}
