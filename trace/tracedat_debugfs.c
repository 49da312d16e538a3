/*
 * /sys/kernel/debug/tracing_data: the header blocks of a trace.dat (the
 * formats of every event, header_page/header_event, kallsyms, saved
 * cmdlines) as perf.data's HEADER_TRACING_DATA section carries them:
 * version "0.6". A user-space perf record copies the file into its
 * output as is, so the blocks come from the one writer trace-dump uses
 * (trace/tracedat_write.c) and not from a second one in user space.
 * Each open takes a snapshot (saved cmdlines change as tasks come and
 * go); reads page through it. Kernel only (kallsyms, debugfs).
 */
#include <kernel/types.h>
#include <kernel/err.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/pseudo.h>
#include <kernel/fs/seq_file.h>
#include <kernel/shell/sh_buf.h>
#include <trace/trace.h>
#include <trace/tracedat.h>
#include <trace/tracedat_extract.h>

/* The kernel's symbol table (the last link pass's generated assembly). */
extern const u64 kallsyms_num;
extern const u64 kallsyms_addrs[];
extern const u32 kallsyms_name_off[];
extern const char kallsyms_names[];

char *tracedat_kallsyms_text(size_t *len)
{
	struct sh_buf b = { 0 };

	for (u64 i = 0; i < kallsyms_num; i++)
		sh_buf_printf(&b, "%016lx T %s\n", (unsigned long)kallsyms_addrs[i],
			      kallsyms_names + kallsyms_name_off[i]);
	*len = b.len;
	return sh_buf_take(&b);
}

static int to_buf(void *ctx, const void *buf, size_t len)
{
	struct sh_buf *b = ctx;

	sh_buf_put(b, buf, len);
	return b->oom ? -ENOMEM : 0;
}

static int tracing_data_open(struct inode *inode, struct file *file)
{
	struct tracedat_extract x;
	struct tracedat_writer w;
	struct sh_buf *out = kzalloc(sizeof(*out), GFP_KERNEL);
	size_t ks_len = 0;
	char *ks = tracedat_kallsyms_text(&ks_len);
	int ret = out ? tracedat_extract_meta(&x, "/sys/kernel/tracing", ks, ks ? ks_len : 0)
		      : -ENOMEM;

	if (!ret) {
		tracedat_writer_init(&w, to_buf, out);
		ret = tracedat_write_tracing_data(&w, &x.info, "0.6");
	}
	if (out)
		tracedat_extract_free(&x);
	kfree(ks);
	if (ret) {
		if (out)
			sh_buf_free(out);
		kfree(out);
		return ret;
	}
	file->private_data = out;
	return 0;
}

static ssize_t tracing_data_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct sh_buf *b = file->private_data;

	return simple_read_from_buffer(buf, count, pos, b->s, b->len);
}

static int tracing_data_release(struct inode *inode, struct file *file)
{
	sh_buf_free(file->private_data);
	kfree(file->private_data);
	return 0;
}

static const struct file_operations tracing_data_fops = {
	.open = tracing_data_open,
	.read = tracing_data_read,
	.release = tracing_data_release,
};

int tracedat_debugfs_init(void)
{
	struct dentry *debug = pseudo_lookup("/sys/kernel/debug"), *f;

	if (IS_ERR(debug))
		return (int)PTR_ERR(debug);
	f = pseudo_create_file(debug, "tracing_data", 0444, &tracing_data_fops, NULL);
	dput(debug);
	return IS_ERR(f) ? (int)PTR_ERR(f) : 0;
}
