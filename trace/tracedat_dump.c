/*
 * trace-dump [-o FILE] [-d TRACEFS]: write the current trace as a
 * trace.dat (trace-cmd's version 6 layout; trace/tracedat.h). The pages
 * are consumed from per_cpu/cpuN/trace_pipe_raw while tracing goes on, as
 * trace-cmd extract does. With -o the file is written in the guest;
 * without, it leaves the machine through the dump port, framed with its
 * length and CRC-32 (trace/tracedat_frame.h), for `spoor exec --dump DIR`
 * to collect. trace-dump --file PATH sends any guest file the same way
 * (perf record's perf.data).
 *
 * The dump port is QEMU's ivshmem-plain PCI device: shared memory whose
 * host side is a file (a serial port moves a byte per emulated I/O and
 * host write(), far below the 5 MB/s a dump needs under TCG). Dumps are
 * appended to it one frame after the other. Kernel only: PCI
 * configuration space is I/O ports.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <asm/io.h>
#include <asm/page.h>
#include <trace/tracedat.h>
#include <trace/tracedat_extract.h>
#include <trace/tracedat_frame.h>

#define PCI_CONFIG_ADDRESS	0xcf8
#define PCI_CONFIG_DATA		0xcfc
#define IVSHMEM_ID		0x11101af4u	/* device 0x1110, vendor 0x1af4 (Red Hat) */
#define IVSHMEM_BAR		0x18		/* BAR2: the shared memory, 64-bit */

static u32 pci_read(unsigned int dev, unsigned int off)
{
	outl(PCI_CONFIG_ADDRESS, 0x80000000u | dev << 11 | (off & 0xfc));
	return inl(PCI_CONFIG_DATA);
}

static void pci_write(unsigned int dev, unsigned int off, u32 v)
{
	outl(PCI_CONFIG_ADDRESS, 0x80000000u | dev << 11 | (off & 0xfc));
	outl(PCI_CONFIG_DATA, v);
}

/* The dump port: the ivshmem memory, mapped once, and how much of it holds frames. */
static struct {
	u8 *mem;
	u64 size, used;
	bool probed;
} port;

/* Find the ivshmem device on bus 0 and map its memory; -ENODEV without one. */
static int port_open(void)
{
	u32 lo, hi, size_lo, size_hi, cmd;
	u64 phys, size;
	unsigned int dev;

	if (port.probed)
		return port.mem ? 0 : -ENODEV;
	port.probed = true;
	for (dev = 0; dev < 32 && pci_read(dev, 0) != IVSHMEM_ID; dev++)
		;
	if (dev == 32)
		return -ENODEV;
	lo = pci_read(dev, IVSHMEM_BAR);
	hi = pci_read(dev, IVSHMEM_BAR + 4);
	/* Size the BAR the standard way, with memory decoding off meanwhile. */
	cmd = pci_read(dev, 0x04);
	pci_write(dev, 0x04, cmd & ~2u);
	pci_write(dev, IVSHMEM_BAR, ~0u);
	pci_write(dev, IVSHMEM_BAR + 4, ~0u);
	size_lo = pci_read(dev, IVSHMEM_BAR) & ~0xfu;
	size_hi = pci_read(dev, IVSHMEM_BAR + 4);
	pci_write(dev, IVSHMEM_BAR, lo);
	pci_write(dev, IVSHMEM_BAR + 4, hi);
	pci_write(dev, 0x04, cmd | 2u);		/* memory decoding on */
	phys = ((u64)hi << 32) | (lo & ~0xfu);
	size = ~(((u64)size_hi << 32) | size_lo) + 1;
	if (!phys || !size)
		return -ENODEV;
	port.mem = ioremap(phys, size);
	if (!port.mem)
		return -ENOMEM;
	port.size = size;
	return 0;
}

/* Writer sinks: the dump port (CRC as it goes) and a file. */
struct port_sink {
	u64 pos;		/* next byte in port.mem */
	u32 crc;
};

static int to_port(void *ctx, const void *buf, size_t len)
{
	struct port_sink *s = ctx;

	s->crc = tdframe_crc32(s->crc, buf, len);
	memcpy(port.mem + s->pos, buf, len);
	s->pos += len;
	return 0;
}

static int to_fd(void *ctx, const void *buf, size_t len)
{
	return sh_write_all(*(int *)ctx, buf, len);
}

/* What a frame carries: its exact size, and how to write it. */
struct dump_payload {
	u64 size;
	int (*emit)(struct tracedat_writer *w, void *ctx);
	void *ctx;
};

/* One frame at the end of what the port holds. */
static int port_frame(const struct dump_payload *pl, u32 *seq, struct port_sink *sink,
		      struct tracedat_writer *w)
{
	int ret;

