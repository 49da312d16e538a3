/*
 * clear: blank the terminal and put the cursor home, with the ANSI
 * sequences every terminal emulator knows (the console has no terminfo);
 * the scrollback goes too, as with ncurses' clear on an xterm.
 */
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>

int cmd_clear(int argc, char **argv, char **envp)
{
	static const char seq[] = "\x1b[H\x1b[2J\x1b[3J";

	return sh_write_all(1, seq, sizeof(seq) - 1) ? 1 : 0;
}
