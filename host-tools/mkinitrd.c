/*
 * spoor mkinitrd -o OUT [HOST[:GUEST]]...: the boot initrd. A file given
 * without :GUEST goes to /bin/<its basename> (the ring-3 programs).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cpio.h"
#include "spoor.h"

int cmd_mkinitrd(int argc, char **argv)
{
	const char *out = NULL;
	struct cpio c;
	FILE *f;
	int opt, rc = 0;

	static const char usage[] = "usage: spoor mkinitrd -o OUT [HOST[:GUEST]]...\n";

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(usage, stdout);
		return 0;
	}
	while ((opt = getopt(argc, argv, "o:")) != -1) {
		if (opt != 'o') {
			fputs(usage, stderr);
			return 2;
		}
		out = optarg;
	}
	if (!out) {
		spoor_err("mkinitrd: -o OUT is required");
		return 2;
	}
	f = fopen(out, "wb");
	if (!f) {
		spoor_err("mkinitrd: cannot create %s", out);
		return 1;
	}
	cpio_begin(&c, f);
	cpio_add_dir(&c, "/bin");
	cpio_add_dir(&c, "/tmp");
	for (int i = optind; i < argc; i++) {
		char guest[4096];
		char *colon = strchr(argv[i], ':');
		const char *base = strrchr(argv[i], '/');

		if (colon) {
			*colon = '\0';
			snprintf(guest, sizeof(guest), "%s", colon + 1);
		} else {
			snprintf(guest, sizeof(guest), "/bin/%s", base ? base + 1 : argv[i]);
		}
		if (cpio_add_file(&c, guest, argv[i]) < 0)
			rc = 1;
	}
	if (cpio_end(&c) < 0 || fclose(f) != 0) {
		spoor_err("mkinitrd: write to %s failed", out);
		rc = 1;
	}
	if (rc)
		remove(out);
	return rc;
}
