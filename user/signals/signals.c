/*
 * signals: one check per line, "NAME: ok" or "NAME: FAIL (why)", then a
 * summary; exits with the number of failures. Covers what a libc and a
 * shell need from signal delivery: SA_SIGINFO contents, the return through
 * sigreturn with the interrupted state intact (also FPU state under
 * asynchronous timer signals), blocking and pending signals, an alternate
 * signal stack, alarm/setitimer with pause, raise (tkill), SIGCHLD.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

static void report(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("%s: ok\n", name);
	} else {
		printf("%s: FAIL (%s)\n", name, why);
		failures++;
	}
}

/* What the last SA_SIGINFO handler saw. */
static volatile sig_atomic_t got_signo, got_code, got_pid, got_count, got_ctx;
static void *volatile got_stack;

static void info_handler(int sig, siginfo_t *si, void *uc)
{
	int local;

	got_signo = si->si_signo;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_ctx = uc != NULL;
	got_stack = &local;
	got_count++;
}

static void on(int sig, void (*h)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0) {
		perror("sigaction");
		exit(100);
	}
}

/* kill(getpid()): delivered before kill returns, si_code SI_USER, our pid. */
static void test_siginfo(void)
{
	volatile long before = 0x1234567890abcdefL;

	on(SIGUSR1, info_handler, 0);
	got_count = 0;
	kill(getpid(), SIGUSR1);
	report("siginfo", got_count == 1 && got_signo == SIGUSR1 && got_code == SI_USER &&
	       got_pid == getpid() && got_ctx, "signo/code/pid/context wrong");
	report("sigreturn", before == 0x1234567890abcdefL, "state not restored");
}

/* raise() is tkill on the calling thread: si_code SI_TKILL. */
static void test_raise(void)
{
	on(SIGUSR2, info_handler, 0);
	got_count = 0;
	raise(SIGUSR2);
	report("raise", got_count == 1 && got_signo == SIGUSR2 && got_code == SI_TKILL,
	       "not delivered as SI_TKILL");
}

/* A blocked signal stays pending and arrives once when unblocked. */
static void test_mask(void)
{
	sigset_t set, old, pend;

	on(SIGUSR1, info_handler, 0);
	got_count = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);	/* standard signals do not queue */
	sigpending(&pend);
	report("blocked", got_count == 0 && sigismember(&pend, SIGUSR1), "delivered or not pending");
	sigprocmask(SIG_SETMASK, &old, NULL);
	report("unblocked", got_count == 1, "not delivered exactly once");
}

/* SA_ONSTACK: the handler's frame is on the alternate stack. */
static void test_altstack(void)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0 };
	char *s;

	if (sigaltstack(&ss, NULL) < 0) {
		report("sigaltstack", 0, "sigaltstack failed");
		return;
	}
	on(SIGUSR1, info_handler, SA_ONSTACK);
	got_count = 0;
	kill(getpid(), SIGUSR1);
	s = got_stack;
	report("sigaltstack", got_count == 1 && s >= altstack && s < altstack + sizeof(altstack),
	       "handler not on the alternate stack");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static volatile sig_atomic_t alarms;

static void alarm_handler(int sig, siginfo_t *si, void *uc)
{
	/* Different FPU work than the interrupted loop: it must not leak into it. */
	volatile double x = 3.25;

	x = x * x / 7.0;
	alarms++;
}

/* alarm(1) then pause(): pause returns -1/EINTR after the handler ran. */
static void test_alarm(void)
{
	int r;

	on(SIGALRM, alarm_handler, 0);
	alarms = 0;
	alarm(1);
	r = pause();
	report("alarm+pause", r == -1 && alarms == 1, "pause did not end with the alarm");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A 10 ms ITIMER_REAL interrupts a floating-point loop several times; the
 * double sum must equal the integer one kept beside it, which shows the
 * FPU/SSE registers came back through sigreturn. Gives up after 3 s.
 */
static void test_itimer(void)
{
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	double sum = 0, end = now() + 3;
	long isum = 0;

	on(SIGALRM, alarm_handler, 0);
	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	for (long n = 1; alarms < 5; n++) {
		sum += (n & 1023) * 0.5;	/* partial sums stay exact */
		isum += n & 1023;
		if (!(n & 0xfffff) && now() > end)
			break;
	}
	setitimer(ITIMER_REAL, &off, NULL);
	report("setitimer", alarms >= 5, "fewer than 5 timer signals in 3 s");
	report("fpu state", sum == isum * 0.5, "sum is off");
}

static volatile sig_atomic_t chld_pid, chld_code;

static void chld_handler(int sig, siginfo_t *si, void *uc)
{
	chld_pid = si->si_pid;
	chld_code = si->si_code;
}

/* A child's exit sends SIGCHLD (CLD_EXITED, its pid); sigsuspend waits for it. */
static void test_sigchld(void)
{
	sigset_t set, old;
	int status = 0;
	pid_t pid;

	on(SIGCHLD, chld_handler, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);	/* no race between fork and sigsuspend */
	chld_pid = 0;
	pid = fork();
	if (pid == 0)
		_exit(3);
	while (chld_pid == 0)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	waitpid(pid, &status, 0);
	report("sigchld", chld_pid == pid && chld_code == CLD_EXITED &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 3, "wrong pid, code or status");
}

/* A read a handler interrupts: restarted with SA_RESTART, EINTR without. */
static int read_interrupted(int flags)
{
	int p[2];
	char c;
	ssize_t r;
	pid_t pid;

	if (pipe(p) < 0)
		return -2;
	pid = fork();
	if (pid == 0) {
		usleep(500000);
		write(p[1], "x", 1);
		_exit(0);
	}
	on(SIGALRM, alarm_handler, flags);
	ualarm(100000, 0);
	r = read(p[0], &c, 1);
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
	return r < 0 ? -errno : (int)r;
}

static void test_restart(void)
{
	report("sa_restart", read_interrupted(SA_RESTART) == 1, "read not restarted");
	report("no restart", read_interrupted(0) == -EINTR, "read did not fail with EINTR");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_siginfo();
	test_raise();
	test_mask();
	test_altstack();
	test_alarm();
	test_itimer();
	test_sigchld();
	test_restart();
	printf("signals: %d failed\n", failures);
	return failures;
}
