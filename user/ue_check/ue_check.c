/*
 * ue_check: user_events from a program's side, both registration ABIs.
 *   ue_check abi            checks enable bits (4- and 8-byte words, every bit,
 *                           a page never touched, fork), the first ABI's status
 *                           page, writes and Linux's errors; prints "pass NAME" or
 *                           "fail NAME: detail" per check
 *   ue_check write N        registers ue_w (u32 a; u64 b; __data_loc char[] s) and
 *                           writes N records with writev, as fast as it can
 * The structs and ioctl numbers are Linux's uapi (linux/user_events.h), spelled
 * out here because musl ships no kernel headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define DIAG_IOCSREG	0xc0082a00u
#define DIAG_IOCSDEL	0x40082a01u
#define DIAG_IOCSUNREG	0x40082a02u

struct user_reg {
	uint32_t size;
	uint8_t enable_bit, enable_size;
	uint16_t flags;
	uint64_t enable_addr, name_args;
	uint32_t write_index;
} __attribute__((packed));

struct user_reg_v0 {
	uint32_t size;
	uint64_t name_args;
	uint32_t status_bit, write_index;
} __attribute__((packed));

struct user_unreg {
	uint32_t size;
	uint8_t disable_bit, reserved;
	uint16_t reserved2;
	uint64_t disable_addr;
} __attribute__((packed));

#define TRACEFS "/sys/kernel/tracing/"
static int failures;

static void verdict(int good, const char *name, const char *fmt, long a, long b)
{
	if (good) {
		printf("pass %s\n", name);
		return;
	}
	printf("fail %s: ", name);
	printf(fmt, a, b);
	printf("\n");
	failures++;
}

static int reg(int fd, const char *args, void *word, int size, int bit, uint32_t *idx)
{
	struct user_reg r = { .size = sizeof(r), .enable_bit = (uint8_t)bit,
			      .enable_size = (uint8_t)size, .enable_addr = (uintptr_t)word,
			      .name_args = (uintptr_t)args };
	int ret = ioctl(fd, DIAG_IOCSREG, &r);

	if (idx)
		*idx = r.write_index;
	return ret ? -errno : 0;
}

static int unreg(int fd, void *word, int bit)
{
	struct user_unreg u = { .size = sizeof(u), .disable_bit = (uint8_t)bit,
				.disable_addr = (uintptr_t)word };

	return ioctl(fd, DIAG_IOCSUNREG, &u) ? -errno : 0;
}

static int set_enable(const char *event, int on)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), TRACEFS "events/user_events/%s/enable", event);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -errno;
}

/* Every bit of a 4-byte and an 8-byte word flips with the event. */
static void check_all_bits(int fd)
{
	static volatile uint32_t w32;
	static volatile uint64_t w64;
	int bad = 0;

	for (int b = 0; b < 32; b++)
		bad |= reg(fd, "ue_bits u32 a", (void *)&w32, 4, b, NULL) != 0;
	for (int b = 0; b < 64; b++)
		bad |= reg(fd, "ue_bits u32 a", (void *)&w64, 8, b, NULL) != 0;
	verdict(!bad && w32 == 0 && w64 == 0, "bits: 96 registrations, all clear", "%ld %ld",
		bad, (long)w32);
	set_enable("ue_bits", 1);
	verdict(w32 == 0xffffffffu && w64 == ~0ull, "bits: every bit set on enable", "%lx %lx",
		(long)w32, (long)w64);
	set_enable("ue_bits", 0);
	verdict(w32 == 0 && w64 == 0, "bits: every bit clear on disable", "%lx %lx", (long)w32,
		(long)w64);
	set_enable("ue_bits", 1);
	for (int b = 0; b < 32; b += 2)
		bad |= unreg(fd, (void *)&w32, b) != 0;
	verdict(!bad && w32 == 0xaaaaaaaau, "bits: unregistered bits cleared, others kept",
		"%lx %ld", (long)w32, bad);
	set_enable("ue_bits", 0);
	verdict(w32 == 0, "bits: disable after unregister", "%lx %ld", (long)w32, 0);
}

