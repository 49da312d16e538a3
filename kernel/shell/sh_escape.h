/* Backslash escapes of echo -e, printf's format and %b. */
#ifndef KERNEL_SHELL_SH_ESCAPE_H
#define KERNEL_SHELL_SH_ESCAPE_H

#include <kernel/shell/sh_buf.h>

/*
 * Append s to b with \n \t \\ \a \b \e \f \r \v \0NNN (octal; with
 * printf_style, \NNN too) interpreted. Returns true at \c (stop output).
 */
bool sh_unescape(struct sh_buf *b, const char *s, bool printf_style);

#endif
