/*
 * Where a stuck guest's CPUs are, asked of QEMU's human monitor (HMP) on a
 * Unix socket: `spoor exec` prints it when a run times out, so a hang seen
 * once in CI names its functions without a second run. The guest is not
 * asked anything: a CPU spinning with interrupts off or holding the console
 * lock answers as well as an idle one. Each CPU's registers come from
 * `info registers -a`; its kernel stack is walked through the frame
 * pointers (the kernel keeps them) with `cpu N` and `x/2gx`, and addresses
 * are named from the kernel image's symbol table (`nm -n`). Then the guest
 * runs on with an NMI on every CPU: one nobody claims makes the kernel print
 * every task's state and where it sleeps (kernel/sched/show_state.c), which
 * is what shows a lost wake-up, where every CPU is idle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "qemu.h"
#include "spoor.h"

#define MON_PROMPT	"(qemu) "
#define MON_WAIT_MS	5000	/* one answer; a monitor stuck longer is given up */
#define MAX_FRAMES	16
#define KERNEL_BASE	0xffff800000000000ull

/* The kernel's text symbols, sorted by address: enough for name+offset. */
struct ksyms {
	uint64_t *addr;
	char **name;
	size_t n;
};

static void ksyms_load(struct ksyms *s, const char *kernel)
{
	char *cmd, line[512], name[256], type;
	size_t cap = 0;
	uint64_t a;
	FILE *p;

	memset(s, 0, sizeof(*s));
	if (asprintf(&cmd, "nm -n '%s' 2>/dev/null", kernel) < 0)
		return;
	p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3 ||
		    !strchr("tTwW", type))
			continue;
		if (s->n == cap) {
			cap = cap * 2 + 1024;
			s->addr = realloc(s->addr, cap * sizeof(*s->addr));
			s->name = realloc(s->name, cap * sizeof(*s->name));
			if (!s->addr || !s->name)
				break;
		}
		s->addr[s->n] = a;
		s->name[s->n++] = strdup(name);
	}
	pclose(p);
}

static void ksyms_free(struct ksyms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->addr);
	free(s->name);
}

/* "name+0xoff" for addr, or the bare address when no symbol holds it. */
static void ksyms_format(const struct ksyms *s, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = s->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->addr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (s->n && s->addr[lo] <= addr && addr >= KERNEL_BASE)
		snprintf(buf, len, "%016" PRIx64 " %s+0x%" PRIx64, addr, s->name[lo], addr - s->addr[lo]);
	else
		snprintf(buf, len, "%016" PRIx64, addr);
}

/* One monitor connection: what it has said since the last command. */
struct monitor {
	int fd;
	char *buf;
	size_t len, cap;
};

/* Read until the prompt ends the answer; 0, or -1 if the monitor went quiet or away. */
static int mon_answer(struct monitor *m)
{
	m->len = 0;
	for (;;) {
		struct pollfd pfd = { .fd = m->fd, .events = POLLIN };
		ssize_t n;

		if (m->len >= strlen(MON_PROMPT) &&
		    !memcmp(m->buf + m->len - strlen(MON_PROMPT), MON_PROMPT, strlen(MON_PROMPT)))
			return 0;
		if (m->cap - m->len < 4096) {
			char *b = realloc(m->buf, m->cap = m->cap * 2 + 8192);

			if (!b)
				return -1;
			m->buf = b;
		}
		if (poll(&pfd, 1, MON_WAIT_MS) <= 0)
			return -1;
		n = read(m->fd, m->buf + m->len, m->cap - m->len - 1);
		if (n <= 0)
			return -1;
		m->len += (size_t)n;
		m->buf[m->len] = '\0';
	}
}

static int mon_command(struct monitor *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int mon_command(struct monitor *m, const char *fmt, ...)
{
	char cmd[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (write(m->fd, cmd, (size_t)n) != n)
		return -1;
	return mon_answer(m);
}

/* The hex value after "KEY=" in text (up to lim), or 0 when it is not there. */
static uint64_t reg_value(const char *text, const char *lim, const char *key)
{
	const char *p = strstr(text, key);

	return p && p < lim ? strtoull(p + strlen(key), NULL, 16) : 0;
}

/*
 * Walk a kernel stack from rbp: each frame holds the caller's rbp, then the
 * return address. Frames go up the stack; anything else ends the walk.
 */
static void walk_stack(struct monitor *m, const struct ksyms *s, int cpu, uint64_t rbp, FILE *out)
{
	char where[320];

	if (mon_command(m, "cpu %d\n", cpu) < 0)
		return;
	for (int i = 0; i < MAX_FRAMES && rbp >= KERNEL_BASE; i++) {
		uint64_t next, ret;
		char *p;

		if (mon_command(m, "x/2gx 0x%" PRIx64 "\n", rbp) < 0 ||
		    !(p = strstr(m->buf, ": 0x")) ||
		    sscanf(p, ": 0x%" SCNx64 " 0x%" SCNx64, &next, &ret) != 2 || ret < KERNEL_BASE)
			return;
		ksyms_format(s, ret, where, sizeof(where));
		fprintf(out, "exec:     <- %s\n", where);
		if (next <= rbp)
			return;
		rbp = next;
	}
}

void qemu_monitor_report(const char *sock, const char *kernel, FILE *out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct monitor m = { .fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) };
	struct ksyms s;
	char *regs = NULL, *cpu, *end;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (m.fd < 0 || connect(m.fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    mon_answer(&m) < 0 || mon_command(&m, "stop\n") < 0 ||
	    mon_command(&m, "info registers -a\n") < 0 || !(regs = strdup(m.buf))) {
		fprintf(out, "exec: QEMU's monitor did not answer (%s)\n", strerror(errno));
		goto out;
	}
	ksyms_load(&s, kernel);
	fprintf(out, "exec: where the guest's CPUs were:\n");
	for (cpu = strstr(regs, "CPU#"); cpu; cpu = end) {
		int nr = atoi(cpu + 4);
		uint64_t rip, rfl;
		char where[320];
		const char *cpl, *lim;

		end = strstr(cpu + 4, "CPU#");
		lim = end ? end : cpu + strlen(cpu);
		rip = reg_value(cpu, lim, "RIP=");
		rfl = reg_value(cpu, lim, "RFL=");
		cpl = strstr(cpu, "CPL=");
		ksyms_format(&s, rip, where, sizeof(where));
		fprintf(out, "exec:   CPU %d: %s (ring %c, irqs %s%s)\n", nr, where,
			cpl && cpl < lim ? cpl[4] : '?', rfl & 0x200 ? "on" : "off",
			reg_value(cpu, lim, "HLT=") ? ", halted" : "");
		if (rip >= KERNEL_BASE)
			walk_stack(&m, &s, nr, reg_value(cpu, lim, "RBP="), out);
	}
	ksyms_free(&s);
	if (mon_command(&m, "cont\n") == 0 && mon_command(&m, "nmi\n") == 0)
		fprintf(out, "exec: sent an NMI: the guest's task states follow on its console\n");
out:
	free(regs);
	free(m.buf);
	if (m.fd >= 0)
		close(m.fd);
}
