/*
 * trace-dump [-o FILE] [-d TRACEFS]: write the current trace as a
 * trace.dat (trace-cmd's version 6 layout; trace/tracedat.h). The pages
 * are consumed from per_cpu/cpuN/trace_pipe_raw while tracing goes on, as
 * trace-cmd extract does. With -o the file is written in the guest;
 * without, it leaves the machine on the dump port (COM2), framed with its
 * length and CRC-32 (trace/tracedat_frame.h) for `spoor exec --dump DIR`
 * to collect. Kernel only: the port is I/O space.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <asm/io.h>
#include <trace/tracedat.h>
#include <trace/tracedat_extract.h>
#include <trace/tracedat_frame.h>

#define DUMP_PORT	0x2f8	/* COM2 */
#define UART_FIFO	16	/* bytes the transmitter takes at once */

/* The kernel's symbol table (the last link pass's generated assembly). */
extern const u64 kallsyms_num;
extern const u64 kallsyms_addrs[];
extern const u32 kallsyms_name_off[];
extern const char kallsyms_names[];

/* /proc/kallsyms-style lines for every symbol, for %pS on the host. */
static char *kallsyms_text(size_t *len)
{
	struct sh_buf b = { 0 };

	for (u64 i = 0; i < kallsyms_num; i++)
		sh_buf_printf(&b, "%016lx T %s\n", (unsigned long)kallsyms_addrs[i],
			      kallsyms_names + kallsyms_name_off[i]);
	*len = b.len;
	return sh_buf_take(&b);
}

static void port_init(void)
{
	outb(DUMP_PORT + 1, 0x00);	/* no interrupts */
	outb(DUMP_PORT + 3, 0x80);	/* DLAB */
	outb(DUMP_PORT + 0, 0x01);	/* 115200 baud (QEMU ignores it) */
	outb(DUMP_PORT + 1, 0x00);
	outb(DUMP_PORT + 3, 0x03);	/* 8N1 */
	outb(DUMP_PORT + 2, 0x07);	/* FIFO on and cleared */
	outb(DUMP_PORT + 4, 0x03);	/* DTR, RTS */
}

/* Whole FIFOs at a time: one status read per 16 bytes, one rep outsb. */
static void port_write(const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len) {
		size_t n = len < UART_FIFO ? len : UART_FIFO;

		while (!(inb(DUMP_PORT + 5) & 0x20))	/* transmitter empty */
			;
		__asm__ __volatile__("rep outsb" : "+S"(p), "+c"(n) : "d"((u16)DUMP_PORT) : "memory");
		len -= len < UART_FIFO ? len : UART_FIFO;
	}
}

/* Writer sinks: the framed port (CRC as it goes) and a file. */
struct port_sink {
	u32 crc;
};

static int to_port(void *ctx, const void *buf, size_t len)
{
	struct port_sink *s = ctx;

	s->crc = tdframe_crc32(s->crc, buf, len);
	port_write(buf, len);
	return 0;
}

static int to_fd(void *ctx, const void *buf, size_t len)
{
	return sh_write_all(*(int *)ctx, buf, len);
}

static int dump_to_port(struct tracedat_extract *x, u64 *size)
{
	static u32 seq;
	struct port_sink sink = { 0 };
	struct tracedat_writer w;
	u8 hdr[TDFRAME_HDR_SIZE], trailer[TDFRAME_TRAILER_SIZE];
	int ret;

	*size = tracedat_file_size(&x->info);
	port_init();
	tdframe_header(hdr, __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED), *size);
	port_write(hdr, sizeof(hdr));
	tracedat_writer_init(&w, to_port, &sink);
	ret = tracedat_extract_write(x, &w);
	/* A frame cut short would make the host wait for bytes that never come: finish it. */
	if (ret)
		sink.crc = ~sink.crc;
	tdframe_trailer(trailer, sink.crc);
	port_write(trailer, sizeof(trailer));
	return ret;
}

static int dump_to_file(struct tracedat_extract *x, const char *path, u64 *size)
{
	struct tracedat_writer w;
	int fd = sh_os->open(path, SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC, 0644);
	int ret;

	if (fd < 0)
		return fd;
	tracedat_writer_init(&w, to_fd, &fd);
	ret = tracedat_extract_write(x, &w);
	*size = w.pos;
	sh_os->close(fd);
	return ret;
}

int cmd_trace_dump(int argc, char **argv, char **envp)
{
	const char *out = NULL, *tracefs = "/sys/kernel/tracing";
	struct sh_getopt g = { 0 };
	struct tracedat_extract x;
	struct sh_out o;
	size_t ks_len;
	char *ks;
	u64 size = 0, pages = 0;
	int c, ret;

	while ((c = sh_getopt(&g, argc, argv, "o:d:")) != -1) {
		if (c == '?') {
			sh_eprintf("usage: trace-dump [-o FILE] [-d TRACEFS]\n");
			return 2;
		}
		if (c == 'o')
			out = g.arg;
		else
			tracefs = g.arg;
	}
	ks = kallsyms_text(&ks_len);
	ret = tracedat_extract(&x, tracefs, ks, ks ? ks_len : 0);
	if (!ret)
		ret = out ? dump_to_file(&x, out, &size) : dump_to_port(&x, &size);
	if (ret) {
		sh_eprintf("trace-dump: %s: %s\n", out ? out : "dump port", errno_text(ret));
		tracedat_extract_free(&x);
		kfree(ks);
		return 1;
	}
	for (unsigned int cpu = 0; cpu < x.info.nr_cpus; cpu++)
		pages += x.cpu_size[cpu] / x.info.page_size;
	out_init(&o, 1);
	out_printf(&o, "trace-dump: %lu bytes, %lu pages from %u CPUs, %u event formats -> %s\n",
		   (unsigned long)size, (unsigned long)pages, x.info.nr_cpus, x.nr_formats,
		   out ? out : "dump port");
	tracedat_extract_free(&x);
	kfree(ks);
	return out_finish(&o, "trace-dump", 0);
}
