/*
 * malloc_stress [ROUNDS]: random malloc/realloc/free over a table of live
 * blocks, sizes from a few bytes to megabytes, so both the brk/heap side of
 * musl's malloc and its mmap-backed large blocks (and munmap, mremap) run.
 * Every block is filled with a pattern tied to its slot and generation and
 * checked before it is freed and after every realloc: a page mapped twice,
 * lost by mremap or handed out while still in use shows as a mismatch. The
 * PRNG is fixed, so the run (and the printed checksum) is the same
 * everywhere; 5000 rounds by default, a few seconds under TCG.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 128

struct block {
	unsigned char *p;
	size_t size;
	unsigned tag;		/* decides the fill pattern */
};

static struct block slots[SLOTS];
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned long errors, checksum;

static uint64_t next(void)	/* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* pick_size: mostly small, some pages, a few past musl's mmap threshold. */
static size_t pick_size(void)
{
	uint64_t r = next();

	switch (r % 16) {
	case 0:
		return 128 * 1024 + r % (2 * 1024 * 1024);	/* mmap-backed */
	case 1: case 2:
		return 4096 + r % (64 * 1024);
	default:
		return 1 + r % 512;
	}
}

static unsigned char pattern(unsigned tag, size_t i)
{
	return (unsigned char)(tag * 31 + i * 7 + (i >> 12));
}

static void fill(struct block *b, size_t from)
{
	for (size_t i = from; i < b->size; i++)
		b->p[i] = pattern(b->tag, i);
}

/* check: the first N bytes still hold the pattern; adds them to the checksum. */
static void check(const struct block *b, size_t n, const char *when)
{
	for (size_t i = 0; i < n; i++) {
		if (b->p[i] != pattern(b->tag, i)) {
			if (errors++ < 5)
				printf("malloc_stress: %s: block of %zu bytes differs at %zu\n",
				       when, b->size, i);
			return;
		}
		checksum = checksum * 33 + b->p[i];
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 0) : 5000;
	unsigned long mallocs = 0, reallocs = 0, frees = 0, large = 0;
	size_t live = 0, peak = 0;

	for (long r = 0; r < rounds; r++) {
		struct block *b = &slots[next() % SLOTS];
		size_t size = pick_size();

		if (!b->p) {
			b->p = malloc(size);
			if (!b->p) {
				printf("malloc_stress: malloc(%zu) failed\n", size);
				return 1;
			}
			b->size = size;
			b->tag = (unsigned)r;
			fill(b, 0);
			live += size;
			mallocs++;
		} else if (next() % 3 == 0) {
			unsigned char *p = realloc(b->p, size);
			size_t keep = size < b->size ? size : b->size;

			if (!p) {
				printf("malloc_stress: realloc(%zu) failed\n", size);
				return 1;
			}
			b->p = p;
			check(b, keep, "realloc");
			live = live - b->size + size;
			b->size = size;
			fill(b, keep);
			reallocs++;
		} else {
			check(b, b->size, "free");
			free(b->p);
			live -= b->size;
			b->p = NULL;
			frees++;
			continue;
		}
		if (size >= 128 * 1024)
			large++;
		if (live > peak)
			peak = live;
	}
	for (int i = 0; i < SLOTS; i++) {
		if (slots[i].p) {
			check(&slots[i], slots[i].size, "final free");
			free(slots[i].p);
			frees++;
		}
	}
	printf("malloc_stress: %lu mallocs, %lu reallocs, %lu frees, %lu large, peak %zu KiB\n",
	       mallocs, reallocs, frees, large, peak / 1024);
	printf("malloc_stress: checksum %lx, errors %lu\n", checksum, errors);
	return errors ? 1 : 0;
}
