/* A throw-away GRUB image for `spoor exec --iso`. */
#ifndef HOST_TOOLS_ISO_H
#define HOST_TOOLS_ISO_H

/*
 * Build a GRUB rescue image (grub-mkrescue) that boots kernel by multiboot2
 * with cmdline and initrd as its module, the way images/grub.cfg boots the
 * standard spoor.iso. Returns the image's path (malloc'd, in $TMPDIR; the
 * caller removes it) or NULL after saying why.
 */
char *iso_build(const char *kernel, const char *initrd, const char *cmdline);

#endif
