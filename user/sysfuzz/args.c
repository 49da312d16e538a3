/*
 * Argument pools: the boundary values a hostile caller passes. Memory the
 * pools point at is set up once per process (pools_init): buffers the kernel
 * may read and write, a read-only page, a page followed by a hole (so an
 * object can straddle into unmapped memory), a freed range, and an arena
 * that worker threads may mmap/munmap/mprotect without hitting the
 * fuzzer's own code, stack or heap.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sysfuzz.h"

struct pools pools;

/*
 * One reservation holds every pool, so the holes in it stay holes: nothing
 * the fuzzer maps later (thread stacks, malloc) fits in them, and what a
 * fuzzed mmap lands there is unmapped again at once. A guard page
 * (PROT_NONE) follows each writable region: a read() with a huge length
 * into a buffer stops there instead of overwriting the next mapping (the
 * kernel writes as far as memory is mapped, as Linux does).
 *
 *   bufs | guard | rdonly | guard | edge | hole | freed (4) | arena | guard |
 *   then per thread: priv (PRIV_PAGES) | hole
 */
#define FREED_PAGES	4
#define POOL_PAGES	(BUF_PAGES + 1 + 1 + 1 + 1 + 1 + FREED_PAGES + ARENA_PAGES + 1 + \
			 MAX_THREADS * (PRIV_PAGES + 1))

void pools_init(struct rng *r)
{
	char *p = mmap(NULL, POOL_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(6);
	pools.bufs = p;
	for (size_t i = 0; i < BUF_PAGES * PAGE; i += 8) {
		uint64_t v = rng_next(r);

		memcpy(pools.bufs + i, &v, 8);
	}
	p += BUF_PAGES * PAGE;
	mprotect(p, PAGE, PROT_NONE);
	pools.rdonly = p += PAGE;
	memset(pools.rdonly, 0x41, PAGE);
	mprotect(pools.rdonly, PAGE, PROT_READ);
	mprotect(p += PAGE, PAGE, PROT_NONE);
	pools.edge = p += PAGE;
	munmap(p += PAGE, PAGE);
	pools.freed = p += PAGE;
	munmap(pools.freed, FREED_PAGES * PAGE);
	pools.arena = p += FREED_PAGES * PAGE;
	p += ARENA_PAGES * PAGE;
	mprotect(p, PAGE, PROT_NONE);
	pools.priv = p + PAGE;
	for (int t = 0; t < MAX_THREADS; t++)
		munmap(pools.priv + (t * (PRIV_PAGES + 1) + PRIV_PAGES) * PAGE, PAGE);
}

/* Thread t's private pages; the page after them is unmapped. */
char *pools_priv(int t)
{
	return pools.priv + t * (PRIV_PAGES + 1) * PAGE;
}

/* Temporary files live under /tmp/sfz; pools_cleanup_files removes them all. */
static const char *const tmp_paths[] = {
	"/tmp/sfz/a", "/tmp/sfz/b", "/tmp/sfz/d", "/tmp/sfz/d/e", "/tmp/sfz/d/f",
	"/tmp/sfz/a/x", "/tmp/sfz", "/tmp/sfz/d/g/h",
};
#define N_TMP (sizeof(tmp_paths) / sizeof(tmp_paths[0]))

/*
 * Removes name (relative to the working directory) and all below it.
 * Renames nest the tree deeper than nftw's descriptor limit or PATH_MAX
 * allow, so this walks by chdir and holds neither descriptors nor paths;
 * symlinks are unlinked, never followed.
 */
static void remove_tree(const char *name)
{
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	DIR *d;

	if (!unlink(name) || !rmdir(name))
		return;
	chmod(name, 0700);	/* a fuzzed chmod may have taken search access */
	if (chdir(name))
		return;
	if ((d = opendir("."))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				char **grown = realloc(names, (n + 1) * sizeof(*names));

				if (!grown || !(grown[n] = strdup(e->d_name))) {
					names = grown ? grown : names;
					break;
				}
				names = grown;
				n++;
			}
		closedir(d);
	}
	for (size_t i = 0; i < n; i++) {
		remove_tree(names[i]);
		free(names[i]);
	}
	free(names);
	if (!chdir(".."))
		rmdir(name);
}

