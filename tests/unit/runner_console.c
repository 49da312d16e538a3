/* Unit tests of the exec console scanner: protocol lines, \r, panics, any split of the stream. */
/* uses: host-tools/console.c */
#include <criterion/criterion.h>
#include <string.h>
#include "host-tools/console.h"

/* The scanner's output for a stream fed in chunks of at most chunk bytes. */
static size_t scan(struct console *c, const char *in, size_t chunk, char *out)
{
	size_t n = strlen(in), o = 0;

	console_init(c);
	for (size_t i = 0; i < n; i += chunk)
		o += console_feed(c, in + i, n - i < chunk ? n - i : chunk, out + o);
	o += console_finish(c, out + o);
	out[o] = '\0';
	return o;
}

static void expect_chunked(const char *in, size_t chunk,
			   const char *shown, bool started, int status, bool panic)
{
	static char out[8192];
	struct console c;

	scan(&c, in, chunk, out);
	cr_assert_str_eq(out, shown, "chunk %zu: shown '%s'", chunk, out);
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
	char out[256];

	console_init(&c);
	cr_assert_eq(console_feed(&c, "/sys/kernel/tracing # ", 22, out), 22);
	cr_assert_eq(memcmp(out, "/sys/kernel/tracing # ", 22), 0);
	/* A held prefix is not shown until it stops looking like a protocol line. */
	console_init(&c);
	cr_assert_eq(console_feed(&c, "spoor-exec", 10, out), 0);
	cr_assert_eq(console_feed(&c, "!", 1, out), 11);
	cr_assert_eq(memcmp(out, "spoor-exec!", 11), 0);
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
	static char out[8192];
	const char *in = "[ 0.1] booting\r\nSpoor ready\r\nspoor-exec: start\r\nhello\r\nspoor-exec: status 0\r\n";

	for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
		struct console c;
		size_t o = 0;

		console_init(&c);
		c.quiet = true;
		for (size_t i = 0; i < strlen(in); i += chunk)
			o += console_feed(&c, in + i, i + chunk > strlen(in) ? strlen(in) - i : chunk, out + o);
		o += console_finish(&c, out + o);
		out[o] = '\0';
		cr_assert_str_eq(out, "hello\n", "chunk %zu", chunk);
		cr_assert_eq(c.status, 0);
	}
}
