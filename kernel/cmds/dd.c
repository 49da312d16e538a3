/*
 * dd [if=FILE] [of=FILE] [bs=N] [count=N]: copy in blocks of at most N
 * bytes (512 by default), one read per block, so a file can be read in
 * pieces of any size; the record counts go to stderr as POSIX says
 * ("F+P records in/out": full and partial blocks).
 */
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

#define DD_BS_MAX	(1 << 20)

int cmd_dd(int argc, char **argv, char **envp)
{
	const char *in = "-", *out = NULL;
	long long bs = 512, count = -1, v;
	unsigned long full_in = 0, part_in = 0, full_out = 0, part_out = 0, bytes = 0;
	int ifd, ofd = 1, status = 0;
	ssize_t n;
	char *buf;

	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			sh_eprintf("dd: unrecognized operand '%s'\n", argv[i]);
			return 2;
		}
		if (!strncmp(argv[i], "if=", 3)) {
			in = eq + 1;
		} else if (!strncmp(argv[i], "of=", 3)) {
			out = eq + 1;
		} else if (!strncmp(argv[i], "bs=", 3) && !sh_parse_int(eq + 1, &v) && v > 0 &&
			   v <= DD_BS_MAX) {
			bs = v;
		} else if (!strncmp(argv[i], "count=", 6) && !sh_parse_int(eq + 1, &v) && v >= 0) {
			count = v;
		} else {
			sh_eprintf("dd: invalid operand '%s'\n", argv[i]);
			return 2;
		}
	}
	ifd = sh_open_input("dd", in);
	if (ifd < 0)
		return 1;
	if (out && (ofd = sh_os->open(out, SH_O_WRONLY | SH_O_CREAT | SH_O_TRUNC, 0644)) < 0) {
		sh_eprintf("dd: %s: %s\n", out, errno_text(-ofd));
		if (ifd)
			sh_os->close(ifd);
		return 1;
	}
	buf = kmalloc((size_t)bs, GFP_KERNEL);
	if (!buf)
		status = 1;
	while (buf && count-- != 0 && !sh_os->interrupted() &&
	       (n = sh_os->read(ifd, buf, (size_t)bs)) > 0) {
		ssize_t w = sh_os->write(ofd, buf, (size_t)n);

		if (n == bs)
			full_in++;
		else
			part_in++;
		if (w < 0) {
			sh_eprintf("dd: write error: %s\n", errno_text((int)-w));
			status = 1;
			break;
		}
		if (w == bs)
			full_out++;
		else
			part_out++;
		bytes += (unsigned long)w;
	}
	kfree(buf);
	if (ifd)
		sh_os->close(ifd);
	if (out)
		sh_os->close(ofd);
	sh_eprintf("%lu+%lu records in\n%lu+%lu records out\n%lu bytes copied\n", full_in, part_in,
		   full_out, part_out, bytes);
	return status;
}