void pools_cleanup_files(void)
{
	if (!chdir("/tmp"))
		remove_tree("sfz");
	chdir("/");
}

/* Fresh descriptions for this process: nothing shared with a parent's O_NONBLOCK. */
void pools_open_fds(void)
{
	int pfd[2], null = open("/dev/null", O_RDWR), i = 0;

	if (null < 0)	/* fuzzing with the real stdout would scribble on the console */
		_exit(5);

	for (int fd = 3; fd < 256; fd++)
		if (fd != log_fd && fd != null)
			close(fd);
	for (int fd = 0; fd < 3; fd++)
		dup2(null, fd);
	mkdir("/tmp/sfz", 0777);
	pools.fds[i++] = null;
	pools.fds[i++] = open("/dev/zero", O_RDONLY);
	pools.fds[i++] = open("/proc/meminfo", O_RDONLY);
	pools.fds[i++] = open("/proc/self/maps", O_RDONLY);
	pools.fds[i++] = open("/", O_RDONLY | O_DIRECTORY);
	pools.fds[i++] = open("/tmp/sfz", O_RDONLY | O_DIRECTORY);
	pools.fds[i++] = open("/tmp/sfz/a", O_RDWR | O_CREAT, 0644);
	pools.fds[i++] = open("/bin/hello", O_RDONLY);
	/* Pipes never block a worker thread: both ends non-blocking. */
	for (int k = 0; k < 2; k++) {
		if (pipe2(pfd, O_NONBLOCK) < 0)
			pfd[0] = pfd[1] = -1;
		pools.fds[i++] = pfd[0];
		pools.fds[i++] = pfd[1];
	}
}

/* Read-only-safe paths (open strips write access unless under /tmp/sfz). */
static const char *const paths[] = {
	"/", "/bin", "/bin/hello", "/proc/meminfo", "/proc/self/maps", "/proc/self",
	"/proc/1", "/proc/uptime", "/dev/null", "/dev/zero", "/tmp", "/sys/kernel",
	"/nonexistent", "", ".", "..", "bin/hello", "hello", "/bin/hello/x",
	"//bin///hello", "/proc/self/../self/maps", "/tmp/sfz/a", "/tmp/sfz/d/e",
	"/proc", "/proc/self/fd", "/dev",
};
#define N_PATHS (sizeof(paths) / sizeof(paths[0]))

/* Addresses nobody may touch: kernel halves, holes, non-canonical, ends of user space. */
static const uint64_t bad_ptrs[] = {
	0, 1, 0xfff, 0x10000, -1UL, 0xffff888000000000UL, 0xffffffff80000000UL,
	0xffffffff80100000UL, 0xffffc90000000000UL, 0x00007ffffffff000UL - 1,
	0x00007ffffffff000UL, 0x0000800000000000UL, 0x8000000000000000UL,
	0xfffffffffffff000UL, 0x00007fffffffffffUL,
};
#define N_BAD (sizeof(bad_ptrs) / sizeof(bad_ptrs[0]))

static const uint64_t lens[] = {
	0, 1, 2, 3, 7, 8, 16, 63, 64, 100, 255, 256, 511, 4095, 4096, 4097, 8192, 65535,
	65536, 1UL << 20, 0x7fffffff, 0x80000000, 0xffffffff, 1UL << 32, 1UL << 40,
	0x00007ffffffff000UL, 0x7fffffffffffffffUL, -1UL, -4096UL,
};
#define N_LENS (sizeof(lens) / sizeof(lens[0]))

static uint64_t pick(struct rng *r, const uint64_t *v, size_t n)
{
	return v[rng_below(r, n)];
}