	if (port.size - port.used < pl->size + TDFRAME_HDR_SIZE + TDFRAME_TRAILER_SIZE)
		return -ENOSPC;
	tdframe_header(port.mem + port.used, (*seq)++, pl->size);
	sink->pos = port.used + TDFRAME_HDR_SIZE;
	tracedat_writer_init(w, to_port, sink);
	ret = pl->emit(w, pl->ctx);
	if (!ret && w->pos != pl->size)
		ret = -EIO;	/* the size in the header would be a lie */
	/* A frame whose data did not all come out is marked bad, not left looking whole. */
	tdframe_trailer(port.mem + port.used + TDFRAME_HDR_SIZE + pl->size,
			ret ? ~sink->crc : sink->crc);
	port.used += TDFRAME_HDR_SIZE + pl->size + TDFRAME_TRAILER_SIZE;
	return ret;
}

static int dump_to_port(const struct dump_payload *pl)
{
	static u32 seq;
	static bool busy;	/* one dump at a time owns the port */
	struct port_sink sink = { 0 };
	struct tracedat_writer w;
	int ret;

	if (__atomic_exchange_n(&busy, true, __ATOMIC_ACQUIRE))
		return -EBUSY;
	ret = port_open();
	if (!ret)
		ret = port_frame(pl, &seq, &sink, &w);
	__atomic_store_n(&busy, false, __ATOMIC_RELEASE);
	return ret;
}

static int emit_trace(struct tracedat_writer *w, void *ctx)
{
	return tracedat_extract_write(ctx, w);
}

static int emit_bytes(struct tracedat_writer *w, void *ctx)
{
	struct sh_buf *b = ctx;

	return tracedat_write_data(w, b->s, b->len);
}

/*
 * trace-dump --file PATH: any guest file out through the port, e.g. a
 * perf.data `perf record` wrote (the host names frames by their magic).
 */
static int dump_file(const char *path)
{
	struct sh_buf b = { 0 };
	struct dump_payload pl = { .emit = emit_bytes, .ctx = &b };
	struct sh_out o;
	int fd = sh_os->open(path, SH_O_RDONLY, 0);
	int ret;

	if (fd < 0) {
		sh_eprintf("trace-dump: %s: %s\n", path, errno_text(fd));
		return 1;
	}
	ret = sh_read_all(fd, &b);
	sh_os->close(fd);
	if (!ret && b.oom)
		ret = -ENOMEM;
	pl.size = b.len;
	if (!ret)
		ret = dump_to_port(&pl);
	sh_buf_free(&b);
	if (ret) {
		sh_eprintf("trace-dump: %s: %s\n", path, errno_text(ret));
		return 1;
	}
	out_init(&o, 1);
	out_printf(&o, "trace-dump: %s: %lu bytes -> dump port\n", path, (unsigned long)pl.size);
	return out_finish(&o, "trace-dump", 0);
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
	u64 size = 0, pages = 0, t0, t1, t2;
	int c, ret;

	if (argc == 3 && !strcmp(argv[1], "--file"))
		return dump_file(argv[2]);
	while ((c = sh_getopt(&g, argc, argv, "o:d:")) != -1) {
		if (c == '?') {
			sh_eprintf("usage: trace-dump [-o FILE] [-d TRACEFS] | trace-dump --file PATH\n");
			return 2;
		}
		if (c == 'o')
			out = g.arg;
		else
			tracefs = g.arg;
	}
	ks = tracedat_kallsyms_text(&ks_len);
	t0 = sh_os->now_ns();
	ret = tracedat_extract(&x, tracefs, ks, ks ? ks_len : 0);
	t1 = sh_os->now_ns();
	if (!ret && out) {
		ret = dump_to_file(&x, out, &size);
	} else if (!ret) {
		struct dump_payload pl = { tracedat_file_size(&x.info), emit_trace, &x };

		size = pl.size;
		ret = dump_to_port(&pl);
	}
	t2 = sh_os->now_ns();
	if (ret) {
		sh_eprintf("trace-dump: %s: %s\n", out ? out : "dump port", errno_text(ret));
		tracedat_extract_free(&x);
		kfree(ks);
		return 1;
	}
	for (unsigned int cpu = 0; cpu < x.info.nr_cpus; cpu++)
		pages += x.cpu_size[cpu] / x.info.page_size;
	out_init(&o, 1);
	out_printf(&o, "trace-dump: %lu bytes, %lu pages from %u CPUs, %u event formats -> %s "
		   "(read %lu ms, written %lu ms: %lu KB/s)\n",
		   (unsigned long)size, (unsigned long)pages, x.info.nr_cpus, x.nr_formats,
		   out ? out : "dump port", (unsigned long)((t1 - t0) / 1000000),
		   (unsigned long)((t2 - t1) / 1000000),
		   (unsigned long)(size * 1000000 / (t2 - t1 + 1)));
	tracedat_extract_free(&x);
	kfree(ks);
	return out_finish(&o, "trace-dump", 0);
}
