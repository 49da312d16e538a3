/* Dump framing and CRC-32 (trace/tracedat_frame.h). */
#include <kernel/types.h>
#include <kernel/string.h>
#include <trace/tracedat_frame.h>

u32 tdframe_crc32(u32 crc, const void *buf, size_t len)
{
	static u32 table[256];
	static bool ready;
	const u8 *p = buf;

	/*
	 * Built on first use. Two CPUs may build it at once: they write the
	 * same values, and ready is published only after a whole table.
	 */
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		for (u32 i = 0; i < 256; i++) {
			u32 c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		__atomic_store_n(&ready, true, __ATOMIC_RELEASE);
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put_le(u8 *p, u64 v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (u8)(v >> (8 * i));
}

static u64 get_le(const u8 *p, int n)
{
	u64 v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void tdframe_header(u8 hdr[TDFRAME_HDR_SIZE], u32 seq, u64 length)
{
	memcpy(hdr, TDFRAME_MAGIC, 8);
	put_le(hdr + 8, TDFRAME_VERSION, 4);
	put_le(hdr + 12, seq, 4);
	put_le(hdr + 16, length, 8);
}

void tdframe_trailer(u8 trailer[TDFRAME_TRAILER_SIZE], u32 crc)
{
	put_le(trailer, crc, 4);
	memcpy(trailer + 4, TDFRAME_END, 8);
}

unsigned int tdframe_scan(const u8 *buf, size_t len,
			  void (*fn)(void *ctx, const struct tdframe *f), void *ctx)
{
	unsigned int n = 0;
	size_t pos = 0;

	while (pos + TDFRAME_HDR_SIZE <= len) {
		struct tdframe f;
		const u8 *t;

		const u8 *m;

		if (memcmp(buf + pos, TDFRAME_MAGIC, 8) ||
		    get_le(buf + pos + 8, 4) != TDFRAME_VERSION) {
			/* Skip to the next possible start: most of a port is zeros. */
			m = memchr(buf + pos + 1, TDFRAME_MAGIC[0], len - pos - 1);
			pos = m ? (size_t)(m - buf) : len;
			continue;
		}
		f.seq = (u32)get_le(buf + pos + 12, 4);
		f.length = get_le(buf + pos + 16, 8);
		f.offset = pos;
		f.payload = buf + pos + TDFRAME_HDR_SIZE;
		f.have = len - pos - TDFRAME_HDR_SIZE;
		if (f.have < f.length + TDFRAME_TRAILER_SIZE) {
			f.status = TDFRAME_TRUNCATED;
			if (f.have > f.length)
				f.have = f.length;
			fn(ctx, &f);
			return n + 1;
		}
		f.have = f.length;
		t = f.payload + f.length;
		if (memcmp(t + 4, TDFRAME_END, 8))
			f.status = TDFRAME_BAD_TRAILER;
		else if (tdframe_crc32(0, f.payload, (size_t)f.length) != (u32)get_le(t, 4))
			f.status = TDFRAME_BAD_CRC;
		else
			f.status = TDFRAME_OK;
		fn(ctx, &f);
		n++;
		/* A frame whose end marker is missing gives no place to resume but the next byte. */
		pos = f.status == TDFRAME_BAD_TRAILER ? pos + 1 :
		      pos + TDFRAME_HDR_SIZE + (size_t)f.length + TDFRAME_TRAILER_SIZE;
	}
	return n;
}
