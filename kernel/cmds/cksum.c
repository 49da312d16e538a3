/*
 * cksum [FILE]...: the POSIX checksum (CRC-32, polynomial 0x04c11db7,
 * most significant bit first, the length folded in at the end) and the
 * byte count, so a file's content can be compared with the host's
 * `cksum` output.
 */
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

static u32 crc_byte(u32 crc, u8 b)
{
	crc ^= (u32)b << 24;
	for (int i = 0; i < 8; i++)
		crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	return crc;
}

/* The checksum and size of everything fd holds; 0 or -errno. */
static int cksum_fd(int fd, u32 *sum, u64 *size)
{
	char buf[1024];
	u32 crc = 0;
	u64 len = 0;
	ssize_t n;

	while ((n = sh_os->read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			crc = crc_byte(crc, (u8)buf[i]);
		len += (u64)n;
	}
	if (n < 0)
		return (int)n;
	*size = len;
	for (; len; len >>= 8)
		crc = crc_byte(crc, (u8)len);
	*sum = ~crc;
	return 0;
}

int cmd_cksum(int argc, char **argv, char **envp)
{
	int status = 0, i = 1;
	struct sh_out o;

	out_init(&o, 1);
	do {
		const char *name = i < argc ? argv[i] : "-";
		int fd = sh_open_input("cksum", name), err;
		u32 sum = 0;
		u64 size = 0;

		if (fd < 0) {
			status = 1;
			continue;
		}
		err = cksum_fd(fd, &sum, &size);
		if (fd)
			sh_os->close(fd);
		if (err) {
			sh_eprintf("cksum: %s: %s\n", name, errno_text(-err));
			status = 1;
		} else if (i < argc) {
			out_printf(&o, "%u %lu %s\n", sum, (unsigned long)size, name);
		} else {
			out_printf(&o, "%u %lu\n", sum, (unsigned long)size);
		}
	} while (++i < argc);
	return out_finish(&o, "cksum", status);
}
