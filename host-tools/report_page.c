/*
 * Ring-buffer pages -> records (trace/ring_buffer_format.h has the
 * layout). Times: the page header holds the first event's time; every
 * event header adds its 27-bit delta (padding and discarded events too),
 * TIME_EXTEND adds a wider delta and TIME_STAMP sets the time outright,
 * keeping the top bits of the running time.
 */
#include <string.h>
#include "host-tools/report.h"
#include "trace/ring_buffer_format.h"

void page_iter_init(struct page_iter *it, struct rep_ctx *ctx, struct tdat *t,
		    const struct tdat_cpu *cpu)
{
	memset(it, 0, sizeof(*it));
	it->ctx = ctx;
	tdat_reader_init(&it->reader, t, cpu);
	it->cpu = cpu->cpu;
	it->page_size = t->page_size;
	it->long_size = (unsigned int)ctx->long_size;
	it->missed = -1;
}

void page_iter_free(struct page_iter *it)
{
	tdat_reader_free(&it->reader);
}

/* The next piece of the CPU's data; false at its end. */
static bool next_piece(struct page_iter *it)
{
	if (!tdat_reader_next(&it->reader))
		return false;
	it->data = it->reader.data;
	it->size = it->reader.size;
	it->file_offset = it->reader.offset;
	it->page = 0;
	return true;
}

static uint32_t rd32(const struct page_iter *it, size_t off)
{
	uint32_t v;

	memcpy(&v, it->data + off, 4);
	return it->ctx->big_endian ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct page_iter *it, size_t off)
{
	uint64_t v;

	memcpy(&v, it->data + off, 8);
	return it->ctx->big_endian ? __builtin_bswap64(v) : v;
}

/* Start the page at it->page; false if it is unusable (reported) or empty. */
static bool load_page(struct page_iter *it)
{
	size_t hdr = 8 + it->long_size;
	uint64_t commit = it->long_size == 8 ? rd64(it, it->page + 8) : rd32(it, it->page + 8);
	uint64_t size = commit & RB_COMMIT_MASK;

	it->ts = rd64(it, it->page);
	if (size > it->page_size - hdr) {
		rep_diag(it->ctx, it->file_offset + it->page + 8,
			 "CPU %u: corrupt page: commit %llu is beyond the page's %zu data bytes",
			 it->cpu, (unsigned long long)size, (size_t)(it->page_size - hdr));
		return false;
	}
	it->pos = it->page + hdr;
	it->end = it->pos + size;
	it->missed = -1;
	if (commit & RB_MISSED_EVENTS) {
		it->missed = 0;
		if (commit & RB_MISSED_STORED && size + it->long_size <= it->page_size - hdr)
			it->missed = (int64_t)(it->long_size == 8 ? rd64(it, it->end) : rd32(it, it->end));
	}
	return size != 0;
}

static void corrupt(struct page_iter *it, const char *what)
{
	rep_diag(it->ctx, it->file_offset + it->pos, "CPU %u: corrupt event: %s; rest of the page skipped",
		 it->cpu, what);
	it->pos = it->end;
}

bool page_next(struct page_iter *it, struct rep_record *rec)
{
	for (;;) {
		uint32_t h, type_len, delta, len;

		if (!it->in_page || it->pos >= it->end) {
			if (it->in_page)
				it->page += it->page_size;
			else
				it->in_page = true;
			for (;;) {
				while (it->page + it->page_size <= it->size && !load_page(it))
					it->page += it->page_size;
				if (it->page + it->page_size <= it->size)
					break;
				if (!next_piece(it))
					return false;
			}
		}
		if (it->end - it->pos < 4) {
			corrupt(it, "a header cut by the end of the data");
			continue;
		}
		h = rd32(it, it->pos);
		if (it->ctx->big_endian) {
			type_len = h >> 27;
			delta = h & RB_TS_DELTA_MAX;
		} else {
			type_len = h & 31;
			delta = h >> 5;
		}
		if (type_len == RINGBUF_TYPE_PADDING) {
			if (!delta) {	/* the rest of the page is unused */
				it->pos = it->end;
				continue;
			}
			if (it->end - it->pos < 8) {
				corrupt(it, "discarded event cut by the end of the data");
				continue;
			}
			len = rd32(it, it->pos + 4);
			if (len > it->end - it->pos - 4) {
				corrupt(it, "discarded event longer than the page's data");
				continue;
			}
			it->ts += delta;
			it->pos += 4 + ((len + 3) & ~3u);
			continue;
		}
		if (type_len == RINGBUF_TYPE_TIME_EXTEND || type_len == RINGBUF_TYPE_TIME_STAMP) {
			uint64_t t;

			if (it->end - it->pos < 8) {
				corrupt(it, "time record cut by the end of the data");
				continue;
			}
			t = ((uint64_t)rd32(it, it->pos + 4) << RB_TS_SHIFT) + delta;
			if (type_len == RINGBUF_TYPE_TIME_EXTEND)
				it->ts += t;
			else
				it->ts = t | (it->ts & RB_TS_MSB);
			it->pos += 8;
			continue;
		}
		if (type_len) {
			len = type_len * 4;
			rec->data = it->data + it->pos + 4;
			rec->size = len;
			if (len > it->end - it->pos - 4) {
				corrupt(it, "event longer than the page's data");
				continue;
			}
			it->pos += 4 + len;
		} else {
			if (it->end - it->pos < 8) {
				corrupt(it, "event length cut by the end of the data");
				continue;
			}
			len = rd32(it, it->pos + 4);
			if (len < 4 || len > it->end - it->pos - 4) {
				corrupt(it, "event length out of range");
				continue;
			}
			rec->data = it->data + it->pos + 8;
			rec->size = len - 4;
			it->pos += 4 + ((len + 3) & ~3u);
		}
		it->ts += delta;
		rec->ts = it->ts;
		rec->cpu = it->cpu;
		rec->offset = it->file_offset + (uint64_t)(rec->data - it->data);
		rec->missed = it->missed;
		it->missed = -1;
		return true;
	}
}