/* A pointer into mapped memory, aligned or not, or straddling into the hole after edge. */
static uint64_t good_ptr(struct fuzzer *f)
{
	struct rng *r = &f->rng;

	switch (rng_below(r, 8)) {
	case 0:
		return (uint64_t)pools.edge + PAGE - 1 - rng_below(r, 64);
	case 1:
		return (uint64_t)pools.rdonly + rng_below(r, PAGE);
	case 2:
		return (uint64_t)pools.freed + rng_below(r, 4 * PAGE);
	case 3:
		return (uint64_t)pools.arena + rng_below(r, ARENA_PAGES) * PAGE + rng_below(r, 2) * rng_below(r, PAGE);
	case 4:
		return (uint64_t)&good_ptr;	/* program text: readable, never writable */
	default:
		/* half of them 8-byte aligned, half anywhere */
		return (uint64_t)pools.bufs + (rng_below(r, BUF_PAGES * PAGE) & (rng_chance(r, 2) ? ~7UL : ~0UL));
	}
}

static uint64_t any_ptr(struct fuzzer *f)
{
	return rng_chance(&f->rng, 3) ? pick(&f->rng, bad_ptrs, N_BAD) : good_ptr(f);
}

/* A string in the private page; sometimes unterminated against the hole. */
static uint64_t path_ptr(struct fuzzer *f, const char *const *list, size_t n, int slot, bool tmp)
{
	struct rng *r = &f->rng;
	char *dst = f->priv + slot * 512;
	const char *s = list[rng_below(r, n)];
	size_t len = strlen(s);

	switch (rng_below(r, 16)) {
	case 0:	/* buffers may hold names the kernel wrote (getcwd): never for a /tmp-only call */
		return tmp ? pick(r, bad_ptrs, N_BAD) : any_ptr(f);
	case 1:	/* PATH_MAX and more: ENAMETOOLONG, not an overrun */
		dst = f->priv + 3 * PAGE;
		memset(dst, 'a', PAGE - 1);
		dst[0] = '/';
		dst[PAGE - 1] = 0;
		return (uint64_t)dst;
	case 2:	/* runs into the unmapped page without a NUL */
		dst = f->priv_edge - len;
		memcpy(dst, s, len);
		return (uint64_t)dst;
	default:
		memcpy(dst, s, len + 1);
		return (uint64_t)dst;
	}
}

static int slot_of(struct fuzzer *f)
{
	return (int)rng_below(&f->rng, 6);
}

static uint64_t fd_value(struct fuzzer *f)
{
	struct rng *r = &f->rng;
	uint64_t v;

	switch (rng_below(r, 10)) {
	case 0:
		return pick(r, (const uint64_t[]){-1UL, -100UL, 0x7fffffff, 0x80000000, 255, 256, 1UL << 32}, 7);
	case 1:
		v = rng_below(r, 260);
		break;
	case 2:
		v = rng_below(r, 3);
		break;
	default:
		v = (uint64_t)(unsigned)pools.fds[rng_below(r, POOL_FDS)];
		break;
	}
	return (int)v == log_fd ? (uint64_t)-1 : v;
}

static uint64_t ts_ptr(struct fuzzer *f)
{
	struct rng *r = &f->rng;
	int64_t *ts = (int64_t *)(f->priv + slot_of(f) * 512 + 256);

	if (f->child && rng_chance(r, 3))
		return rng_chance(r, 2) ? 0 : any_ptr(f);
	switch (rng_below(r, 8)) {
	case 0:
		return pick(r, bad_ptrs + 1, N_BAD - 1);	/* never NULL: NULL means "forever" */
	case 1:	/* the second word lies in the hole */
		ts = (int64_t *)(f->priv_edge - 8);
		ts[0] = 0;
		return (uint64_t)ts;
	case 2:	/* invalid: EINVAL */
		ts[0] = rng_chance(r, 2) ? -1 : 0;
		ts[1] = rng_chance(r, 2) ? -1 : 1000000000;
		return (uint64_t)ts;
	default:	/* at most 2 ms: a worker thread never sleeps long */
		ts[0] = 0;
		ts[1] = (int64_t)rng_below(r, 2000000);
		return (uint64_t)ts;
	}
}

