/* perf.data writer and reader (user/perf/perf_data.h has the layout). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf_data.h"

/* Where each file section is: perf's struct perf_file_section. */
struct section {
	uint64_t offset, size;
};

/* The 104-byte file header, as perf lays it out. */
struct file_header {
	char magic[8];
	uint64_t size;
	uint64_t attr_size;
	struct section attrs, data, event_types;
	uint64_t features[4];
};

_Static_assert(sizeof(struct file_header) == PERF_DATA_HEADER_SIZE, "perf.data header size");

#define ENTRY_SIZE	(PERF_DATA_ATTR_SIZE + sizeof(struct section))

void perf_data_writer_init(struct perf_data_writer *w,
			   int (*write)(void *ctx, uint64_t off, const void *buf, size_t len),
			   void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->write = write;
	w->ctx = ctx;
}

static int put(struct perf_data_writer *w, uint64_t off, const void *buf, size_t len)
{
	if (!w->err && len && w->write(w->ctx, off, buf, len))
		w->err = -1;
	return w->err;
}

int perf_data_add(struct perf_data_writer *w, const void *records, size_t len)
{
	if (!put(w, PERF_DATA_HEADER_SIZE + w->data_size, records, len))
		w->data_size += len;
	return w->err;
}

int perf_data_finish(struct perf_data_writer *w, const struct perf_data_attr *attrs,
		     unsigned int nr_attrs, const void *tracing, size_t tracing_len)
{
	static const uint8_t zeros[8];
	struct file_header h = { .size = PERF_DATA_HEADER_SIZE, .attr_size = ENTRY_SIZE };
	uint64_t off = PERF_DATA_HEADER_SIZE + w->data_size, attrs_off, ids_off;

	memcpy(h.magic, PERF_DATA_MAGIC, 8);
	h.data = (struct section){ PERF_DATA_HEADER_SIZE, w->data_size };
	if (tracing_len) {
		struct section s = { off + sizeof(s), tracing_len };

		h.features[0] |= 1ull << HEADER_TRACING_DATA;
		put(w, off, &s, sizeof(s));
		put(w, s.offset, tracing, tracing_len);
		off = s.offset + tracing_len;
	}
	/* perf reads the attrs with 8-byte loads: align them. */
	attrs_off = (off + 7) & ~7ull;
	put(w, off, zeros, (size_t)(attrs_off - off));
	ids_off = attrs_off + (uint64_t)nr_attrs * ENTRY_SIZE;
	for (unsigned int i = 0; i < nr_attrs; i++) {
		struct perf_event_attr a = attrs[i].attr;
		struct section ids = { ids_off, attrs[i].nr_ids * 8ull };
		uint64_t at = attrs_off + i * ENTRY_SIZE;

		a.size = PERF_DATA_ATTR_SIZE;
		put(w, at, &a, PERF_DATA_ATTR_SIZE);
		put(w, at + PERF_DATA_ATTR_SIZE, &ids, sizeof(ids));
		put(w, ids_off, attrs[i].ids, ids.size);
		ids_off += ids.size;
	}
	h.attrs = (struct section){ attrs_off, (uint64_t)nr_attrs * ENTRY_SIZE };
	put(w, 0, &h, sizeof(h));
	return w->err;
}

/* ---- reading ------------------------------------------------------------------- */

static bool in_file(const struct perf_data_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

static int read_attrs(struct perf_data_file *f, const struct file_header *h, const char **err)
{
	uint64_t n;

	if (h->attr_size < 64 + sizeof(struct section) || h->attrs.size % h->attr_size ||
	    !in_file(f, h->attrs.offset, h->attrs.size)) {
		*err = "attrs section does not fit the file";
		return -1;
	}
	n = h->attrs.size / h->attr_size;
	if (!n || n > 4096) {
		*err = n ? "absurd number of attrs" : "no attrs";
		return -1;
	}
	f->attrs = calloc(n, sizeof(*f->attrs));
	if (!f->attrs) {
		*err = "out of memory";
		return -1;
	}
	f->nr_attrs = (unsigned int)n;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = f->buf + h->attrs.offset + i * h->attr_size;
		struct perf_data_attr *a = &f->attrs[i];
		uint64_t asize = h->attr_size - sizeof(struct section);
		struct section ids;
		uint32_t size;

		memcpy(&size, e + 4, 4);
		size = size ? size : PERF_ATTR_SIZE_VER0;
		if (size > asize) {
			*err = "an attr is bigger than the file's attr entries";
			return -1;
		}
		memcpy(&a->attr, e, size < sizeof(a->attr) ? size : sizeof(a->attr));
		memcpy(&ids, e + asize, sizeof(ids));
		if (ids.size % 8 || ids.size > (1u << 20) || !in_file(f, ids.offset, ids.size)) {
			*err = "an attr's ids do not fit the file";
			return -1;
		}
		a->nr_ids = (unsigned int)(ids.size / 8);
		a->ids = calloc(a->nr_ids ? a->nr_ids : 1, 8);
		if (!a->ids) {
			*err = "out of memory";
			return -1;
		}
		memcpy(a->ids, f->buf + ids.offset, ids.size);
	}
	return 0;
}

