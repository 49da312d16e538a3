/*
 * How `spoor exec` tells the guest's stdout from its stderr on the one
 * console line (docs/DESIGN.md, "The guest/runner protocol"). Under
 * spoor.exec the kernel frames what it writes to COM1: ESC followed by
 * CONSOLE_FRAME_STDOUT or CONSOLE_FRAME_STDERR switches the stream the
 * bytes after it belong to, and ESC ESC is one ESC byte of data. Output
 * starts as stdout. Shared by the kernel (kernel/console.c) and the
 * runner (host-tools/console.c); no includes, so both can use it.
 */
#ifndef KERNEL_CONSOLE_FRAME_H
#define KERNEL_CONSOLE_FRAME_H

#define CONSOLE_FRAME_ESC	0x10	/* DLE, "data link escape" */
#define CONSOLE_FRAME_STDOUT	'1'
#define CONSOLE_FRAME_STDERR	'2'

/* The streams, numbered as the file descriptors they stand for. */
enum console_stream {
	CONSOLE_STDOUT = 1,
	CONSOLE_STDERR = 2,
};

#endif
