/*
 * cpio "newc": each entry is a 110-byte ASCII header (magic "070701", or
 * "070702" whose checksum we do not verify, then 13 eight-digit hex
 * fields), the NUL-terminated name, padding to 4 bytes, the data, padding
 * to 4. "TRAILER!!!" ends the archive. Everything is checked against the
 * archive's length before it is used.
 */
#include <kernel/fs/initramfs.h>
#include <kernel/fs/fs.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>

#define CPIO_HDR_SIZE	110

enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJOR, F_DEVMINOR,
       F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK, NR_FIELDS };

static int parse_header(const char *h, u32 fields[NR_FIELDS])
{
	if (memcmp(h, "070701", 6) && memcmp(h, "070702", 6))
		return -EINVAL;
	for (int f = 0; f < NR_FIELDS; f++) {
		u32 v = 0;

		for (int i = 0; i < 8; i++) {
			char c = h[6 + f * 8 + i];

			if (c >= '0' && c <= '9')
				v = v * 16 + (u32)(c - '0');
			else if (c >= 'a' && c <= 'f')
				v = v * 16 + (u32)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				v = v * 16 + (u32)(c - 'A' + 10);
			else
				return -EINVAL;
		}
		fields[f] = v;
	}
	return 0;
}

static int write_file(const char *path, umode_t mode, const char *data, size_t size)
{
	struct file *f = vfs_open(NULL, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t n = 0;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	for (size_t done = 0; done < size; done += (size_t)n) {
		n = vfs_write(f, data + done, size - done, &f->f_pos);
		if (n <= 0)
			break;
	}
	fput(f);
	return n < 0 ? (int)n : 0;
}

/* Make one entry; path is absolute. Unsupported types are skipped. */
static int extract(const char *path, u32 mode, const char *data, size_t size, bool *made)
{
	char *target;
	int err;

	*made = true;
	/* A later archive (spoor exec's extras) may replace a file or link. */
	if (S_ISREG(mode) || S_ISLNK(mode)) {
		err = vfs_unlink(NULL, path);
		if (err && err != -ENOENT)
			return err;
	}
	switch (mode & S_IFMT) {
	case S_IFDIR:
		err = vfs_mkdir(NULL, path, (umode_t)(mode & S_IALLUGO));
		return err == -EEXIST ? 0 : err;
	case S_IFREG:
		return write_file(path, (umode_t)(mode & S_IALLUGO), data, size);
	case S_IFLNK:
		target = kstrndup(data, size, GFP_KERNEL);
		if (!target)
			return -ENOMEM;
		err = vfs_symlink(NULL, target, path);
		kfree(target);
		return err;
	default:
		*made = false;	/* devices, fifos: nothing here uses them */
		return 0;
	}
}

static int fail(struct initramfs_result *res, size_t off, const char *why, int err)
{
	res->error = why;
	res->error_offset = off;
	return err;
}

/* path: a PATH_MAX + 1 buffer for the absolute name of each entry. */
static int unpack(const char *buf, size_t len, char *path, struct initramfs_result *res)
{
	size_t off = 0;

	for (;;) {
		u32 h[NR_FIELDS];
		size_t name_off, data_off, next;
		const char *name;
		bool made;
		int err;

		/* Archives may be padded with zeros (and concatenated). */
		while (off + 4 <= len && !memcmp(buf + off, "\0\0\0\0", 4))
			off += 4;
		if (off >= len)
			return fail(res, off, "truncated archive (no trailer)", -EINVAL);
		if (len - off < CPIO_HDR_SIZE)
			return fail(res, off, "truncated header", -EINVAL);
		if (parse_header(buf + off, h))
			return fail(res, off, "bad header (not cpio newc)", -EINVAL);
		name_off = off + CPIO_HDR_SIZE;
		if (!h[F_NAMESIZE] || h[F_NAMESIZE] > PATH_MAX)
			return fail(res, off, "bad name size", -EINVAL);
		if (len - name_off < h[F_NAMESIZE])
			return fail(res, off, "truncated name", -EINVAL);
		name = buf + name_off;
		if (strnlen(name, h[F_NAMESIZE]) + 1 != h[F_NAMESIZE])
			return fail(res, off, "name not NUL-terminated", -EINVAL);
		data_off = ALIGN_UP(name_off + h[F_NAMESIZE], 4);
		if (data_off > len || len - data_off < h[F_FILESIZE])
			return fail(res, off, "truncated data", -EINVAL);
		next = ALIGN_UP(data_off + h[F_FILESIZE], 4);
		if (!strcmp(name, "TRAILER!!!"))
			return 0;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		while (*name == '/')
			name++;
		if (*name && strcmp(name, ".")) {
			snprintf(path, PATH_MAX + 1, "/%s", name);
			err = extract(path, h[F_MODE], buf + data_off, h[F_FILESIZE], &made);
			if (err)
				return fail(res, off, errno_text(err), err);
			res->entries += made;
		}
		off = next;
	}
}

int unpack_initramfs(const void *archive, size_t len, struct initramfs_result *res)
{
	char *path = kmalloc(PATH_MAX + 1, GFP_KERNEL);
	int err;

	res->entries = 0;
	res->error = NULL;
	res->error_offset = 0;
	if (!path)
		return fail(res, 0, "out of memory", -ENOMEM);
	err = unpack(archive, len, path, res);
	kfree(path);
	return err;
}