/* The feature sections follow the data, one per bit set, in bit order. */
static int read_features(struct perf_data_file *f, const char **err)
{
	uint64_t at = f->data_offset + f->data_size;

	for (unsigned int bit = 0; bit < 256; bit++) {
		struct section s;

		if (!(f->features[bit / 64] & (1ull << (bit % 64))))
			continue;
		if (!in_file(f, at, sizeof(s))) {
			*err = "feature table runs past the end of the file";
			return -1;
		}
		memcpy(&s, f->buf + at, sizeof(s));
		at += sizeof(s);
		if (bit != HEADER_TRACING_DATA)
			continue;
		if (!in_file(f, s.offset, s.size)) {
			*err = "tracing data section runs past the end of the file";
			return -1;
		}
		f->tracing_offset = s.offset;
		f->tracing_size = s.size;
	}
	return 0;
}

int perf_data_open(struct perf_data_file *f, const void *buf, size_t size, const char **err)
{
	struct file_header h = { 0 };

	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->size = size;
	if (size < 72 || memcmp(buf, PERF_DATA_MAGIC, 8)) {
		*err = size >= 8 && !memcmp(buf, "2ELIFREP", 8) ? "big-endian perf.data is not supported"
								 : "not a perf.data file (no PERFILE2 magic)";
		return -1;
	}
	memcpy(&h, buf, size < sizeof(h) ? size : sizeof(h));
	if ((h.size != PERF_DATA_HEADER_SIZE && h.size != 72) || h.size > size) {
		*err = "unknown perf.data header size";
		return -1;
	}
	if (h.size == 72)
		memset(h.features, 0, sizeof(h.features));
	if (!in_file(f, h.data.offset, h.data.size)) {
		*err = "data section runs past the end of the file";
		return -1;
	}
	f->data_offset = h.data.offset;
	f->data_size = h.data.size;
	memcpy(f->features, h.features, sizeof(f->features));
	if (read_attrs(f, &h, err) || read_features(f, err)) {
		perf_data_close(f);
		return -1;
	}
	return 0;
}

void perf_data_close(struct perf_data_file *f)
{
	for (unsigned int i = 0; i < f->nr_attrs; i++)
		free(f->attrs[i].ids);
	free(f->attrs);
	f->attrs = NULL;
	f->nr_attrs = 0;
}

bool perf_data_next(const struct perf_data_file *f, uint64_t *pos, struct perf_data_rec *r,
		    const char **err)
{
	const uint8_t *p;

	*err = NULL;
	if (*pos >= f->data_size)
		return false;
	if (f->data_size - *pos < sizeof(r->hdr)) {
		*err = "data section ends inside a record header";
		return false;
	}
	p = f->buf + f->data_offset + *pos;
	memcpy(&r->hdr, p, sizeof(r->hdr));
	if (r->hdr.size < sizeof(r->hdr) || r->hdr.size > f->data_size - *pos) {
		*err = "a record's size does not fit the data section";
		return false;
	}
	r->body = p + sizeof(r->hdr);
	r->offset = f->data_offset + *pos;
	*pos += r->hdr.size;
	return true;
}

const struct perf_data_attr *perf_data_attr_of(const struct perf_data_file *f,
					       const struct perf_data_rec *r)
{
	uint64_t st = f->attrs[0].attr.sample_type, id;
	unsigned int len = r->hdr.size - (unsigned int)sizeof(r->hdr);

	if (f->nr_attrs == 1)
		return &f->attrs[0];
	/* With several events the id says which; IDENTIFIER puts it where any record finds it. */
	if (!(st & PERF_SAMPLE_IDENTIFIER) || len < 8)
		return NULL;
	if (r->hdr.type == PERF_RECORD_SAMPLE)
		id = perf_data_u64(r->body);
	else if (f->attrs[0].attr.flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL)
		id = perf_data_u64(r->body + len - 8);
	else
		return NULL;
	for (unsigned int i = 0; i < f->nr_attrs; i++)
		for (unsigned int j = 0; j < f->attrs[i].nr_ids; j++)
			if (f->attrs[i].ids[j] == id)
				return &f->attrs[i];
	return NULL;
}

