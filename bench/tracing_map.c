/*
 * tracing_map throughput on the host: what one hist update costs (insert
 * or find the key, then add hitcount and one sum) for an existing key,
 * and new-key inserts per second with 1 and 2 threads.
 */
/* uses: trace/tracing_map.c kernel/lib/kstring.c */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <kernel/types.h>
#include <asm/percpu.h>
#include <trace/tracing_map.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct tracing_map *new_map(unsigned int bits)
{
	struct tracing_map *map = tracing_map_create(bits, sizeof(u64), NULL, NULL);

	tracing_map_add_sum_field(map);
	tracing_map_add_sum_field(map);
	tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, false));
	if (tracing_map_init(map))
		return NULL;
	return map;
}

struct worker {
	struct tracing_map *map;
	int cpu;
	u64 first, n, key_mask;	/* keys first.. or (i & key_mask) when key_mask */
	double secs;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	double t0;

	host_cpu_id = w->cpu;
	t0 = now();
	for (u64 i = 0; i < w->n; i++) {
		u64 key = w->first + (w->key_mask ? (i & w->key_mask) : i);
		struct tracing_map_elt *elt = tracing_map_insert(w->map, &key);

		if (elt) {
			tracing_map_update_sum(elt, 0, 1);
			tracing_map_update_sum(elt, 1, i);
		}
	}
	w->secs = now() - t0;
	return NULL;
}

/* n_threads workers; returns the slowest worker's time. */
static double run(struct worker *w, int n_threads)
{
	pthread_t t[2];
	double secs = 0;

	for (int i = 0; i < n_threads; i++)
		pthread_create(&t[i], NULL, work, &w[i]);
	for (int i = 0; i < n_threads; i++) {
		pthread_join(t[i], NULL);
		if (w[i].secs > secs)
			secs = w[i].secs;
	}
	return secs;
}

int main(void)
{
	const u64 hot_n = 20000000;
	const u64 ins_n = 1u << (TRACING_MAP_BITS_MAX - 1);	/* 2 threads fill the map */
	struct tracing_map *map;
	struct worker w[2];
	double secs;

	/* Hot case: a handful of existing keys, one thread. */
	map = new_map(TRACING_MAP_BITS_DEFAULT);
	w[0] = (struct worker){ map, 0, 0, hot_n, 7, 0 };
	secs = run(w, 1);
	printf("update existing key, 1 thread:  %6.1f ns/update\n", secs * 1e9 / (double)hot_n);
	tracing_map_clear(map);
	w[1] = (struct worker){ map, 1, 0, hot_n, 7, 0 };
	secs = run(w, 2);
	printf("update existing key, 2 threads: %6.1f ns/update per thread (same 8 keys)\n",
	       secs * 1e9 / (double)hot_n);
	tracing_map_clear(map);
	w[0] = (struct worker){ map, 0, 0, hot_n, 7, 0 };
	w[1] = (struct worker){ map, 1, 1000, hot_n, 7, 0 };
	secs = run(w, 2);
	printf("update existing key, 2 threads: %6.1f ns/update per thread (disjoint keys)\n",
	       secs * 1e9 / (double)hot_n);
	tracing_map_destroy(map);

	/* New keys: each insert claims a slot and an element. */
	for (int threads = 1; threads <= 2; threads++) {
		double best = 1e9;

		for (int rep = 0; rep < 5; rep++) {
			map = new_map(TRACING_MAP_BITS_MAX);
			for (int i = 0; i < threads; i++)
				w[i] = (struct worker){ map, i, (u64)i * ins_n, ins_n, 0, 0 };
			secs = run(w, threads);
			if (secs < best)
				best = secs;
			if (tracing_map_drops(map))
				printf("unexpected drops: %lu\n", tracing_map_drops(map));
			tracing_map_destroy(map);
		}
		printf("new-key inserts, %d thread%s:     %6.2f M inserts/s (%.1f ns each)\n",
		       threads, threads > 1 ? "s" : " ", (double)(threads * ins_n) / best / 1e6,
		       best * 1e9 / (double)ins_n);
	}
	return 0;
}
