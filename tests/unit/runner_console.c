/*
 * Unit tests of the exec console scanner: protocol lines, \r, panics, the
 * stderr framing, any split of the stream.
 */
/* uses: host-tools/console.c */
#include <criterion/criterion.h>
#include <string.h>
#include "host-tools/console.h"

/*
 * What the scanner emitted: each stream, and both in order with each run
 * of stderr bytes as {...} however many emits it took.
 */
struct shown {
	char out[8192], err[8192], both[16384];
	size_t nout, nerr, nboth;
	unsigned int emits;
	bool in_err;		/* both ends inside a {...} not closed yet */
};

static void collect(void *ctx, enum console_stream stream, const char *s, size_t n)
{
	struct shown *sh = ctx;

	cr_assert_gt(n, 0, "an empty emit");
	sh->emits++;
	if (stream == CONSOLE_STDERR) {
		memcpy(sh->err + sh->nerr, s, n);
		sh->nerr += n;
		if (!sh->in_err)
			sh->both[sh->nboth++] = '{';
	} else {
		cr_assert_eq(stream, CONSOLE_STDOUT);
		memcpy(sh->out + sh->nout, s, n);
		sh->nout += n;
		if (sh->in_err)
			sh->both[sh->nboth++] = '}';
	}
	sh->in_err = stream == CONSOLE_STDERR;
	memcpy(sh->both + sh->nboth, s, n);
	sh->nboth += n;
	sh->out[sh->nout] = sh->err[sh->nerr] = sh->both[sh->nboth] = '\0';
}

/* Feed n bytes of in in chunks of at most chunk bytes, then finish. */
static void scan_n(struct console *c, struct shown *sh, const char *in, size_t n, size_t chunk)
{
	memset(sh, 0, sizeof(*sh));
	for (size_t i = 0; i < n; i += chunk)
		console_feed(c, in + i, n - i < chunk ? n - i : chunk);
	console_finish(c);
}

/* The scanner's stdout for a stream fed in chunks of at most chunk bytes. */
static void scan(struct console *c, struct shown *sh, const char *in, size_t chunk)
{
	console_init(c, collect, sh);
	scan_n(c, sh, in, strlen(in), chunk);
}

static void expect_chunked(const char *in, size_t chunk,
			   const char *shown, bool started, int status, bool panic)
{
	static struct shown sh;
	struct console c;

	scan(&c, &sh, in, chunk);
	cr_assert_str_eq(sh.out, shown, "chunk %zu: shown '%s'", chunk, sh.out);
	cr_assert_str_eq(sh.err, "", "chunk %zu", chunk);
	cr_assert_eq(c.started, started, "chunk %zu", chunk);
	cr_assert_eq(c.status, status, "chunk %zu", chunk);
	cr_assert_eq(c.panic, panic, "chunk %zu", chunk);
}

/* Small chunks (every split of a protocol line) must agree with the whole stream. */
static void expect(const char *in, const char *shown, bool started, int status, bool panic)
{
	for (size_t chunk = 1; chunk <= 40; chunk++)
		expect_chunked(in, chunk, shown, started, status, panic);
	expect_chunked(in, strlen(in) + 1, shown, started, status, panic);
}

Test(console, status_line_hidden_and_parsed)
{
	expect("hello\nspoor-exec: status 3\n", "hello\n", false, 3, false);
	expect("spoor-exec: start\nok 1 - x\nspoor-exec: status 0\nbye\n",
	       "ok 1 - x\nbye\n", true, 0, false);
	expect("spoor-exec: status 255\n", "", false, 255, false);
}

Test(console, carriage_returns_dropped_everywhere)
{
	expect("a\r\nb\rc\r\nspoor-exec: st\ratus 7\r\n", "a\nbc\n", false, 7, false);
	expect("\r\r\n", "\n", false, -1, false);
}

Test(console, near_misses_are_shown_byte_exact)
{
	expect("spoor-exec: status 256\n", "spoor-exec: status 256\n", false, -1, false);
	expect("spoor-exec: status \n", "spoor-exec: status \n", false, -1, false);
	expect("spoor-exec: status 1x\n", "spoor-exec: status 1x\n", false, -1, false);
	expect("spoor-exec: status 1234\n", "spoor-exec: status 1234\n", false, -1, false);
	expect("spoor-exec: started\n", "spoor-exec: started\n", false, -1, false);
	expect(" spoor-exec: status 0\n", " spoor-exec: status 0\n", false, -1, false);
	expect("spoor\n", "spoor\n", false, -1, false);
	expect("echo spoor-exec: status 0\n", "echo spoor-exec: status 0\n", false, -1, false);
}

Test(console, partial_line_released_at_end)
{
	expect("# ", "# ", false, -1, false);
	expect("spoor-exec: sta", "spoor-exec: sta", false, -1, false);
	/* A status line needs its newline: a cut-off one is not a result. */
	expect("spoor-exec: status 4", "spoor-exec: status 4", false, -1, false);
}

Test(console, last_status_wins)
{
	expect("spoor-exec: status 1\nspoor-exec: status 2\n", "", false, 2, false);
}

Test(console, panic_seen_after_timestamp_and_shown)
{
	const char *p = "[    1.5] Kernel panic - not syncing: Attempted to kill init!\n";

	expect(p, p, false, -1, true);
	/* Without the newline, at the end of the stream. */
	expect("Kernel panic - not syncing", "Kernel panic - not syncing", false, -1, true);
	expect("kernel panic - not syncing\n", "kernel panic - not syncing\n", false, -1, false);
}

