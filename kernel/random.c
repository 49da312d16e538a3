/*
 * A small random generator: xorshift128+ per CPU, seeded from the
 * time-stamp counter and stirred with RDRAND where the CPU has it. Good
 * enough for stack canaries and layout randomization in a test kernel;
 * not a cryptographic source.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/random.h>
#include <asm/cpu.h>

static DEFINE_PER_CPU(u64, rng_s0);
static DEFINE_PER_CPU(u64, rng_s1);

static u64 rdtsc_now(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static u64 splitmix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

u64 get_random_u64(void)
{
	u64 s0, s1, r, hw = 0;

	if (cpu_has(X86_FEATURE_RDRAND))
		__asm__ __volatile__("rdrand %0" : "=r"(hw));
	preempt_disable();
	s0 = this_cpu_read(rng_s0);
	s1 = this_cpu_read(rng_s1);
	if (!s0 && !s1) {
		s0 = splitmix(rdtsc_now() + (u64)smp_processor_id());
		s1 = splitmix(s0);
	}
	r = s0 + s1;
	s1 ^= s0;
	this_cpu_write(rng_s0, ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14));
	this_cpu_write(rng_s1, (s1 << 36) | (s1 >> 28));
	preempt_enable();
	return r ^ hw;
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u64 v = get_random_u64();
		size_t n = len < sizeof(v) ? len : sizeof(v);

		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}
