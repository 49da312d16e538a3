/* cpio "newc" reader and writer: 110-byte ASCII headers, name and data padded to 4. */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cpio.h"
#include "spoor.h"

void cpio_begin(struct cpio *c, FILE *f)
{
	c->f = f;
	c->ino = 1;
	c->error = 0;
}

static void pad4(struct cpio *c, size_t len)
{
	static const char zero[4];

	if (len & 3 && fwrite(zero, 1, 4 - (len & 3), c->f) != 4 - (len & 3))
		c->error = 1;
}

static void put(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	size_t namelen = strlen(name) + 1;

	if (fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08zX%08X",
		    c->ino++, mode, 0u, 0u, 1u, 0u, (unsigned long)len, 0u, 0u, 0u, 0u,
		    namelen, 0u) < 0 || fwrite(name, 1, namelen, c->f) != namelen)
		c->error = 1;
	pad4(c, 110 + namelen);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->error = 1;
	pad4(c, len);
}

/* Archive names have no leading slash. */
static const char *relname(const char *path)
{
	while (*path == '/')
		path++;
	return path;
}

void cpio_add_dir(struct cpio *c, const char *path)
{
	char buf[4096];
	char *p;

	snprintf(buf, sizeof(buf), "%s", relname(path));
	for (p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		put(c, buf, 040755, NULL, 0);
		*p = '/';
	}
	if (*buf)
		put(c, buf, 040755, NULL, 0);
}

static void add_parents(struct cpio *c, const char *path)
{
	char buf[4096];
	char *slash;

	snprintf(buf, sizeof(buf), "%s", relname(path));
	slash = strrchr(buf, '/');
	if (slash) {
		*slash = '\0';
		cpio_add_dir(c, buf);
	}
}

void cpio_add_data(struct cpio *c, const char *path, unsigned mode, const void *data, size_t len)
{
	add_parents(c, path);
	put(c, relname(path), 0100000 | (mode & 07777), data, len);
}

int cpio_add_file(struct cpio *c, const char *path, const char *host_path)
{
	FILE *f = fopen(host_path, "rb");
	struct stat st;
	char *data;

	if (!f || fstat(fileno(f), &st) < 0) {
		spoor_err("%s: %s", host_path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!data || fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		spoor_err("%s: read failed", host_path);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	cpio_add_data(c, path, st.st_mode & 0777, data, (size_t)st.st_size);
	free(data);
	return 0;
}

int cpio_add_tree(struct cpio *c, const char *path, const char *host_path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (stat(host_path, &st) < 0) {
		spoor_err("%s: %s", host_path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return cpio_add_file(c, path, host_path);
	cpio_add_dir(c, path);
	d = opendir(host_path);
	if (!d) {
		spoor_err("%s: %s", host_path, strerror(errno));
		return -1;
	}
	while (!rc && (e = readdir(d))) {
		char *h, *g;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&h, "%s/%s", host_path, e->d_name) < 0) {
			rc = -1;
			break;
		}
		if (asprintf(&g, "%s/%s", path, e->d_name) < 0) {
			free(h);
			rc = -1;
			break;
		}
		rc = cpio_add_tree(c, g, h);
		free(h);
		free(g);
	}
	closedir(d);
	return rc;
}

void cpio_add_entry(struct cpio *c, const char *path, unsigned mode, const void *data, size_t len)
{
	put(c, relname(path), mode, data, len);
}

int cpio_end(struct cpio *c)
{
	put(c, "TRAILER!!!", 0, NULL, 0);
	return c->error || fflush(c->f) ? -1 : 0;
}

/* The header is 13 eight-digit hex fields after the 6-byte magic. */
enum { HDR_LEN = 110, F_MODE = 1, F_FILESIZE = 6, F_NAMESIZE = 11 };

static int hexfield(const char *hdr, int field, unsigned long *val)
{
	const char *p = hdr + 6 + 8 * field;

	*val = 0;
	for (int i = 0; i < 8; i++) {
		int d;

		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			d = p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			d = p[i] - 'A' + 10;
		else
			return -EINVAL;
		*val = *val << 4 | (unsigned long)d;
	}
	return 0;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int cpio_read(const void *buf, size_t len,
	      int (*fn)(void *arg, const struct cpio_entry *e), void *arg)
{
	const char *base = buf;
	size_t off = 0;

	while (len - off >= HDR_LEN) {
		const char *hdr = base + off;
		unsigned long mode, size, namesize;
		struct cpio_entry e;
		int ret;

		if (memcmp(hdr, "070701", 6) && memcmp(hdr, "070702", 6))
			return -EINVAL;
		if (hexfield(hdr, F_MODE, &mode) || hexfield(hdr, F_FILESIZE, &size) ||
		    hexfield(hdr, F_NAMESIZE, &namesize))
			return -EINVAL;
		/* Subtractions, not sums: the sizes come from the archive. */
		if (namesize == 0 || namesize > len - off - HDR_LEN ||
		    hdr[HDR_LEN + namesize - 1] != '\0')
			return -EINVAL;
		off = align4(off + HDR_LEN + namesize);
		if (off > len || size > len - off)
			return -EINVAL;
		e.name = hdr + HDR_LEN;
		if (!strcmp(e.name, "TRAILER!!!"))
			return 0;
		e.mode = (unsigned)mode;
		e.data = base + off;
		e.size = size;
		ret = fn(arg, &e);
		if (ret)
			return ret;
		off = align4(off + size);
		if (off > len)
			return -EINVAL;
	}
	return -EINVAL;
}
