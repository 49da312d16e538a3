/* Writing cpio "newc" archives, the initrd format the kernel unpacks. */
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
/* Writes the trailer; returns 0, or -1 if any write failed. */
int cpio_end(struct cpio *c);

#endif
