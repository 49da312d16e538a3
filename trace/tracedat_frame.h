/*
 * Framing of trace.dat dumps on the guest's dump port (COM2): each dump
 * travels as
 *
 *	"SPOORDMP"  u32 version (1)  u32 seq  u64 length	24-byte header
 *	length bytes of trace.dat
 *	u32 crc32 of those bytes  "SPOOREND"			12-byte trailer
 *
 * little-endian, so the host can tell a complete dump from one cut short
 * (QEMU stopped, the guest died) or damaged on the way. CRC-32 is the
 * IEEE 802.3 one (zlib's crc32()). Pure: the guest writes frames, the
 * host (spoor exec --dump) scans the port's capture for them.
 */
#ifndef TRACE_TRACEDAT_FRAME_H
#define TRACE_TRACEDAT_FRAME_H

#include <kernel/types.h>

#define TDFRAME_MAGIC		"SPOORDMP"
#define TDFRAME_END		"SPOOREND"
#define TDFRAME_VERSION		1
#define TDFRAME_HDR_SIZE	24
#define TDFRAME_TRAILER_SIZE	12

/* Running CRC-32: start with crc = 0, feed the bytes in any pieces. */
u32 tdframe_crc32(u32 crc, const void *buf, size_t len);

/* The 24-byte header of dump seq carrying length bytes. */
void tdframe_header(u8 hdr[TDFRAME_HDR_SIZE], u32 seq, u64 length);
/* The 12-byte trailer for a payload whose CRC-32 is crc. */
void tdframe_trailer(u8 trailer[TDFRAME_TRAILER_SIZE], u32 crc);

/* What a scan found. */
enum tdframe_status {
	TDFRAME_OK,
	TDFRAME_TRUNCATED,	/* the capture ends inside the frame */
	TDFRAME_BAD_CRC,	/* all bytes there, but they are not what was sent */
	TDFRAME_BAD_TRAILER,	/* no end marker where the length says */
};

struct tdframe {
	u32 seq;
	u64 length;		/* as the header says */
	const u8 *payload;	/* inside the scanned buffer */
	u64 have;		/* payload bytes present (< length when truncated) */
	u64 offset;		/* of the header in the buffer */
	enum tdframe_status status;
};

/*
 * Find every frame in buf (bytes between frames are skipped). Calls
 * fn(ctx, frame) for each, in order; returns the number of frames.
 */
unsigned int tdframe_scan(const u8 *buf, size_t len,
			  void (*fn)(void *ctx, const struct tdframe *f), void *ctx);

#endif
