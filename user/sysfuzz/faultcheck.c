/*
 * sysfuzz -F [KIND]: every fault kind (or one) in every variant, one child
 * at a time, each line saying how the child ended. The same children the
 * fuzzer forks at random, here in order: a minimal reproduction for each.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sysfuzz.h"

#define FAULT_TIMEOUT_MS	3000

static const char *const variants[FAULT_VARIANTS] = { "default", "blocked", "ignored" };

/* The child's wait status, or -1 if it was still there after the timeout (then SIGKILLed). */
static int run_one(int kind, int variant)
{
	struct timespec ms = { 0, 1000000 };
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct rng r;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		rng_seed(&r, opt.seed, (uint64_t)kind * FAULT_VARIANTS + (uint64_t)variant);
		fault_run(kind, variant, &r);
	}
	if (pid < 0)
		return -2;
	for (int t = 0; t < FAULT_TIMEOUT_MS; t++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

int fault_check(int only)
{
	int bad = 0;

	for (int k = 0; k < fault_kinds(); k++) {
		/* int N: each vector on its own line */
		int reps = k == FAULT_INTN ? fault_int_vectors() : 1;

		if ((only >= 0 && k != only) || opt.fault_skip[k])
			continue;
		for (int i = 0; i < reps * FAULT_VARIANTS; i++) {
			int v = i % FAULT_VARIANTS, st, ok;

			fault_vector = k == FAULT_INTN ? i / FAULT_VARIANTS : -1;
			st = run_one(k, v);
			ok = st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == fault_signal(k);
			printf("fault %2d %-32s %-8s %s: ", k, fault_name(k), variants[v], ok ? "ok" : "BAD");
			if (fault_vector >= 0)
				printf("vector %d, ", fault_vector_number(fault_vector));
			if (st == -1)
				printf("hung (SIGKILLed after %d ms)", FAULT_TIMEOUT_MS);
			else if (st == -2)
				printf("fork failed");
			else if (WIFSIGNALED(st))
				printf("signal %d", WTERMSIG(st));
			else
				printf("exit %d", WEXITSTATUS(st));
			printf(", wanted signal %d\n", fault_signal(k));
			fflush(stdout);
			bad += !ok;
		}
	}
	return bad;
}
