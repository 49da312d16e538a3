/*
 * ping [-c COUNT] [-i INTERVAL] [-q] HOST: Spoor has no network, but
 * Linux's ftrace selftests use `ping $LOCALHOST -c 3` as their source of
 * wake-ups (a task named ping that sleeps and is woken). This ping answers
 * for the loopback addresses only: each "echo request" is a sleep the timer
 * ends, each "reply" a line in iputils' layout. Any other host is
 * unreachable, as on a machine with only lo up.
 */
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/cmds/cmds.h>
#include <kernel/shell/sh_io.h>
#include <kernel/shell/sh_util.h>

/* How long the loopback "round trip" takes: one short sleep, so the timer wakes ping. */
#define PING_RTT_NS	100000ULL

static bool is_loopback(const char *host)
{
	return !strncmp(host, "127.", 4) || !strcmp(host, "localhost") || !strcmp(host, "::1") ||
	       !strcmp(host, "ip6-localhost");
}

int cmd_ping(int argc, char **argv, char **envp)
{
	struct sh_getopt g = { .permute = true };
	long long count = -1;
	u64 interval = 1000000000ULL, start, rtt_sum = 0, rtt_min = ~0ULL, rtt_max = 0;
	bool quiet = false;
	struct sh_out o;
	long long sent = 0;
	const char *host, *addr;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "c:i:qW:w:")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'c' && (sh_parse_int(g.arg, &count) || count <= 0)) {
			sh_eprintf("ping: invalid argument: '%s'\n", g.arg);
			return 1;
		}
		if (c == 'i' && sh_parse_seconds(g.arg, &interval)) {
			sh_eprintf("ping: invalid argument: '%s'\n", g.arg);
			return 1;
		}
		if (c == 'q')
			quiet = true;
	}
	if (g.ind != argc - 1) {
		sh_eprintf("usage: ping [-c COUNT] [-i INTERVAL] [-q] HOST\n");
		return 2;
	}
	host = argv[g.ind];
	if (!is_loopback(host)) {
		sh_eprintf("ping: connect: Network is unreachable\n");
		return 2;
	}
	addr = strchr(host, ':') || !strcmp(host, "ip6-localhost") ? "::1" : !strcmp(host, "localhost") ? "127.0.0.1" : host;
	out_init(&o, 1);
	out_printf(&o, "PING %s (%s) 56(84) bytes of data.\n", host, addr);
	out_flush(&o);
	start = sh_os->now_ns();
	while (count < 0 || sent < count) {
		u64 t0, rtt;

		if (sent && sh_os->sleep_ns(interval) == -EINTR)
			break;
		t0 = sh_os->now_ns();
		if (sh_os->sleep_ns(PING_RTT_NS) == -EINTR)
			break;
		rtt = sh_os->now_ns() - t0;
		rtt_sum += rtt;
		rtt_min = min(rtt_min, rtt);
		rtt_max = max(rtt_max, rtt);
		sent++;
		if (!quiet) {
			out_printf(&o, "64 bytes from %s: icmp_seq=%lld ttl=64 time=%lu.%03lu ms\n", addr,
				   sent, (unsigned long)(rtt / 1000000), (unsigned long)(rtt / 1000 % 1000));
			out_flush(&o);
		}
	}
	out_printf(&o, "\n--- %s ping statistics ---\n", host);
	out_printf(&o, "%lld packets transmitted, %lld received, 0%% packet loss, time %lums\n",
		   sent, sent, (unsigned long)((sh_os->now_ns() - start) / 1000000));
	if (sent) {
		u64 avg = rtt_sum / (u64)sent;

		/* mdev is not kept: the loopback "network" has no jitter worth reporting. */
		out_printf(&o, "rtt min/avg/max = %lu.%03lu/%lu.%03lu/%lu.%03lu ms\n",
			   (unsigned long)(rtt_min / 1000000), (unsigned long)(rtt_min / 1000 % 1000),
			   (unsigned long)(avg / 1000000), (unsigned long)(avg / 1000 % 1000),
			   (unsigned long)(rtt_max / 1000000), (unsigned long)(rtt_max / 1000 % 1000));
	}
	return out_finish(&o, "ping", sent ? 0 : 1);
}
