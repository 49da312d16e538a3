/*
 * stat [-c FORMAT] FILE...: file status, in GNU stat's default layout or
 * as FORMAT (one line per file) with GNU's sequences:
 *   %n name   %s size   %b blocks of %B (512) bytes   %o I/O block size
 *   %a/%A permissions, octal/ls-style   %f raw mode (hex)   %F file type
 *   %h links   %i inode   %d/%D device   %u/%U %g/%G owner (0, root)
 *   %x/%y/%z and %X/%Y/%Z access/modify/change time, text/seconds
 *   %w/%W birth time ("-"/0: not kept)   %% a percent sign   others: ?
 * The file system keeps one time (modification, since boot: sh_time.h),
 * so access and change times are that too. Links are followed.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>
#include <kernel/shell/sh_time.h>
#include <kernel/time.h>

#define STAT_DEFAULT \
	"  File: %n\n" \
	"  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" \
	"Device: %Dh/%dd\tInode: %-11i Links: %h\n" \
	"Access: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n" \
	"Access: %x\nModify: %y\nChange: %z\n Birth: %w"

static const char *type_name(enum sh_ftype t)
{
	switch (t) {
	case SH_FT_DIR: return "directory";
	case SH_FT_CHR: return "character special file";
	case SH_FT_FIFO: return "fifo";
	case SH_FT_LNK: return "symbolic link";
	case SH_FT_REG: return "regular file";
	default: return "unknown";
	}
}

/* st_mode's file type bits, as Linux has them. */
static unsigned int type_bits(enum sh_ftype t)
{
	switch (t) {
	case SH_FT_DIR: return 0040000;
	case SH_FT_CHR: return 0020000;
	case SH_FT_FIFO: return 0010000;
	case SH_FT_LNK: return 0120000;
	default: return 0100000;
	}
}

/* One sequence: conv with the printf flags and width in spec ("%-10"). */
static void put_field(struct sh_buf *b, const char *spec, size_t speclen, char conv,
		      const char *name, const struct sh_stat *st)
{
	char fmt[24], mode[11], base = 'u';
	struct sh_buf t = { 0 };
	unsigned long n = 0;
	bool number = true;

	switch (conv) {
	case 's': n = (unsigned long)st->size; break;
	case 'b': n = (unsigned long)((st->size + 511) / 512); break;
	case 'B': n = 512; break;
	case 'o': n = 4096; break;
	case 'a': n = st->mode & 07777; base = 'o'; break;
	case 'f': n = type_bits(st->type) | st->mode; base = 'x'; break;
	case 'h': n = st->nlink; break;
	case 'i': n = (unsigned long)st->ino; break;
	case 'd': case 'u': case 'g': case 'W': break;
	case 'D': base = 'x'; break;
	case 'X': case 'Y': case 'Z': n = (unsigned long)(st->mtime_ns / NSEC_PER_SEC); break;
	default:
		number = false;
		break;
	}
	switch (number ? 0 : conv) {
	case 0: break;
	case 'n': sh_buf_puts(&t, name); break;
	case 'A': sh_mode_string(st, mode); sh_buf_puts(&t, mode); break;
	case 'F': sh_buf_puts(&t, type_name(st->type)); break;
	case 'U': case 'G': sh_buf_puts(&t, "root"); break;
	case 'x': case 'y': case 'z': sh_strftime(&t, "%Y-%m-%d %H:%M:%S.%N %z", st->mtime_ns); break;
	case 'w': sh_buf_puts(&t, "-"); break;
	default:
		/* Not a sequence stat knows: GNU stat prints a question mark. */
		sh_buf_putc(b, '?');
		return;
	}
	if (number) {
		snprintf(fmt, sizeof(fmt), "%.*sl%c", (int)speclen, spec, base);
		sh_buf_printf(b, fmt, n);
	} else {
		snprintf(fmt, sizeof(fmt), "%.*ss", (int)speclen, spec);
		sh_buf_printf(b, fmt, t.s ? t.s : "");
	}
	sh_buf_free(&t);
}

static void format(struct sh_buf *b, const char *f, const char *name, const struct sh_stat *st)
{
	while (*f) {
		const char *spec = f;

		if (*f != '%' || !f[1]) {
			sh_buf_putc(b, *f++);
			continue;
		}
		if (f[1] == '%') {
			sh_buf_putc(b, '%');
			f += 2;
			continue;
		}
		f++;
		f += strspn(f, "-0 +#");
		while (sh_isdigit(*f) && f - spec < 12)
			f++;
		if (!*f) {
			sh_buf_puts(b, spec);
			return;
		}
		put_field(b, spec, (size_t)(f - spec), *f, name, st);
		f++;
	}
}

int cmd_stat(int argc, char **argv, char **envp)
{
	const char *fmt = STAT_DEFAULT;
	struct sh_getopt g = { 0 };
	struct sh_out o;
	int c, status = 0;

	while ((c = sh_getopt(&g, argc, argv, "Lc:")) != -1) {
		if (c == '?')
			return 1;
		if (c == 'c')
			fmt = g.arg;
	}
	if (g.ind == argc) {
		sh_eprintf("stat: missing operand\nstat: usage: stat [-c FORMAT] FILE...\n");
		return 1;
	}
	out_init(&o, 1);
	for (int i = g.ind; i < argc; i++) {
		struct sh_buf b = { 0 };
		struct sh_stat st;
		int err = sh_os->stat(argv[i], &st);

		if (err) {
			sh_eprintf("stat: cannot stat '%s': %s\n", argv[i], errno_text(-err));
			status = 1;
			continue;
		}
		format(&b, fmt, argv[i], &st);
		sh_buf_putc(&b, '\n');
		if (b.oom) {
			sh_eprintf("stat: %s\n", errno_text(ENOMEM));
			status = 1;
		} else {
			out_put(&o, b.s, b.len);
		}
		sh_buf_free(&b);
	}
	return out_finish(&o, "stat", status);
}
