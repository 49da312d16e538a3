/*
 * md5sum [FILE]...: the MD5 digest (RFC 1321) of each file, "HEX  NAME"
 * as coreutils prints it ("-" for stdin), so scripts can tell whether a
 * file changed between two reads.
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

/* floor(2^32 * |sin(i + 1)|), the RFC's table T. */
static const u32 md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Left rotations, four per round. */
static const u8 md5_r[4][4] = { { 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 },
				{ 6, 10, 15, 21 } };

struct md5 {
	u32 h[4];
	u64 len;		/* bytes so far */
	u8 block[64];
};

static void md5_block(u32 h[4], const u8 *p)
{
	u32 a = h[0], b = h[1], c = h[2], d = h[3], x[16];

	for (int i = 0; i < 16; i++)
		x[i] = (u32)p[4 * i] | (u32)p[4 * i + 1] << 8 | (u32)p[4 * i + 2] << 16 |
		       (u32)p[4 * i + 3] << 24;
	for (int i = 0; i < 64; i++) {
		int round = i / 16;
		u32 f, t;
		unsigned int g, s = md5_r[round][i % 4];

		switch (round) {
		case 0: f = (b & c) | (~b & d); g = (unsigned int)i; break;
		case 1: f = (d & b) | (~d & c); g = (5u * (unsigned int)i + 1) % 16; break;
		case 2: f = b ^ c ^ d; g = (3u * (unsigned int)i + 5) % 16; break;
		default: f = c ^ (b | ~d); g = (7u * (unsigned int)i) % 16; break;
		}
		t = a + f + md5_t[i] + x[g];
		a = d;
		d = c;
		c = b;
		b += (t << s) | (t >> (32 - s));
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

static void md5_update(struct md5 *m, const u8 *p, size_t n)
{
	while (n) {
		size_t at = m->len % 64, take = min(n, 64 - at);

		memcpy(m->block + at, p, take);
		m->len += take;
		p += take;
		n -= take;
		if (at + take == 64)
			md5_block(m->h, m->block);
	}
}

/* Pad with 0x80, zeros and the bit length (little-endian), then the digest. */
static void md5_final(struct md5 *m, u8 out[16])
{
	u64 bits = m->len * 8;
	u8 pad = 0x80, zero = 0, len[8];

	md5_update(m, &pad, 1);
	while (m->len % 64 != 56)
		md5_update(m, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (u8)(bits >> (8 * i));
	md5_update(m, len, 8);
	for (int i = 0; i < 16; i++)
		out[i] = (u8)(m->h[i / 4] >> (8 * (i % 4)));
}

static int md5_fd(int fd, u8 out[16])
{
	struct md5 m = { .h = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 } };
	u8 buf[1024];
	ssize_t n;

	while ((n = sh_os->read(fd, buf, sizeof(buf))) > 0)
		md5_update(&m, buf, (size_t)n);
	if (n < 0)
		return (int)n;
	md5_final(&m, out);
	return 0;
}

int cmd_md5sum(int argc, char **argv, char **envp)
{
	int status = 0, i = 1;
	struct sh_out o;

	out_init(&o, 1);
	do {
		const char *name = i < argc ? argv[i] : "-";
		int fd = sh_open_input("md5sum", name), err;
		u8 digest[16];

		if (fd < 0) {
			status = 1;
			continue;
		}
		err = md5_fd(fd, digest);
		if (fd)
			sh_os->close(fd);
		if (err) {
			sh_eprintf("md5sum: %s: %s\n", name, errno_text(-err));
			status = 1;
			continue;
		}
		for (int b = 0; b < 16; b++)
			out_printf(&o, "%02x", digest[b]);
		out_printf(&o, "  %s\n", name);
	} while (++i < argc);
	return out_finish(&o, "md5sum", status);
}
