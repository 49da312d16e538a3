/*
 * tracing_map: the aggregation table behind hist triggers. Pure.
 *
 * An insert-only, lock-free open-addressing hash table (after Cliff
 * Click's non-blocking table, as in Linux). The table has 2 x max_elts
 * slots so probe chains stay short; every element is allocated when the
 * map is initialised, so the event path (any context, NMI included) never
 * allocates, never takes a lock and never waits for another CPU except
 * for the few instructions between claiming a slot and publishing it.
 *
 * Life cycle: tracing_map_create() -> tracing_map_add_{sum,key}_field()
 * and tracing_map_add_var() -> tracing_map_init() (allocates the elements)
 * -> tracing_map_insert()/lookup() from events -> tracing_map_sort_entries()
 * to read -> tracing_map_clear() (only with no concurrent writers) ->
 * tracing_map_destroy().
 */
#ifndef TRACE_TRACING_MAP_H
#define TRACE_TRACING_MAP_H

#include <kernel/types.h>
#include <kernel/atomic.h>

#define TRACING_MAP_BITS_DEFAULT	11	/* 2048 elements */
#define TRACING_MAP_BITS_MIN		7	/* 128 */
#define TRACING_MAP_BITS_MAX		17	/* 131072 */

#define TRACING_MAP_KEYS_MAX		3
#define TRACING_MAP_VALS_MAX		3	/* hitcount included */
#define TRACING_MAP_FIELDS_MAX		(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX		16
#define TRACING_MAP_SORT_KEYS_MAX	2

/* Orders two field values: <0, 0, >0. Given pointers to the values. */
typedef int (*tracing_map_cmp_fn_t)(const void *a, const void *b);

/*
 * One field of an element. A sum field (a histogram value) holds its
 * running total; a key field holds the offset of its sub-key inside the
 * element's key, so sorting can compare that part of the key.
 */
struct tracing_map_field {
	tracing_map_cmp_fn_t cmp_fn;
	union {
		atomic64_t sum;
		unsigned int offset;
	};
};

/*
 * An element: one distinct key and its aggregates. All arrays live in the
 * element's own preallocated storage (see tracing_map.c).
 */
struct tracing_map_elt {
	struct tracing_map *map;
	struct tracing_map_field *fields;	/* [map->n_fields] */
	atomic64_t *vars;			/* [map->n_vars] */
	bool *var_set;				/* [map->n_vars]: vars[i] holds a value */
	void *key;				/* [map->key_size] the full key */
	void *private_data;			/* owned by map->ops (hist: comm, strings) */
};

/*
 * A hash slot. key is the 32-bit hash of the element's key (0 = free);
 * val is published after the element's key is copied, so a reader that
 * sees val sees the whole key.
 */
struct tracing_map_entry {
	u32 key;
	struct tracing_map_elt *val;
};

/* Hooks for the map's user to attach per-element data. */
struct tracing_map_ops {
	/* At tracing_map_init(), once per element: allocate private_data. */
	int (*elt_alloc)(struct tracing_map_elt *elt);
	/* At destroy: free what elt_alloc allocated. */
	void (*elt_free)(struct tracing_map_elt *elt);
	/* At clear: forget the per-entry state. */
	void (*elt_clear)(struct tracing_map_elt *elt);
	/* On the event path, when the element is taken for a new key. */
	void (*elt_init)(struct tracing_map_elt *elt);
};

/*
 * Storage for many equal-sized entries in page-sized chunks, so a big map
 * needs no big contiguous allocation. entry_size is a power of two.
 */
struct tracing_map_array {
	unsigned int n_entries;
	unsigned int entry_shift;	/* log2(entry size) */
	unsigned int chunk_shift;	/* log2(entries per chunk) */
	unsigned int n_chunks;
	void **chunks;
};

/* One sort criterion: a field index and its direction. */
struct tracing_map_sort_key {
	unsigned int field_idx;
	bool descending;
};

/* What tracing_map_sort_entries() hands out: one per live element. */
struct tracing_map_sort_entry {
	void *key;
	struct tracing_map_elt *elt;
};

struct tracing_map {
	unsigned int key_size;
	unsigned int map_bits;
	unsigned int map_size;		/* slots: 2 << map_bits */
	unsigned int max_elts;		/* elements: 1 << map_bits */
	atomic_t next_elt;		/* next free element of the pool */
	struct tracing_map_array *slots;	/* struct tracing_map_entry */
	struct tracing_map_array *elts;		/* element storage */
	const struct tracing_map_ops *ops;
	void *private_data;		/* the map's user (hist: hist_trigger_data) */

	struct tracing_map_field fields[TRACING_MAP_FIELDS_MAX];
	unsigned int n_fields;
	int key_idx[TRACING_MAP_KEYS_MAX];	/* which fields are keys */
	unsigned int n_keys;
	unsigned int n_vars;

	struct tracing_map_counters *counters;	/* [nr_cpu_ids] */
};

/*
 * Per-CPU event counters, one cache line each, so CPUs updating different
 * keys share no written line. Totals: tracing_map_hits()/drops().
 */
struct tracing_map_counters {
	atomic64_t hits;	/* successful inserts (new or existing key) */
	atomic64_t drops;	/* new keys that found no element */
} __aligned(64);

struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size,
				       const struct tracing_map_ops *ops, void *private_data);
/* Field registration, before tracing_map_init(). Return the field/var index or -errno. */
int tracing_map_add_sum_field(struct tracing_map *map);
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn);
int tracing_map_add_var(struct tracing_map *map);
/* Preallocate every element and empty the table. */
int tracing_map_init(struct tracing_map *map);
void tracing_map_destroy(struct tracing_map *map);
/* Forget every entry and counter. The caller guarantees no concurrent insert. */
void tracing_map_clear(struct tracing_map *map);

u64 tracing_map_hits(const struct tracing_map *map);
u64 tracing_map_drops(const struct tracing_map *map);

/* The element for key, created if new; NULL (and a drop counted) if the map is full. */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, const void *key);
/* The element for key if it exists; counts nothing. */
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, const void *key);

static inline void tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_add(&elt->fields[i].sum, (long)n);
}

static inline u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i)
{
	return (u64)atomic64_read(&elt->fields[i].sum);
}

static inline void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_set(&elt->vars[i], (long)n);
	smp_store_release(&elt->var_set[i], true);
}

static inline bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i)
{
	return smp_load_acquire(&elt->var_set[i]);
}

static inline u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i)
{
	return (u64)atomic64_read(&elt->vars[i]);
}

/* Read a variable and mark it unset, so each value is consumed once. */
static inline u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i)
{
	WRITE_ONCE(elt->var_set[i], false);
	return (u64)atomic64_read(&elt->vars[i]);
}

/*
 * Collect the live elements into a kmalloc'd array (free it with kfree)
 * sorted by up to two keys. The sort is stable: entries equal on every
 * key keep slot order. Returns the number of entries (*entries is NULL
 * when 0) or -errno.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     const struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry **entries);

/* Comparison functions for key fields. */
tracing_map_cmp_fn_t tracing_map_cmp_num(unsigned int size, bool is_signed);
int tracing_map_cmp_string(const void *a, const void *b);
int tracing_map_cmp_none(const void *a, const void *b);

/* The 32-bit hash the map uses (exposed for tests and hist_debug). */
u32 tracing_map_hash(const void *key, unsigned int len);

#endif
