/*
 * When a worker dies by a fault, say where: a handler for SIGSEGV, SIGBUS,
 * SIGILL and SIGFPE notes the signal, fault address, user rip/rsp and the
 * call the thread was making (or had just made) in the worker's shared
 * stats, then restores the default action and returns, so the fault
 * repeats and the worker still dies by it, as the coordinator expects.
 * Children drop the handler at once (crash_forget): their faults are theirs.
 */
#define _GNU_SOURCE	/* REG_RIP, REG_RSP */
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include "sysfuzz.h"

static struct crash *note;
static __thread const struct fuzzer *current_fuzzer;
static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };

void crash_current(const struct fuzzer *f)
{
	current_fuzzer = f;
}

static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	const struct fuzzer *f = current_fuzzer;

	if (!__atomic_exchange_n(&note->sig, sig, __ATOMIC_RELAXED)) {
		note->addr = (uint64_t)si->si_addr;
		note->rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
		note->rsp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
		note->thread = f ? f->thread : -1;
	}
	signal(sig, SIG_DFL);
}

void crash_watch(struct crash *c)
{
	struct sigaction sa;
	static char altstack[16384];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	note = c;
	sigaltstack(&ss, NULL);	/* a fault may come from a ruined stack */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void crash_forget(void)
{
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}
