/*
 * Host stand-ins for the kernel services pure code relies on: kmalloc on
 * malloc, printk on stderr, clocks on clock_gettime, a stack dump that
 * says there is none, a symbol table tests fill in, per-CPU copies of the
 * spoor_percpu section, and no cross-CPU calls. Linked into every unit test and benchmark.
 */
#include <kernel/types.h>
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/preempt.h>
#include <kernel/string.h>
#include <kernel/stacktrace.h>
#include <kernel/kallsyms.h>
#include <kernel/rcu.h>
#include <host_kallsyms.h>
#include <asm/irqflags.h>
#include <trace/trace.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__thread int host_cpu_id;
__thread unsigned long host_irq_flags = 0x200;
unsigned int nr_cpu_ids = NR_CPUS;

DEFINE_PER_CPU(int, cpu_number);
DEFINE_PER_CPU(int, __preempt_count);
DEFINE_PER_CPU(int, need_resched);

/* No IPIs between host threads: a grace period ends by their own rcu_note_qs calls. */
void rcu_kick_cpus(u64 mask)
{
	(void)mask;
}

extern char __start_spoor_percpu[], __stop_spoor_percpu[];
static char *percpu_areas[NR_CPUS];
static pthread_once_t percpu_once = PTHREAD_ONCE_INIT;

static void percpu_setup(void)
{
	size_t size = (size_t)(__stop_spoor_percpu - __start_spoor_percpu);

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		percpu_areas[cpu] = aligned_alloc(64, ALIGN_UP(size, 64));
		memcpy(percpu_areas[cpu], __start_spoor_percpu, size);
		*(int *)(percpu_areas[cpu] + ((char *)&cpu_number - __start_spoor_percpu)) = cpu;
	}
}

unsigned long host_per_cpu_offset(int cpu)
{
	pthread_once(&percpu_once, percpu_setup);
	return (unsigned long)(percpu_areas[cpu] - __start_spoor_percpu);
}

void preempt_schedule(void)
{
	this_cpu_write(need_resched, 0);
}

void *kmalloc(size_t size, gfp_t flags)
{
	return flags & __GFP_ZERO ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}
void *kzalloc(size_t size, gfp_t flags) { return kmalloc(size, flags | __GFP_ZERO); }
void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kzalloc(n * size, flags);
}
void *krealloc(const void *p, size_t size, gfp_t flags) { return realloc((void *)p, size ? size : 1); }
void kfree(const void *p) { free((void *)p); }
size_t ksize(const void *p) { return p ? malloc_usable_size((void *)p) : 0; }
char *kstrdup(const char *s, gfp_t flags) { return s ? strdup(s) : NULL; }
char *kstrndup(const char *s, size_t max, gfp_t flags) { return s ? strndup(s, max) : NULL; }

int vprintk(const char *fmt, va_list ap)
{
	if (fmt[0] == '\001' && fmt[1])
		fmt += 2;
	return vfprintf(stderr, fmt, ap);
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "Kernel panic - not syncing: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}
u64 trace_clock_local(void) { return ktime_get_ns(); }
u64 trace_clock_global(void) { return ktime_get_ns(); }
u64 trace_clock_counter(void)
{
	static u64 counter;

	return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

/*
 * The stacktrace option's stack record (trace/trace_print.c in the
 * kernel, which unit tests do not link): host tests record no stacks.
 */
void trace_dump_stack_record(struct trace_array *tr, unsigned int skip)
{
}

/* The host has no kernel stack to walk: the message before it says what went wrong. */
void dump_stack(void)
{
	fprintf(stderr, "(no kernel stack on the host)\n");
}

const struct host_symbol *host_symbols;

bool kallsyms_lookup(unsigned long addr, const char **name,
		     unsigned long *offset, unsigned long *size)
{
	for (const struct host_symbol *s = host_symbols; s && s->name; s++) {
		if (addr - s->addr < s->size) {
			*name = s->name;
			*offset = addr - s->addr;
			*size = s->size;
			return true;
		}
	}
	return false;
}

unsigned long kallsyms_lookup_name(const char *name)
{
	for (const struct host_symbol *s = host_symbols; s && s->name; s++)
		if (!strcmp(s->name, name))
			return s->addr;
	return 0;
}

/*
 * kmem_cache on malloc: a cache is its object size and constructor; each
 * object is its own block, so ASan sees overflows and leaks per object.
 */
struct kmem_cache {
	unsigned int size;
	void (*ctor)(void *);
};

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = malloc(sizeof(*s));

	if (!s)
		abort();
	s->size = size;
	s->ctor = ctor;
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s) { free(s); }

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *p = kmalloc(s->size, flags);

	if (p && s->ctor && !(flags & __GFP_ZERO))
		s->ctor(p);
	return p;
}

void kmem_cache_free(struct kmem_cache *s, void *p) { free(p); }
