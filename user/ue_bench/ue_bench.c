/*
 * ue_bench OP [ITERS]: instructions per user_events operation, timed with rdtsc
 * (under QEMU -icount shift=0 the guest TSC counts retired instructions).
 *   check   the program's disabled check: one load of the enable word and a branch
 *   write   one writev of a 3-field event (index, u32, u64, u32), syscall included
 * Registers ue_bench (u32 a; u64 b; u32 c) and waits for the enable bit first
 * when OP is write (the caller enables the event, with or without a hist
 * trigger). Prints "ue_bench op=OP insns=N": the median of 9 batches, per op.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

struct user_reg {
	uint32_t size;
	uint8_t enable_bit, enable_size;
	uint16_t flags;
	uint64_t enable_addr, name_args;
	uint32_t write_index;
} __attribute__((packed));

static volatile uint32_t enabled;

static inline unsigned long rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return (unsigned long)hi << 32 | lo;
}

static int cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct user_reg r = { .size = sizeof(r), .enable_size = 4,
			      .enable_addr = (uintptr_t)&enabled,
			      .name_args = (uintptr_t)"ue_bench u32 a; u64 b; u32 c" };
	struct { uint32_t a; uint64_t b; uint32_t c; } __attribute__((packed)) p = { 1, 2, 3 };
	int fd = open("/sys/kernel/tracing/user_events_data", O_RDWR);
	long iters = argc > 2 ? atol(argv[2]) : 10000;
	int write_op = argc > 1 && !strcmp(argv[1], "write");
	unsigned long t[9], hits = 0;
	struct iovec io[2];

	if (argc < 2 || fd < 0 || ioctl(fd, 0xc0082a00u, &r)) {
		fprintf(stderr, "usage: ue_bench check|write [ITERS] (user_events needed)\n");
		return 2;
	}
	io[0].iov_base = &r.write_index;
	io[0].iov_len = sizeof(r.write_index);
	io[1].iov_base = &p;
	io[1].iov_len = sizeof(p);
	if (write_op)
		while (!enabled)
			usleep(1000);
	for (int b = 0; b < 9; b++) {
		unsigned long t0 = rdtsc();

		for (long i = 0; i < iters; i++) {
			if (enabled) {
				if (write_op)
					writev(fd, io, 2);
				hits++;
			}
			asm volatile("" ::: "memory");
		}
		t[b] = rdtsc() - t0;
	}
	qsort(t, 9, sizeof(t[0]), cmp);
	printf("ue_bench op=%s insns=%lu hits=%lu\n", argv[1], t[4] / (unsigned long)iters, hits);
	return 0;
}
