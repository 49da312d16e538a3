/* Reading and writing cpio "newc" archives, the initrd format the kernel unpacks. */
#ifndef HOST_TOOLS_CPIO_H
#define HOST_TOOLS_CPIO_H

#include <stdio.h>
#include <stddef.h>

struct cpio {
	FILE *f;
	unsigned ino;
	int error;	/* set once a write failed */
};

void cpio_begin(struct cpio *c, FILE *f);
/* Directories are added for every missing parent of a path on the way. */
void cpio_add_dir(struct cpio *c, const char *path);
void cpio_add_data(struct cpio *c, const char *path, unsigned mode, const void *data, size_t len);
/* Add a host file; returns -1 (and says why) if it cannot be read. */
int cpio_add_file(struct cpio *c, const char *path, const char *host_path);
/* host_path at path: a file, or a directory with everything under it (modes kept). */
int cpio_add_tree(struct cpio *c, const char *path, const char *host_path);
/* Add one entry as given: mode carries the file type; no parents are added. */
void cpio_add_entry(struct cpio *c, const char *path, unsigned mode, const void *data, size_t len);
/* Writes the trailer; returns 0, or -1 if any write failed. */
int cpio_end(struct cpio *c);

/*
 * One archive member as cpio_read() hands it out. name and data point into
 * the caller's buffer; name is NUL-terminated (the format stores the NUL).
 */
struct cpio_entry {
	const char *name;
	unsigned mode;		/* type and permission bits, as stored */
	const void *data;
	size_t size;
};

/*
 * Walk the archive in buf, calling fn for every member up to the trailer.
 * Returns 0, fn's first nonzero return, or -EINVAL if the archive is
 * malformed (bad magic or hex, a name without its NUL, sizes that run past
 * the end, no trailer).
 */
int cpio_read(const void *buf, size_t len,
	      int (*fn)(void *arg, const struct cpio_entry *e), void *arg);

#endif
