/*
 * The ftrace ring-buffer page ("sub-buffer") and event header, as Linux
 * lays them out on a 64-bit kernel. A sub-buffer is 4 KiB by default and
 * a power-of-two number of 4 KiB pages up to 512 KiB per buffer
 * (buffer_subbuf_size_kb); everything below but the sizes holds for every
 * size. This one header
 * describes the format for the kernel's ring buffer (trace/ring_buffer.c),
 * the events/header_page and header_event files, the guest's trace.dat
 * writer and the host decoder: there is no second copy.
 *
 * A page: u64 time_stamp, then a long commit (bytes of event data, with
 * RB_MISSED_* flags in the top bits), then data. When RB_MISSED_STORED is
 * set, a long count of lost events follows the data at data + commit.
 *
 * An event: a 32-bit header, type_len:5 (low bits) and time_delta:27,
 * followed by array[]. type_len 1..28: payload is type_len * 4 bytes from
 * array[0]; 0: array[0] = payload length + 4, payload from array[1];
 * 29 padding (time_delta 0: rest of page unused; else a discarded event of
 * array[0] bytes after the header); 30 time extend (delta = array[0] << 27
 * | time_delta); 31 absolute time stamp (same encoding).
 */
#ifndef TRACE_RING_BUFFER_FORMAT_H
#define TRACE_RING_BUFFER_FORMAT_H

#include <stdint.h>

#define RB_PAGE_SIZE		4096u	/* the default, and smallest, sub-buffer */
#define RB_PAGE_HDR_SIZE	16u	/* time_stamp + commit */
#define RB_PAGE_DATA_SIZE	(RB_PAGE_SIZE - RB_PAGE_HDR_SIZE)
/* Sub-buffers are RB_PAGE_SIZE << order bytes, order 0..RB_SUBBUF_MAX_ORDER (Linux's). */
#define RB_SUBBUF_MAX_ORDER	7
#define RB_SUBBUF_SIZE(order)	(RB_PAGE_SIZE << (order))
#define RB_SUBBUF_DATA_SIZE(order) (RB_SUBBUF_SIZE(order) - RB_PAGE_HDR_SIZE)

#define RB_MISSED_EVENTS	(1UL << 31)	/* events were lost before this page */
#define RB_MISSED_STORED	(1UL << 30)	/* the lost count follows the data */
#define RB_COMMIT_MASK		((1UL << 27) - 1)

#define RINGBUF_TYPE_DATA_TYPE_LEN_MAX	28
#define RINGBUF_TYPE_PADDING		29
#define RINGBUF_TYPE_TIME_EXTEND	30
#define RINGBUF_TYPE_TIME_STAMP		31

#define RB_TS_SHIFT		27
#define RB_TS_DELTA_MAX		((1u << RB_TS_SHIFT) - 1)
#define RB_ALIGNMENT		4u
#define RB_EVNT_HDR_SIZE	4u
#define RB_MAX_SMALL_DATA	(RB_ALIGNMENT * RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
/* Bits of an absolute time stamp kept from the running clock (top 5). */
#define RB_TS_MSB		(0xf8ULL << 56)

struct rb_data_page {
	uint64_t time_stamp;	/* time of the first event on the page */
	int64_t commit;		/* local_t: committed bytes | RB_MISSED_* */
	unsigned char data[];
};

struct rb_event {
	uint32_t type_len : 5;
	uint32_t time_delta : 27;
	uint32_t array[];
};

/*
 * events/header_page and events/header_event, as Linux prints them. The
 * data field's size is the sub-buffer's: RB_HEADER_PAGE(data_size) takes
 * it as a string literal ("%u" makes a format for it).
 */
#define RB_HEADER_PAGE(data_size)					\
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"	\
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"	\
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"	\
	"\tfield: char data;\toffset:16;\tsize:" data_size ";\tsigned:0;\n"
/* The default sub-buffer's. */
#define RB_HEADER_PAGE_TEXT	RB_HEADER_PAGE("4080")

#define RB_HEADER_EVENT_TEXT						\
	"# compressed entry header\n"					\
	"\ttype_len    :    5 bits\n"					\
	"\ttime_delta  :   27 bits\n"					\
	"\tarray       :   32 bits\n"					\
	"\n"								\
	"\tpadding     : type == 29\n"					\
	"\ttime_extend : type == 30\n"					\
	"\ttime_stamp : type == 31\n"					\
	"\tdata max type_len  == 28\n"

#endif
