/*
 * The interactive console end to end, as a person at `spoor boot` meets
 * it: keys go in through QEMU's COM1 (the UART's receive interrupt), and
 * each step waits for what the guest echoes before typing on. The ready
 * line and the prompt, Ctrl-C stopping a command (^C echoed, status 130,
 * long before the command would end), Tab completing a tracefs path, ls
 * in columns on the terminal but one name a line into a pipe, cursor keys,
 * clear, poweroff. Needs the build's spoor and spoor.elf next to this
 * test's directory and QEMU; skipped when one is missing.
 */
/* needs: guest */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "tests/unit/guest_run.h"

#define PROMPT	"/sys/kernel/tracing # "

/* A guest on the other end of two pipes, and what it printed so far. */
struct guest {
	pid_t pid;
	int in, out;
	char seen[1 << 16];
	size_t len, mark;	/* mark: where the next wait starts looking */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void start(struct guest *g)
{
	int to[2], from[2];
	char spoor[PATH_MAX + 16];

	cr_assert_eq(pipe(to), 0);
	cr_assert_eq(pipe(from), 0);
	snprintf(spoor, sizeof(spoor), "%s/spoor", build);
	g->pid = fork();
	if (g->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		dup2(from[1], 2);
		close(to[1]);
		close(from[0]);
		execl(spoor, "spoor", "boot", "--smp", "2", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	g->in = to[1];
	g->out = from[0];
	g->len = g->mark = 0;
}

/* Read until text shows up after the mark (the mark then moves past it); false on timeout. */
static bool wait_for(struct guest *g, const char *text, double seconds)
{
	double end = now() + seconds;

	for (;;) {
		struct pollfd p = { .fd = g->out, .events = POLLIN };
		char *at;
		ssize_t n;

		g->seen[g->len] = 0;
		at = strstr(g->seen + g->mark, text);
		if (at) {
			g->mark = (size_t)(at - g->seen) + strlen(text);
			return true;
		}
		if (now() >= end || g->len >= sizeof(g->seen) - 1)
			return false;
		if (poll(&p, 1, (int)((end - now()) * 1000) + 1) <= 0)
			continue;
		n = read(g->out, g->seen + g->len, sizeof(g->seen) - 1 - g->len);
		if (n <= 0)
			return false;
		/* Kept without the terminal's carriage returns. */
		for (char *p = g->seen + g->len, *end = p + n; p < end; p++)
			if (*p != '\r')
				g->seen[g->len++] = *p;
	}
}

static void type(struct guest *g, const char *keys)
{
	cr_assert_eq(write(g->in, keys, strlen(keys)), (ssize_t)strlen(keys));
}

/* What the guest printed from one mark to the current one. */
static char *since(const struct guest *g, size_t from)
{
	return strndup(g->seen + from, g->mark - from);
}

/* How many blank-separated words line l holds. */
static int words(const char *l)
{
	int n = 0;

	for (; *l; l++)
		n += *l != ' ' && (l[1] == ' ' || !l[1]);
	return n;
}

Test(console_interactive, a_session_at_the_prompt, .timeout = 180)
{
	struct guest g;
	size_t from;
	double t0;
	char *s;
	int status;

	if (!find_build("qemu-system-x86_64"))
		cr_skip_test("needs the build's spoor and spoor.elf, and QEMU");
	start(&g);
	cr_assert(wait_for(&g, "Spoor ready in ", 60), "no ready line:\n%s", g.seen);
	cr_assert(wait_for(&g, PROMPT, 30), "no prompt:\n%s", g.seen);

	/*
	 * Ctrl-C: the foreground command ends at once, the terminal shows ^C.
	 * "go" is printed once the shell runs the line (Ctrl-C is the shell's
	 * from then on, not input for the line editor).
	 */
	type(&g, "echo go; sleep 30\r");
	cr_assert(wait_for(&g, "\ngo\n", 10), "%s", g.seen + g.mark);
	t0 = now();
	type(&g, "\x03");
	cr_assert(wait_for(&g, "^C", 10), "no ^C echo:\n%s", g.seen + g.mark);
	cr_assert(wait_for(&g, PROMPT, 10), "no prompt after Ctrl-C:\n%s", g.seen);
	cr_expect_lt(now() - t0, 10, "Ctrl-C took %.1f s", now() - t0);
	type(&g, "echo status=$?\r");
	cr_expect(wait_for(&g, "status=130", 10), "%s", g.seen + g.mark);
	cr_assert(wait_for(&g, PROMPT, 10));

	/* Tab completes a unique prefix, with the / of a directory; ls fills columns. */
	from = g.mark;
	type(&g, "ls /sys/kernel/tracing/eve\t\r");
	cr_expect(wait_for(&g, "ls /sys/kernel/tracing/events/", 10), "no completion:\n%s",
		  g.seen + from);
	cr_assert(wait_for(&g, PROMPT, 10));
	s = since(&g, from);
	{
		/* On the terminal: the line with "enable" carries other names beside it. */
		bool two = false;

		for (char *l = strtok(s, "\n"); l; l = strtok(NULL, "\n"))
			two |= strstr(l, "enable") && words(l) > 1;
		cr_expect(two, "ls printed no columns on the terminal");
	}
	free(s);
	/* Into a pipe: one name a line. */
	type(&g, "ls /sys/kernel/tracing/events | head -n 2\r");
	cr_assert(wait_for(&g, "head -n 2\n", 10));
	from = g.mark;
	cr_assert(wait_for(&g, PROMPT, 10));
	s = since(&g, from);
	cr_expect_str_eq(s, "enable\nexceptions\n" PROMPT);
	free(s);

	/* Cursor keys: Left twice and an insertion; Home and an insertion at the start. */
	type(&g, "cho wrd\x1b[D\x1b[Do\x1b[He\r");
	cr_expect(wait_for(&g, "\nword", 10), "edited line:\n%s", g.seen + g.mark);
	cr_assert(wait_for(&g, PROMPT, 10));

	/* clear: the VT100 home and erase-screen sequence. */
	type(&g, "clear\r");
	cr_expect(wait_for(&g, "\x1b[H\x1b[2J\x1b[3J", 10), "%s", g.seen + g.mark);
	cr_assert(wait_for(&g, PROMPT, 10));

	type(&g, "poweroff\r");
	close(g.in);
	cr_expect_eq(waitpid(g.pid, &status, 0), g.pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "spoor boot: status %#x", status);
	close(g.out);
}