/* Reading a sample's body front to back. */
struct body {
	const uint8_t *p, *end;
	bool short_;
};

static uint64_t take64(struct body *b)
{
	uint64_t v = 0;

	if (b->end - b->p < 8)
		b->short_ = true;
	else
		v = perf_data_u64(b->p);
	b->p += b->short_ ? 0 : 8;
	return v;
}

/* PERF_SAMPLE_READ's values, skipped: read_format says how many u64s they are. */
static void skip_read(struct body *b, uint64_t rf)
{
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t n = 1;

	if (rf & PERF_FORMAT_GROUP)
		n = take64(b);	/* nr, then the times, then {value, id, lost} per member */
	if (n > 4096 || (uint64_t)(b->end - b->p) / 8 < times + n * per) {
		b->short_ = true;
		return;
	}
	b->p += 8 * (times + n * per);
}

bool perf_data_sample(const struct perf_data_file *f, const struct perf_data_rec *r,
		      struct perf_sample *s, const char **err)
{
	struct body b = { r->body, r->body + (r->hdr.size - sizeof(r->hdr)), false };
	uint64_t st, v;

	memset(s, 0, sizeof(*s));
	s->attr = perf_data_attr_of(f, r);
	if (!s->attr) {
		*err = "a sample whose id no attr has";
		return false;
	}
	st = s->attr->attr.sample_type;
	if (st & ~(uint64_t)PERF_SAMPLE_SUPPORTED) {
		*err = "a sample_type this reader does not know";
		return false;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take64(&b);
	if (st & PERF_SAMPLE_IP)
		s->ip = take64(&b);
	if (st & PERF_SAMPLE_TID) {
		v = take64(&b);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take64(&b);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take64(&b);
	if (st & PERF_SAMPLE_ID)
		s->id = take64(&b);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take64(&b);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take64(&b);
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take64(&b);
	if (st & PERF_SAMPLE_READ)
		skip_read(&b, s->attr->attr.read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = take64(&b);
		if (s->nr_ips > (uint64_t)(b.end - b.p) / 8)
			b.short_ = true;
		else
			s->ips = b.p, b.p += 8 * s->nr_ips;
	}
	if ((st & PERF_SAMPLE_RAW) && !b.short_) {
		uint32_t n = 0;

		if (b.end - b.p < 4 || (memcpy(&n, b.p, 4), n > (uint64_t)(b.end - b.p) - 4))
			b.short_ = true;
		else
			s->raw = b.p + 4, s->raw_size = n, b.p += 4 + n;
	}
	if (b.short_)
		*err = "a sample shorter than its sample_type says";
	return !b.short_;
}

const struct perf_sw_name perf_sw_names[] = {
	{ "cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY },
};
const unsigned int perf_sw_names_nr = sizeof(perf_sw_names) / sizeof(perf_sw_names[0]);

/*
 * perf's modifier rule: k/u/h name the levels counted once any is
 * excluded, and then excluding the guest is the default; H and G follow
 * unless the guest exclusion is that default.
 */
void perf_data_event_name(const struct perf_event_attr *a, char *buf, size_t size)
{
	uint64_t f = a->flags;
	bool guest_default = f & (PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_USER |
				  PERF_ATTR_FLAG_EXCLUDE_HV);
	char mods[8];
	size_t m = 0;
	const char *name = NULL;

	for (unsigned int i = 0; a->type == PERF_TYPE_SOFTWARE && i < perf_sw_names_nr; i++)
		if (perf_sw_names[i].config == a->config)
			name = perf_sw_names[i].name;
	if (guest_default) {
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_KERNEL))
			mods[m++] = 'k';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_USER))
			mods[m++] = 'u';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_HV))
			mods[m++] = 'h';
	}
	if ((f & PERF_ATTR_FLAG_EXCLUDE_HOST) || !!(f & PERF_ATTR_FLAG_EXCLUDE_GUEST) == guest_default) {
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_HOST))
			mods[m++] = 'H';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_GUEST))
			mods[m++] = 'G';
	}
	mods[m] = 0;
	if (name)
		snprintf(buf, size, "%s%s%s", name, m ? ":" : "", mods);
	else
		snprintf(buf, size, "raw-%u-%llu%s%s", a->type, (unsigned long long)a->config,
			 m ? ":" : "", mods);
}
