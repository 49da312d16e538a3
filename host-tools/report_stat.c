/*
 * spoor report --stat: what trace-cmd report --stat prints for a trace.dat.
 * trace-cmd record keeps each CPU's buffer counters (per_cpu/cpuN/stats,
 * read after the data was taken) in CPUSTAT options; --stat shows them
 * and where each CPU's data lies in the file, and no events. Spoor's
 * trace-dump stores the same options (trace/tracedat_extract.c).
 */
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

/*
 * trace-cmd joins the options into one string, each one's last byte (its
 * NUL) turned into a newline, and prints it as a C string: an option with
 * a NUL inside ends the text there.
 */
static void print_cpustats(const struct tdat *t, FILE *out)
{
	for (unsigned int i = 0; i < t->nr_cpustats; i++) {
		const struct tdat_blob *b = &t->cpustats[i];
		const char *nul;

		if (!b->len)
			continue;
		nul = memchr(b->data, '\0', b->len - 1);
		if (nul) {
			fwrite(b->data, 1, (size_t)(nul - b->data), out);
			break;
		}
		fwrite(b->data, 1, b->len - 1, out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static const struct tdat_cpu *cpu_data(const struct tdat *t, unsigned int cpu)
{
	for (unsigned int i = 0; i < t->nr_data; i++)
		if (t->cpus[i].cpu == cpu)
			return &t->cpus[i];
	return NULL;
}

/*
 * One entry per CPU number up to the highest with data, a CPU the file
 * does not list as offset 0 and size 0. Compressed data has no place in
 * the file to show: trace-cmd numbers it as if inflated back to back, the
 * first at one page, each starting on a page.
 */
static void print_cpu_table(const struct tdat *t, FILE *out)
{
	uint64_t inflated_at = t->page_size;
	unsigned int n = 0;

	for (unsigned int i = 0; i < t->nr_data; i++)
		if (t->cpus[i].cpu >= n)
			n = t->cpus[i].cpu + 1;
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		const struct tdat_cpu *d = cpu_data(t, cpu);
		uint64_t offset = d ? d->offset : 0, size = !d ? 0 : d->chunked ? d->inflated_size : d->size;

		if (d && d->chunked && size) {
			offset = inflated_at;
			inflated_at = (inflated_at + size + t->page_size - 1) & ~(uint64_t)(t->page_size - 1);
		}
		fprintf(out, "CPU%u data recorded at offset=0x%llx\n    %llu bytes in size\n", cpu,
			(unsigned long long)offset, (unsigned long long)size);
	}
}

int report_stat(const char *path, const unsigned char *buf, size_t size, FILE *out)
{
	struct tdat t;
	int ret;

	if (tdat_open(&t, path, buf, size)) {
		tdat_close(&t);
		return 2;
	}
	fprintf(out, "cpus=%u\n", t.nr_cpus);
	fputs("\nKernel buffer statistics:\n"
	      "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	      "        recorded in the trace data. They should all be zero.\n\n", out);
	if (t.nr_cpustats)
		print_cpustats(&t, out);
	else
		fputs(" No stats in this file\n", out);
	print_cpu_table(&t, out);
	ret = t.errors ? 1 : 0;
	tdat_close(&t);
	return ret;
}