Test(console, prompt_without_newline_passes_at_once)
{
	struct console c;
	struct shown sh = { 0 };

	console_init(&c, collect, &sh);
	console_feed(&c, "/sys/kernel/tracing # ", 22);
	cr_assert_str_eq(sh.out, "/sys/kernel/tracing # ");
	/* A held prefix is not shown until it stops looking like a protocol line. */
	memset(&sh, 0, sizeof(sh));
	console_init(&c, collect, &sh);
	console_feed(&c, "spoor-exec", 10);
	cr_assert_eq(sh.nout, 0);
	console_feed(&c, "!", 1);
	cr_assert_str_eq(sh.out, "spoor-exec!");
}

Test(console, long_lines_and_binary_bytes)
{
	static char in[4096], want[4096];
	const char *panic = "Kernel panic - not syncing: x\n";
	size_t n = 0;

	for (int i = 0; i < 3000; i++)
		in[n++] = (char)('a' + i % 26);
	in[n++] = 1;
	in[n++] = (char)0xff;
	in[n++] = '\n';
	memcpy(in + n, panic, strlen(panic) + 1);
	memcpy(want, in, n + strlen(panic) + 1);
	/* The long line does not swallow the line after it. */
	expect(in, want, false, -1, true);
}

Test(console, quiet_drops_the_boot_log_up_to_the_start_line)
{
	static struct shown sh;
	const char *in = "[ 0.1] booting\r\nSpoor ready\r\nspoor-exec: start\r\nhello\r\n"
			 "\x10" "2oops\r\n\x10" "1spoor-exec: status 0\r\n";

	for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
		struct console c;

		console_init(&c, collect, &sh);
		c.quiet = true;
		scan_n(&c, &sh, in, strlen(in), chunk);
		cr_assert_str_eq(sh.out, "hello\n", "chunk %zu", chunk);
		cr_assert_str_eq(sh.err, "oops\n", "chunk %zu", chunk);
		cr_assert_eq(c.status, 0);
	}
}

/* Every split of a framed stream: each stream's bytes, and both in the guest's order. */
static void expect_framed(const char *in, size_t n, const char *out, const char *err,
			  const char *both, int status)
{
	static struct shown sh;

	for (size_t chunk = 1; chunk <= n; chunk++) {
		struct console c;

		console_init(&c, collect, &sh);
		scan_n(&c, &sh, in, n, chunk);
		if (sh.in_err)
			strcat(sh.both, "}");
		cr_assert_eq(sh.nout, strlen(out), "chunk %zu: stdout '%s'", chunk, sh.out);
		cr_assert_eq(memcmp(sh.out, out, sh.nout), 0, "chunk %zu: stdout '%s'", chunk, sh.out);
		cr_assert_eq(sh.nerr, strlen(err), "chunk %zu: stderr '%s'", chunk, sh.err);
		cr_assert_eq(memcmp(sh.err, err, sh.nerr), 0, "chunk %zu: stderr '%s'", chunk, sh.err);
		cr_assert_str_eq(sh.both, both, "chunk %zu", chunk);
		cr_assert_eq(c.status, status, "chunk %zu", chunk);
	}
}

#define FRAMED(s)	s, sizeof(s) - 1

Test(console, stderr_frames_apart_from_stdout_in_order)
{
	expect_framed(FRAMED("spoor-exec: start\r\nout1\r\n\x10" "2err1\r\n\x10" "1out2\r\n"
			     "spoor-exec: status 3\r\n"),
		      "out1\nout2\n", "err1\n", "out1\n{err1\n}out2\n", 3);
	/* Mid-line switches, a switch to the stream already on, and one that is never used. */
	expect_framed(FRAMED("a\x10" "2b\x10" "2c\x10" "1d\n\x10" "2\x10" "1e\n"),
		      "ad\ne\n", "bc", "a{bc}d\ne\n", -1);
}

Test(console, stderr_never_holds_a_protocol_line)
{
	/* Only stdout carries the protocol: the same text on stderr is data. */
	expect_framed(FRAMED("\x10" "2spoor-exec: status 9\n\x10" "1spoor-exec: status 4\n"),
		      "", "spoor-exec: status 9\n", "{spoor-exec: status 9\n}", 4);
	/* A held stdout prefix waits across stderr bytes and still ends as a status line. */
	expect_framed(FRAMED("spoor-exec: st\x10" "2x\x10" "1atus 5\n"), "", "x", "{x}", 5);
}

Test(console, escape_bytes_of_data)
{
	/* ESC ESC is one ESC, on either stream; a lone ESC (an unframed guest) is shown. */
	expect_framed(FRAMED("a\x10\x10" "b\x10" "2c\x10\x10\n"), "a\x10" "b", "c\x10\n",
		      "a\x10" "b{c\x10\n}", -1);
	expect_framed(FRAMED("x\x10y\n"), "x\x10y\n", "", "x\x10y\n", -1);
	expect_framed(FRAMED("end\x10"), "end\x10", "", "end\x10", -1);
}

Test(console, one_emit_per_run_of_a_stream)
{
	struct console c;
	static struct shown sh;
	const char in[] = "hello there\n\x10" "2and here\n\x10" "1back\n";

	console_init(&c, collect, &sh);
	scan_n(&c, &sh, in, sizeof(in) - 1, sizeof(in));
	cr_expect_eq(sh.emits, 3);
}
