/* Backslash escapes for echo -e and printf (sh_escape.h). */
#include <kernel/shell/sh_escape.h>
#include <kernel/shell/sh.h>
#include <kernel/string.h>

bool sh_unescape(struct sh_buf *b, const char *s, bool printf_style)
{
	static const char from[] = "abefnrtv\\", to[] = "\a\b\033\f\n\r\t\v\\";

	for (; *s; s++) {
		const char *hit;

		if (*s != '\\' || !s[1]) {
			sh_buf_putc(b, *s);
			continue;
		}
		s++;
		if (*s == 'c')
			return true;
		if ((hit = strchr(from, *s))) {
			sh_buf_putc(b, to[hit - from]);
		} else if (*s == '0' || (printf_style && *s >= '1' && *s <= '7')) {
			int v = 0, n = 0, max = *s == '0' && !printf_style ? 4 : 3;

			if (*s == '0' && !printf_style)
				s++, n++;
			for (; n < max && *s >= '0' && *s <= '7'; n++, s++)
				v = v * 8 + (*s - '0');
			s--;
			sh_buf_putc(b, (char)v);
		} else {
			sh_buf_putc(b, '\\');
			sh_buf_putc(b, *s);
		}
	}
	return false;
}