/* A word in a page the program never touched works from the first enable. */
static void check_untouched_page(int fd)
{
	volatile uint64_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret = reg(fd, "ue_bits u32 a", (void *)&page[100], 8, 63, NULL);

	verdict(ret == 0, "untouched page: registers", "%ld %ld", ret, 0);
	set_enable("ue_bits", 1);
	verdict(page[100] == 1ull << 63, "untouched page: bit 63 set", "%lx %ld", (long)page[100], 0);
	set_enable("ue_bits", 0);
	verdict(page[100] == 0, "untouched page: cleared", "%lx %ld", (long)page[100], 0);
}

/* A forked child has its own copy of the enabler, in its own page. */
static void check_fork(int fd)
{
	static volatile uint32_t w;
	int status = -1;
	pid_t pid;

	reg(fd, "ue_fork u32 a", (void *)&w, 4, 5, NULL);
	pid = fork();
	if (pid == 0) {
		w = 0;		/* a private copy now */
		for (int i = 0; i < 200 && !w; i++)
			usleep(5000);
		_exit(w == 1u << 5 ? 0 : 1);
	}
	usleep(20000);
	set_enable("ue_fork", 1);
	waitpid(pid, &status, 0);
	verdict(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fork: child's bit set",
		"status %lx %ld", status, 0);
	verdict(w == 1u << 5, "fork: parent's bit set", "%lx %ld", (long)w, 0);
	set_enable("ue_fork", 0);
	verdict(w == 0, "fork: cleared", "%lx %ld", (long)w, 0);
	unreg(fd, (void *)&w, 5);
}

/* The first ABI: a bit in the mmap'd user_events_status page. */
static void check_v0(int fd)
{
	struct user_reg_v0 r = { .size = sizeof(r), .name_args = (uintptr_t)"ue_old u32 a" };
	int sfd = open(TRACEFS "user_events_status", O_RDONLY);
	const volatile uint8_t *page = sfd < 0 ? MAP_FAILED :
				       mmap(NULL, 4096, PROT_READ, MAP_SHARED, sfd, 0);
	int ret = ioctl(fd, DIAG_IOCSREG, &r);

	verdict(ret == 0 && r.status_bit != 0, "v0: registers with a status bit", "%ld bit %ld",
		ret ? errno : 0, r.status_bit);
	verdict(page != MAP_FAILED, "v0: status page maps", "%ld %ld", errno, 0);
	if (page == MAP_FAILED)
		return;
	verdict(!(page[r.status_bit / 8] & (1 << (r.status_bit % 8))), "v0: bit clear", "%lx %ld",
		page[r.status_bit / 8], 0);
	set_enable("ue_old", 1);
	verdict(page[r.status_bit / 8] & (1 << (r.status_bit % 8)), "v0: bit set on enable",
		"%lx %ld", page[r.status_bit / 8], 0);
	set_enable("ue_old", 0);
	verdict(!(page[r.status_bit / 8] & (1 << (r.status_bit % 8))), "v0: bit clear on disable",
		"%lx %ld", page[r.status_bit / 8], 0);
	munmap((void *)page, 4096);
	close(sfd);
}