static uint64_t iov_ptr(struct fuzzer *f)
{
	struct rng *r = &f->rng;
	uint64_t *iov = (uint64_t *)(f->priv + 2 * PAGE);
	unsigned n = (unsigned)rng_below(r, 16);

	if (rng_chance(r, 4))
		return any_ptr(f);
	for (unsigned i = 0; i < n * 2; i += 2) {
		iov[i] = any_ptr(f);
		iov[i + 1] = rng_chance(r, 2) ? rng_below(r, 512) : pick(r, lens, N_LENS);
	}
	return rng_chance(r, 8) ? (uint64_t)(f->priv_edge - 8) : (uint64_t)iov;
}

static uint64_t maddr(struct fuzzer *f)
{
	struct rng *r = &f->rng;

	if (f->child && rng_chance(r, 4))
		return any_ptr(f) & (rng_chance(r, 2) ? ~(PAGE - 1) : -1UL);
	switch (rng_below(r, 6)) {
	case 0:
		return pick(r, bad_ptrs, N_BAD);
	case 1:
		return 0x00007ffffffff000UL - PAGE;	/* last user page: free in every process */
	default:
		return (uint64_t)pools.arena + rng_below(r, ARENA_PAGES) * PAGE + (rng_chance(r, 16) ? 1 : 0);
	}
}

static uint64_t mlen(struct fuzzer *f)
{
	struct rng *r = &f->rng;

	if (rng_chance(r, 4))
		return pick(r, lens, N_LENS);	/* calls.c clamps them inside the arena in a worker */
	return rng_below(r, ARENA_PAGES + 1) * PAGE + (rng_chance(r, 8) ? rng_below(r, PAGE) : 0);
}

static uint64_t pid_value(struct fuzzer *f)
{
	static const uint64_t nobody[] = {0x3fffffff, 0x7fffffff, 0x80000000};

	switch (rng_below(&f->rng, 4)) {
	case 0:
		return 0;
	case 1:
		return pick(&f->rng, nobody, 3);
	default:
		return (uint64_t)(rng_chance(&f->rng, 2) ? f->pid : f->tid);
	}
}

uint64_t arg_value(struct fuzzer *f, enum arg_kind kind)
{
	struct rng *r = &f->rng;

	switch (kind) {
	case A_FD:
		return fd_value(f);
	case A_TFD:
		return rng_chance(r, 4) ? pick(r, (const uint64_t[]){-1UL, -100UL, 0x7fffffff, 1UL << 32}, 4)
					: (uint64_t)(unsigned)pools.fds[POOL_TMP_FD0 + rng_below(r, 2)];
	case A_BUF:
		return any_ptr(f);
	case A_LEN:
		return rng_chance(r, 3) ? rng_below(r, 10000) : pick(r, lens, N_LENS);
	case A_PATH:
		return path_ptr(f, paths, N_PATHS, slot_of(f), false);
	case A_TPATH:
		return path_ptr(f, tmp_paths, N_TMP, slot_of(f), true);
	case A_FLAGS:
		switch (rng_below(r, 6)) {
		case 0:
			return 0;
		case 1:
			return 1UL << rng_below(r, 64);
		case 2:
			return rng_next(r);
		case 3:
			return rng_next(r) & 0xffffffff;
		default:
			return rng_next(r) & 0xfff;
		}
	case A_OFF:
		return rng_chance(r, 2) ? rng_below(r, 8192) : pick(r, lens, N_LENS);
	case A_PID:
		return pid_value(f);
	case A_SIG:
		return rng_chance(r, 8) ? pick(r, (const uint64_t[]){0, 65, -1UL, 1UL << 31}, 4) : 1 + rng_below(r, 64);
	case A_MADDR:
		return maddr(f);
	case A_MLEN:
		return mlen(f);
	case A_TS:
		return ts_ptr(f);
	case A_IOV:
		return iov_ptr(f);
	case A_SMALL:
		return rng_chance(r, 8) ? pick(r, (const uint64_t[]){-1UL, 0x7fffffff, 1UL << 32, 1000}, 4) : rng_below(r, 12);
	case A_ANY:
	default:
		switch (rng_below(r, 8)) {
		case 0:
			return rng_next(r);
		case 1:
			return fd_value(f);
		case 2:
		case 3:
			return any_ptr(f);
		case 4:
			return pick(r, lens, N_LENS);
		default:
			return rng_below(r, 64);
		}
	}
}
