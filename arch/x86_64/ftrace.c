/*
 * Turning function-tracer sites on and off: each is the 5-byte NOP the
 * compiler put at a function's entry, or a CALL of ftrace_caller. Sites
 * change by the int3 protocol (text_patch.c), a batch at a time. A CPU
 * that meets a site mid-patch continues past it: that one call is not
 * traced, which is the whole of what the site does.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/string.h>
#include <asm/ptrace.h>
#include <asm/text_patch.h>
#include <asm/ftrace.h>
#include <trace/ftrace.h>

#define CALL32_OPCODE		0xe8
/*
 * Sites per run of the protocol: each run costs four rounds of IPIs to
 * every CPU, so large batches keep a whole-kernel switch short, while the
 * int3 handler finds a site of the batch by binary search.
 */
#define FTRACE_PATCH_BATCH	1024

_Static_assert(offsetof(struct ftrace_regs, parent_ip) == 120,
	       "ftrace_64.S reads parent_ip at 120(%rsp)");
_Static_assert(offsetof(struct ftrace_regs, ret_ip) == 112,
	       "ftrace_64.S reads ret_ip at 112(%rsp)");

static void call_insn(unsigned long ip, u8 insn[MCOUNT_INSN_SIZE])
{
	s32 rel = (s32)(long)((unsigned long)ftrace_caller - (ip + MCOUNT_INSN_SIZE));

	insn[0] = CALL32_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

int ftrace_arch_site_state(unsigned long ip)
{
	u8 call[MCOUNT_INSN_SIZE];

	call_insn(ip, call);
	if (!memcmp((const void *)ip, call, sizeof(call)))
		return 1;
	if (!memcmp((const void *)ip, x86_nop5, sizeof(x86_nop5)))
		return 0;
	return -1;
}

/* One batch: a run of the ascending ips, all turned the same way. */
struct ftrace_batch {
	struct text_poke_batch b;
	const unsigned long *ips;
	bool call;
};

static unsigned long ftrace_batch_site(const struct text_poke_batch *b, unsigned int i,
				       u8 insn[MCOUNT_INSN_SIZE])
{
	const struct ftrace_batch *fb = container_of(b, struct ftrace_batch, b);
	unsigned long ip = fb->ips[i];

	if (fb->call)
		call_insn(ip, insn);
	else
		memcpy(insn, x86_nop5, sizeof(x86_nop5));
	return ip;
}

static unsigned long ftrace_batch_resume(const struct text_poke_batch *b, unsigned long ip)
{
	const struct ftrace_batch *fb = container_of(b, struct ftrace_batch, b);
	unsigned int lo = 0, hi = b->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (fb->ips[mid] == ip)
			return ip + MCOUNT_INSN_SIZE;
		if (fb->ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void ftrace_arch_patch_sites(const unsigned long *ips, unsigned int n, bool call)
{
	for (unsigned int done = 0; done < n; done += FTRACE_PATCH_BATCH) {
		struct ftrace_batch fb = {
			.b = {
				.n = min(n - done, (unsigned int)FTRACE_PATCH_BATCH),
				.site = ftrace_batch_site,
				.resume = ftrace_batch_resume,
			},
			.ips = ips + done,
			.call = call,
		};

		text_poke_bp_batch(&fb.b);
	}
}

bool ftrace_arch_stale_int3(struct pt_regs *regs, unsigned long ip)
{
	if (!ftrace_location(ip))
		return false;
	regs->rip = ip + MCOUNT_INSN_SIZE;
	return true;
}