/* Linux's errors for bad input. */
static void check_errors(int fd)
{
	static uint32_t w;
	struct { uint32_t idx; uint32_t loc; char s[8]; } __attribute__((packed)) rec;
	struct iovec io[2];
	uint32_t idx;
	int ret;

	ret = reg(fd, (const char *)8, &w, 4, 0, NULL);
	verdict(ret == -EFAULT, "errors: bad name pointer EFAULT", "%ld %ld", ret, 0);
	ret = reg(fd, "ue_err0 u32 a", (void *)0x1000, 4, 0, NULL);
	verdict(ret == -ENOMEM, "errors: unmapped enable word ENOMEM", "%ld %ld", ret, 0);
	ret = reg(fd, "ue_err0 u32 a", &w, 3, 0, NULL);
	verdict(ret == -EINVAL, "errors: enable_size 3 EINVAL", "%ld %ld", ret, 0);
	ret = reg(fd, "ue_err1 long a", &w, 4, 1, NULL);
	verdict(ret == -EINVAL, "errors: long EINVAL", "%ld %ld", ret, 0);
	ret = reg(fd, "ue_err __data_loc char[] s", &w, 4, 2, &idx);
	verdict(ret == 0, "errors: register ue_err", "%ld %ld", ret, 0);
	ret = reg(fd, "ue_err u32 s", &w, 4, 3, NULL);
	verdict(ret == -EADDRINUSE, "errors: other fields EADDRINUSE", "%ld %ld", ret, 0);
	rec.idx = idx;
	rec.loc = 3u << 16 | 12;
	memcpy(rec.s, "hi", 3);
	ret = write(fd, &rec, 4 + 4 + 3) < 0 ? -errno : 0;
	verdict(ret == -EBADF, "errors: write while disabled EBADF", "%ld %ld", ret, 0);
	set_enable("ue_err", 1);
	ret = write(fd, &rec, 4 + 4 + 3) < 0 ? -errno : 0;
	verdict(ret == 0, "errors: good write", "%ld %ld", ret, 0);
	rec.loc = 4u << 16 | 12;
	ret = write(fd, &rec, 4 + 4 + 3) < 0 ? -errno : 0;
	verdict(ret == -EFAULT, "errors: __data_loc past the end EFAULT", "%ld %ld", ret, 0);
	rec.loc = 2u << 16 | 12;
	ret = write(fd, &rec, 4 + 4 + 3) < 0 ? -errno : 0;
	verdict(ret == -EFAULT, "errors: unterminated string EFAULT", "%ld %ld", ret, 0);
	ret = write(fd, &rec, 4 + 2) < 0 ? -errno : 0;
	verdict(ret == -EINVAL, "errors: short payload EINVAL", "%ld %ld", ret, 0);
	io[0].iov_base = &rec.idx;
	io[0].iov_len = 4;
	io[1].iov_base = (void *)16;
	io[1].iov_len = 7;
	ret = writev(fd, io, 2) < 0 ? -errno : 0;
	verdict(ret == -EFAULT, "errors: bad iovec base EFAULT", "%ld %ld", ret, 0);
	rec.idx = 77;
	ret = write(fd, &rec, 11) < 0 ? -errno : 0;
	verdict(ret == -ENOENT, "errors: unknown index ENOENT", "%ld %ld", ret, 0);
	rec.idx = (uint32_t)-1;
	ret = write(fd, &rec, 11) < 0 ? -errno : 0;
	verdict(ret == -EINVAL, "errors: negative index EINVAL", "%ld %ld", ret, 0);
	ret = write(fd, &rec, 2) < 0 ? -errno : 0;
	verdict(ret == -EFAULT, "errors: no index EFAULT", "%ld %ld", ret, 0);
	ret = ioctl(fd, DIAG_IOCSDEL, "ue_err") ? -errno : 0;
	verdict(ret == -EBUSY, "errors: delete in use EBUSY", "%ld %ld", ret, 0);
	ret = ioctl(fd, DIAG_IOCSDEL, "ue_none") ? -errno : 0;
	verdict(ret == -ENOENT, "errors: delete unknown ENOENT", "%ld %ld", ret, 0);
	set_enable("ue_err", 0);
	unreg(fd, &w, 2);
}

static int write_records(long n)
{
	int fd = open(TRACEFS "user_events_data", O_RDWR);
	static volatile uint32_t enabled;
	struct { uint32_t a; uint64_t b; uint32_t loc; char s[8]; } __attribute__((packed)) p;
	struct iovec io[2];
	uint32_t idx;
	long written = 0;

	if (fd < 0 || reg(fd, "ue_w u32 a; u64 b; __data_loc char[] s", (void *)&enabled, 4, 0,
			  &idx))
		return 1;
	p.a = (uint32_t)getpid();
	p.loc = 3u << 16 | (8 + 16);
	memcpy(p.s, "ue", 3);
	io[0].iov_base = &idx;
	io[0].iov_len = sizeof(idx);
	io[1].iov_base = &p;
	io[1].iov_len = 16 + 3;
	for (long i = 0; i < n; i++) {
		p.b = (uint64_t)i;
		if (enabled && writev(fd, io, 2) > 0)
			written++;
	}
	printf("%ld\n", written);
	return 0;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc == 3 && !strcmp(argv[1], "write"))
		return write_records(atol(argv[2]));
	if (argc != 2 || strcmp(argv[1], "abi")) {
		fprintf(stderr, "usage: ue_check abi | write N\n");
		return 2;
	}
	fd = open(TRACEFS "user_events_data", O_RDWR);
	if (fd < 0) {
		perror("user_events_data");
		return 1;
	}
	check_all_bits(fd);
	check_untouched_page(fd);
	check_fork(fd);
	check_v0(fd);
	check_errors(fd);
	return failures ? 1 : 0;
}
