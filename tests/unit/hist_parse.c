/*
 * The hist trigger language: every attribute, modifier and expression rule
 * (accepted commands must print back canonically and re-parse as their own
 * removal), every error with its text and caret, hostile input.
 */
/* uses: trace/tracing_map.c trace/hist_parse.c trace/hist_field.c trace/trace_events_hist.c trace/hist_actions.c trace/hist_output.c trace/trace_synth.c trace/trace_synth_output.c trace/trace_output.c trace/hist_enable.c trace/trace_filter.c trace/trace_events.c trace/tracepoint.c kernel/jump_label.c kernel/rcu.c kernel/lib/kstring.c */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include "hist_fixture.h"

TestSuite(hist, .init = fixture_setup, .fini = fixture_teardown);

/* --- accepted commands and their canonical text ------------------------------------- */

/* Arrays, not pointers: Criterion hands parameters to a fresh process. */
struct accept_case {
	char event[16];
	char setup[48];		/* a command run first on sched_waking, or "" */
	char cmd[160];
	char printed[256];	/* the trigger info line */
};

static struct accept_case accept_cases[] = {
	{ "sched_waking", "", "keys=pid", "hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "key=pid", "hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=common_pid,call_site.sym:values=bytes_req,bytes_alloc,hitcount",
	  "hist:keys=common_pid,call_site.sym:vals=hitcount,bytes_req,bytes_alloc:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:val=bytes_req", "hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req", "hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:ts0=common_timestamp.usecs",
	  "hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:size=2048:clock=global [active]" },
	{ "sched_switch", "keys=pid:ts0=common_timestamp.usecs", "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0",
	  "hist:keys=next_pid:vals=hitcount:wakeup_lat=common_timestamp.usecs-$ts0:sort=hitcount:size=2048:clock=global [active]" },
	{ "sched_switch", "keys=pid:ts0=common_timestamp.usecs", "keys=next_pid:lat=common_timestamp.usecs-sched.sched_waking.$ts0",
	  "hist:keys=next_pid:vals=hitcount:lat=common_timestamp.usecs-sched.sched_waking.$ts0:sort=hitcount:size=2048:clock=global [active]" },
	{ "kmalloc", "", "keys=call_site.sym-offset", "hist:keys=call_site.sym-offset:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=bytes_req.log2", "hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=bytes_req.buckets=100", "hist:keys=bytes_req.buckets=100:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=bytes_req.bucket=32", "hist:keys=bytes_req.buckets=32:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=common_pid.execname:vals=bytes_req:sort=bytes_req.descending",
	  "hist:keys=common_pid.execname:vals=hitcount,bytes_req:sort=bytes_req.descending:size=2048 [active]" },
	{ "sys_enter", "", "keys=id.syscall", "hist:keys=id.syscall:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sys_enter", "", "keys=id.syscall:sort=id.syscall", "hist:keys=id.syscall:vals=hitcount:sort=id:size=2048 [active]" },
	{ "kmalloc", "", "keys=ptr.hex", "hist:keys=ptr.hex:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:size=4096", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=4096 [active]" },
	{ "kmalloc", "", "keys=call_site:size=3000", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=4096 [active]" },
	{ "kmalloc", "", "keys=call_site:size=128", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=128 [active]" },
	{ "kmalloc", "", "keys=call_site:size=0x20000", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=131072 [active]" },
	{ "kmalloc", "", "keys=call_site:pause", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=2048 [paused]" },
	{ "kmalloc", "", "keys=call_site:name=foo", "hist:name=foo:keys=call_site:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req:nohitcount", "hist:keys=call_site:vals=bytes_req:sort=hitcount:size=2048:nohitcount [active]" },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req:NOHC", "hist:keys=call_site:vals=bytes_req:sort=hitcount:size=2048:nohitcount [active]" },
	{ "kmalloc", "", "keys=call_site if bytes_req > 100", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=2048 if bytes_req > 100 [active]" },
	{ "kmalloc", "", "keys=call_site\tif\tbytes_req > 100", "hist:keys=call_site:vals=hitcount:sort=hitcount:size=2048 if bytes_req > 100 [active]" },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req.hex", "hist:keys=call_site:vals=hitcount,bytes_req.hex:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:vals=hitcount.percent", "hist:keys=call_site:vals=hitcount,hitcount.percent:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req.graph", "hist:keys=call_site:vals=hitcount,bytes_req.graph:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=common_cpu", "hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=cpu", "hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=CPU", "hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=common_comm", "hist:keys=common_comm:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=comm", "hist:keys=comm:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_switch", "", "keys=comm", "hist:keys=common_comm:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=common_stacktrace", "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "kmalloc", "", "keys=stacktrace", "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=16-8-4-2", "hist:keys=pid:vals=hitcount:x=2:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=64/8/4/2", "hist:keys=pid:vals=hitcount:x=1:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=16-8+4+2", "hist:keys=pid:vals=hitcount:x=14:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=4*3/2*2", "hist:keys=pid:vals=hitcount:x=12:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=4+3*2-2", "hist:keys=pid:vals=hitcount:x=8:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=4+6/2-2", "hist:keys=pid:vals=hitcount:x=5:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=0x10", "hist:keys=pid:vals=hitcount:x=16:sort=hitcount:size=2048 [active]" },
	/* Linux's constant division: multiply by 2^20/d and shift when x < 2^20 (10/3 is 4) */
	{ "sched_waking", "", "keys=pid:x=10/3", "hist:keys=pid:vals=hitcount:x=4:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=9/3", "hist:keys=pid:vals=hitcount:x=3:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=3000000/3", "hist:keys=pid:vals=hitcount:x=1000000:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=100/2000000", "hist:keys=pid:vals=hitcount:x=0:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=pid*2+1", "hist:keys=pid:vals=hitcount:x=pid*2+1:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=prio-pid-1", "hist:keys=pid:vals=hitcount:x=prio-pid-1:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=prio/4", "hist:keys=pid:vals=hitcount:x=prio/4:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=-(prio)", "hist:keys=pid:vals=hitcount:x=-(prio):sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=-(prio+1)", "hist:keys=pid:vals=hitcount:x=-(prio+1):sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid,prio", "hist:keys=pid,prio:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid,prio,target_cpu", "hist:keys=pid,prio,target_cpu:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid,comm", "hist:keys=pid,comm:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:sort=pid,hitcount.descending", "hist:keys=pid:vals=hitcount:sort=pid,hitcount.descending:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:sort=pid.ascending", "hist:keys=pid:vals=hitcount:sort=pid:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:vals=prio:sort=prio", "hist:keys=pid:vals=hitcount,prio:sort=prio:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:a=prio,b=target_cpu", "hist:keys=pid:vals=hitcount:a=prio,b=target_cpu:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:a=prio:b=target_cpu", "hist:keys=pid:vals=hitcount:a=prio,b=target_cpu:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "a=prio:keys=pid", "hist:keys=pid:vals=hitcount:a=prio:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:clock=local:ts=common_timestamp", "hist:keys=pid:vals=hitcount:ts=common_timestamp:sort=hitcount:size=2048:clock=local [active]" },
	{ "sched_waking", "", "keys=pid:clock=mono", "hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:y=prio:x=$y", "hist:keys=pid:vals=hitcount:y=prio,x=$y:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=$p:p=pid", "hist:keys=pid:vals=hitcount:p=pid:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid.hex", "hist:keys=pid.hex:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:c=common_pid.execname", "hist:keys=pid:vals=hitcount:c=common_pid.execname:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:s=comm", "hist:keys=pid:vals=hitcount:s=comm:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=prio.hex", "hist:keys=pid:vals=hitcount:x=prio.hex:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:vals=hitcount,prio:sort=hitcount", "hist:keys=pid:vals=hitcount,prio:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=pid:x=common_cpu+1", "hist:keys=pid:vals=hitcount:x=common_cpu+1:sort=hitcount:size=2048 [active]" },
	{ "sched_waking", "", "keys=prio*2", "hist:keys=prio*2:vals=hitcount:sort=hitcount:size=2048 [active]" },
	{ "sched_switch", "", "keys=next_pid:lat=common_timestamp.usecs:onmax($lat).save(next_comm,prev_pid)",
	  "hist:keys=next_pid:vals=hitcount:lat=common_timestamp.usecs:sort=hitcount:size=2048:clock=global:onmax($lat).save(next_comm,prev_pid) [active]" },
	{ "sched_switch", "", "keys=next_pid:lat=common_timestamp.usecs:onchange($lat).save(prev_prio)",
	  "hist:keys=next_pid:vals=hitcount:lat=common_timestamp.usecs:sort=hitcount:size=2048:clock=global:onchange($lat).save(prev_prio) [active]" },
	{ "sched_switch", "", "keys=next_pid:lat=common_timestamp.usecs:onmax($lat).snapshot()",
	  "hist:keys=next_pid:vals=hitcount:lat=common_timestamp.usecs:sort=hitcount:size=2048:clock=global:onmax($lat).snapshot() [active]" },
	{ "sched_switch", "", "keys=next_pid:lat=common_timestamp.usecs:onmax($lat).save(prev_pid):onchange($lat).snapshot()",
	  "hist:keys=next_pid:vals=hitcount:lat=common_timestamp.usecs:sort=hitcount:size=2048:clock=global:onmax($lat).save(prev_pid):onchange($lat).snapshot() [active]" },
};

ParameterizedTestParameters(hist, accepted)
{
	return cr_make_param_array(struct accept_case, accept_cases, ARRAY_SIZE(accept_cases));
}

/* Accepted, printed canonically, and the printed text removes it. */
ParameterizedTest(struct accept_case *c, hist, accepted)
{
	struct hist_event *ev = event_by_name(c->event);
	char buf[1024], *state;
	unsigned int before;

	if (c->setup[0])
		cr_assert_eq(hist_cmd(&ev_waking, c->setup), 0);
	before = n_triggers(ev);
	cr_assert_eq(hist_cmd(ev, c->cmd), 0, "%s: %s", c->cmd, inst.last_error.msg);
	cr_assert_eq(n_triggers(ev), before + 1);
	hist_trigger_print(buf, sizeof(buf), list_entry(ev->triggers.prev, struct hist_trigger_data, list), false);
	cr_assert_str_eq(buf, c->printed);

	/* the selftests' reset: "!" + the printed text without its state */
	state = strrchr(buf, ' ');
	*state = '\0';
	buf[0] = '!';
	memmove(buf + 1, buf + 5, strlen(buf + 5) + 1);	/* drop "hist:" */
	cr_assert_eq(hist_cmd(ev, buf), 0, "%s", buf);
	cr_assert_eq(n_triggers(ev), before, "not removed by %s", buf);
}

/* --- rejected commands: errno, error text and caret ---------------------------------- */

struct reject_case {
	char event[16];
	char setup[48];		/* run first on sched_waking, or "" */
	char cmd[320];
	int err;
	char msg[112];		/* "": don't check the text */
	char at[24];		/* the caret sits at this text's first occurrence in "hist:<cmd>" ... */
	int skip;		/* ... plus skip; at "": position 0 */
};

#define EINV -EINVAL

static struct reject_case reject_cases[] = {
	{ "sched_waking", "", "keys=pid:vals=", EINV, "Empty assignment", "vals=", 0 },
	{ "sched_waking", "", "keys=", EINV, "Empty assignment", "keys=", 0 },
	{ "sched_waking", "", "keys=pid:x=", EINV, "Empty assignment", "x=", 0 },
	{ "sched_waking", "", "keys=bogus", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:vals=bogus", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:x=bogus", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:x=prio+bogus", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=pid,bogus", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=next_pid", EINV, "Couldn't find field", "next_pid", 0 },
	{ "sched_waking", "", "keys=((((pid))))", EINV, "Couldn't find field", "((((pid", 0 },
	{ "sched_waking", "", "keys=pid.bogus", EINV, "Invalid field modifier", "bogus", 0 },
	{ "sched_waking", "", "keys=pid.hex.sym", EINV, "Invalid field modifier", "hex.sym", 0 },
	{ "sched_waking", "", "keys=pid.usecs", EINV, "Invalid field modifier", "usecs", 0 },
	{ "sched_waking", "", "keys=pid.percent", EINV, "Invalid field modifier", "percent", 0 },
	{ "sched_waking", "", "keys=pid.graph", EINV, "Invalid field modifier", "graph", 0 },
	{ "sched_waking", "", "keys=pid.buckets=0", EINV, "Invalid field modifier", "buckets", 0 },
	{ "sched_waking", "", "keys=pid.buckets=x", EINV, "Invalid field modifier", "buckets", 0 },
	{ "sched_waking", "", "keys=prio.execname", EINV, "Invalid field modifier", "prio", 5 },
	{ "sched_waking", "", "keys=comm.log2", EINV, "Invalid field modifier", "log2", 0 },
	{ "sched_waking", "", "keys=pid.stacktrace", EINV, "Invalid field modifier", "stacktrace", 0 },
	{ "sched_waking", "", "keys=pid:vals=prio.log2", EINV, "Invalid field modifier", "log2", 0 },
	{ "sched_waking", "", "keys=pid:vals=prio.sym", EINV, "Invalid field modifier", "sym", 0 },
	{ "sched_waking", "", "keys=pid:vals=prio.sym-offset", EINV, "Invalid field modifier", "sym-offset", 0 },
	{ "sched_waking", "", "keys=pid:vals=prio.syscall", EINV, "Invalid field modifier", "syscall", 0 },
	{ "sched_waking", "", "keys=pid:vals=prio.buckets=8", EINV, "Invalid field modifier", "buckets", 0 },
	{ "sched_waking", "", "keys=pid:vals=hitcount.buckets=8", EINV, "Invalid field modifier", "buckets", 0 },
	{ "sched_waking", "", "keys=pid:vals=common_pid.execname", EINV, "Invalid field modifier", "execname", 0 },
	{ "sched_waking", "", "keys=pid:x=prio.graph", EINV, "Invalid field modifier", "graph", 0 },
	{ "sched_waking", "", "keys=pid:x=prio.percent", EINV, "Invalid field modifier", "percent", 0 },
	{ "sched_waking", "", "keys=pid:x=prio.log2", EINV, "Invalid field modifier", "log2", 0 },
	{ "sched_waking", "", "keys=pid:x=prio.buckets=4", EINV, "Invalid field modifier", "buckets", 0 },
	{ "sched_waking", "", "keys=pid.hex.hex", EINV, "Invalid field modifier", "hex.hex", 0 },
	{ "sched_waking", "", "keys=pid:sort=bogus", EINV, "Sort field must be a key or a val", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:x=prio:sort=x", EINV, "Sort field must be a key or a val", "sort=x", 5 },
	{ "sched_waking", "", "keys=pid:sort=pid.bogus", EINV, "Invalid sort modifier", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:sort=pid,prio,hitcount", EINV, "Too many sort fields (Max = 2)", "sort=", 0 },
	{ "sched_waking", "", "keys=pid:sort=,pid", EINV, "Empty sort field", "sort=", 0 },
	{ "sched_waking", "", "keys=pid:sort=pid,", EINV, "Empty sort field", "sort=", 0 },
	{ "sched_waking", "", "keys=pid:x=1/0", EINV, "Division by zero", "0", 0 },
	/* Linux's trigger-hist-syntax-errors and -expressions selftests, carets included */
	{ "kmalloc", "", "keys=common_pid:vals=bytes_req:sort=common_pid,junk", EINV,
	  "Sort field must be a key or a val", "junk", 0 },
	{ "kmalloc", "", "keys=common_pid:vals=bytes_req:sort=", EINV, "Empty assignment", "sort=", 0 },
	{ "kmalloc", "", "keys=common_pid:vals=bytes_req:sort=common_pid,", EINV, "Empty sort field", "sort=", 0 },
	{ "kmalloc", "", "keys=common_pid:vals=bytes_req:sort=common_pid.junk", EINV,
	  "Invalid sort modifier", "junk", 0 },
	{ "kmalloc", "", "keys=common_pid:vals=bytes_req,bytes_alloc:sort=common_pid,bytes_req,bytes_alloc", EINV,
	  "Too many sort fields (Max = 2)", "sort=", 0 },
	{ "sched_waking", "", "keys=common_pid:x=32+10*3/20-4", EINV, "Too many subexpressions (3 max)", "10*", 0 },
	{ "sched_waking", "", "keys=common_pid:x=1+2+3+4+5", EINV, "Too many subexpressions (3 max)", "1+", 0 },
	{ "sched_waking", "", "keys=common_pid:x=3/0", EINV, "Division by zero", "0", 0 },
	{ "sched_waking", "", "keys=pid:x=prio/0", EINV, "Division by zero", "/0", 1 },
	{ "sched_waking", "", "keys=pid:x=prio/(1-1)", EINV, "", "", 0 },
	{ "sched_waking", "", "keys=pid:x=prio+1+2+3+4", EINV, "Too many subexpressions (3 max)", "prio", 0 },
	{ "sched_waking", "", "keys=pid:x=prio*1*2*3*4*5", EINV, "Too many subexpressions (3 max)", "prio", 0 },
	{ "sched_waking", "", "keys=pid:x=-(1)+2", EINV, "Unary minus not supported in sub-expressions", "-(1)", 2 },
	{ "sched_waking", "", "keys=pid:x=3+-(1)", EINV, "", "", 0 },
	{ "sched_waking", "", "keys=pid:x=-prio", EINV, "", "-prio", 0 },
	{ "sched_waking", "", "keys=pid:x=-(prio", EINV, "", "-(prio", 0 },
	{ "sched_waking", "", "keys=pid:x=prio-", EINV, "", "-", 0 },
	{ "sched_waking", "", "keys=pid:x=*prio", EINV, "", "*", 0 },
	{ "sched_waking", "", "keys=pid:x=comm+1", EINV, "String type can not be an operand in expression", "comm", 0 },
	{ "sched_waking", "", "keys=pid:x=1+comm", EINV, "String type can not be an operand in expression", "comm", 0 },
	{ "sched_waking", "", "keys=pid:x=-(comm)", EINV, "String type can not be an operand in expression", "comm", 0 },
	{ "sched_waking", "", "keys=pid:x=99999999999999999999999", EINV, "Expecting numeric literal", "999", 0 },
	{ "sched_waking", "", "keys=pid:x=12abc", EINV, "Expecting numeric literal", "12abc", 0 },
	{ "sched_waking", "", "keys=pid:x=0x", EINV, "Expecting numeric literal", "0x", 0 },
	{ "sched_switch", "keys=pid:ts0=common_timestamp", "keys=next_pid:x=common_timestamp.usecs-$ts0", EINV,
	  "Timestamp units in expression don't match", "common_timestamp", 0 },
	{ "sched_switch", "", "keys=next_pid:x=$nosuch", EINV, "Couldn't find variable", "$nosuch", 0 },
	{ "sched_switch", "", "keys=next_pid:x=sched.sched_waking.$nosuch", EINV, "Couldn't find variable", "sched.", 0 },
	{ "sched_switch", "", "keys=next_pid:x=bogus.event.$nosuch", EINV, "Couldn't find variable", "bogus", 0 },
	{ "sched_switch", "", "keys=next_pid:x=sched.$v", EINV, "Couldn't find variable", "sched.$v", 0 },
	{ "sched_waking", "", "keys=pid:x=prio:x=pid", EINV, "Variable already defined", "x=pid", 0 },
	{ "sched_waking", "", "keys=pid:x=prio,x=pid", EINV, "Variable already defined", "x=pid", 0 },
	{ "sched_waking", "keys=pid:x=prio", "keys=prio:x=pid", EINV, "Variable already defined", "x=", 0 },
	{ "sched_waking", "", "keys=pid:a=prio,b", EINV, "Malformed assignment", "b", 0 },
	{ "sched_waking", "", "keys=pid:a=prio,=pid", EINV, "Malformed assignment", ",=pid", 1 },
	{ "sched_waking", "", "keys=pid:a=prio,b=", EINV, "Malformed assignment", "b=", 0 },
	{ "sched_waking", "", "keys=pid:v0=prio:v1=prio:v2=prio:v3=prio:v4=prio:v5=prio:v6=prio:v7=prio:v8=prio:"
	  "v9=prio:v10=prio:v11=prio:v12=prio:v13=prio:v14=prio:v15=prio:v16=prio", EINV, "Too many variables defined", "v16", 0 },
	{ "sched_waking", "", "keys=pid:v0=prio,v1=prio,v2=prio,v3=prio,v4=prio,v5=prio,v6=prio,v7=prio,v8=prio,"
	  "v9=prio,v10=prio,v11=prio,v12=prio,v13=prio,v14=prio,v15=prio,v16=prio", EINV, "Too many variables defined", "v16", 0 },
	{ "sched_waking", "", "keys=pid:nohitcount", -ENOENT, "Non-hitcount value is required for 'nohitcount'", "", 0 },
	{ "sched_waking", "", "keys=pid:x=prio:nohitcount", -ENOENT, "Non-hitcount value is required for 'nohitcount'", "", 0 },
	{ "sched_waking", "", "keys=$nosuch", EINV, "Using variable references in keys not supported", "$nosuch", 0 },
	{ "sched_switch", "keys=pid:ts0=common_timestamp", "keys=next_pid+$ts0", EINV,
	  "Using variable references in keys not supported", "next_pid", 0 },
	{ "sched_waking", "", "keys=pid:onmax(lat).save(prio)", EINV, "For onmax(x) or onchange(x), x must be a variable", "lat", 0 },
	{ "sched_waking", "", "keys=pid:onchange().save(prio)", EINV, "For onmax(x) or onchange(x), x must be a variable", "onchange", 0 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($nolat).save(prio)", EINV, "Couldn't find onmax or onchange variable", "$nolat", 0 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save()", EINV, "No params found for save()", "save(", 5 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat)", EINV, "No action found", "$lat)", 5 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save", EINV, "No action found", ".save", 0 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save(prio", EINV, "No closing paren found", "(prio", 1 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat.save(prio)", EINV, "No action found", "(prio)", 6 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save(prio,bogus)", EINV, "Couldn't find field", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save(prio,)", EINV, "Couldn't find param", ",)", 1 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save(prio,x)", EINV, "Invalid action param", ",x", 1 },
	{ "sched_waking", "", "keys=pid:lat=prio:onmax($lat).save(prio):onchange($lat).save(pid)", EINV,
	  "Can't have more than one save() action per hist", "save(pid", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched).trace(foo,pid)", EINV, "Missing subsystem", "sched)", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(.x).trace(foo,pid)", EINV, "Missing subsystem", ".x)", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.).trace(foo,pid)", EINV, "Invalid subsystem or event name", "sched.)", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.nosuch).trace(foo,pid)", EINV, "Invalid subsystem or event name", "sched.nosuch", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch).save(prio)", EINV, "Handler doesn't support action", "save", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch).snapshot()", EINV, "Handler doesn't support action", "snapshot", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch", EINV, "No closing paren found", "onmatch", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch).nosynth(pid,prio)", EINV, "Couldn't find synthetic event", "nosynth", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch).trace(nosynth,pid)", EINV, "Couldn't find synthetic event", "nosynth", 0 },
	{ "sched_waking", "", "keys=pid:onmatch(sched.sched_switch).trace()", EINV, "Couldn't find synthetic event", "trace(", 6 },
	{ "sched_waking", "", "keys=pid:bogus", EINV, "", "bogus", 0 },
	{ "sched_waking", "", "keys=pid:onfoo(x)", EINV, "", "onfoo", 0 },
	{ "sched_waking", "", "vals=prio", EINV, "", "", 0 },
	{ "sched_waking", "", "", EINV, "", "", 0 },
	{ "sched_waking", "", "keys=pid::vals=prio", EINV, "", ":vals", 0 },
	{ "sched_waking", "", "keys=pid,prio,target_cpu,comm", EINV, "", "comm", 0 },
	{ "kmalloc", "", "keys=call_site:vals=bytes_req,bytes_alloc,node", EINV, "", "node", 0 },
	{ "kmalloc", "", "keys=call_site:size=64", EINV, "", "64", 0 },
	{ "kmalloc", "", "keys=call_site:size=262144", EINV, "", "262144", 0 },
	{ "kmalloc", "", "keys=call_site:size=0", EINV, "", "0", 0 },
	{ "kmalloc", "", "keys=call_site:size=lots", EINV, "", "lots", 0 },
	{ "kmalloc", "", "keys=call_site:vals=ptr.sym", EINV, "Invalid field modifier", "sym", 0 },
	{ "sched_waking", "", "keys=pid:vals=comm", EINV, "String type can not be a value", "comm", 0 },
	{ "sched_waking", "", "keys=pid if", EINV, "", "if", 0 },
	{ "sched_waking", "", "if pid == 1", EINV, "", "if", 0 },
	{ "sched_waking", "", "keys=pid if   ", EINV, "", "", 0 },
	{ "sched_waking", "", "keys=pid:cont", -ENOENT, "Can't clear or continue a nonexistent hist trigger", "", 0 },
	{ "sched_waking", "", "keys=pid:continue", -ENOENT, "Can't clear or continue a nonexistent hist trigger", "", 0 },
	{ "sched_waking", "", "keys=pid:clear", -ENOENT, "Can't clear or continue a nonexistent hist trigger", "", 0 },
	{ "sched_waking", "keys=pid", "keys=pid", -EEXIST, "Hist trigger already exists", "", 0 },
	{ "sched_waking", "keys=pid", "key=pid:vals=hitcount:sort=hitcount:size=4096", -EEXIST, "Hist trigger already exists", "", 0 },
	{ "sched_waking", "", "keys=pid:onmax($a).save(prio):onmax($a).save(prio):onmax($a).save(prio):onmax($a).save(prio):"
	  "onmax($a).save(prio):onmax($a).save(prio):onmax($a).save(prio):onmax($a).save(prio):onmax($a).save(prio)",
	  EINV, "", "", 0 },
};

ParameterizedTestParameters(hist, rejected)
{
	return cr_make_param_array(struct reject_case, reject_cases, ARRAY_SIZE(reject_cases));
}

ParameterizedTest(struct reject_case *c, hist, rejected)
{
	struct hist_event *ev = event_by_name(c->event);
	char full[4200];
	unsigned int before, pos = 0;

	if (c->setup[0])
		cr_assert_eq(hist_cmd(&ev_waking, c->setup), 0);
	before = n_triggers(ev);
	cr_assert_eq(hist_cmd(ev, c->cmd), c->err, "%s -> %s", c->cmd, inst.last_error.msg);
	cr_assert_eq(n_triggers(ev), before, "a failed command left a trigger behind");
	cr_assert_eq(inst.last_error.err, c->err);
	if (c->msg[0])
		cr_assert_str_eq(inst.last_error.msg, c->msg, "%s", c->cmd);
	snprintf(full, sizeof(full), "hist:%s", c->cmd);
	cr_assert_str_eq(inst.last_error.cmd, full);
	if (c->at[0]) {
		char *p = strstr(full, c->at);

		cr_assert_not_null(p, "bad test: '%s' not in '%s'", c->at, full);
		pos = (unsigned int)(p - full) + (unsigned int)c->skip;
	}
	if (c->at[0] || c->msg[0])
		cr_assert_eq(inst.last_error.pos, pos, "%s: caret at %u, want %u", c->cmd,
			     inst.last_error.pos, pos);
}

/* --- the error_log entry ----------------------------------------------------------- */

Test(hist, error_log_entry_layout)
{
	char buf[512];
	const char *last;

	cr_assert_eq(hist_cmd(&ev_switch, "keys=x"), -EINVAL);
	hist_error_format(&inst.last_error, buf, sizeof(buf));
	cr_assert_str_eq(buf, "hist:sched:sched_switch: error: Couldn't find field\n"
			      "  Command: hist:keys=x\n"
			      "                     ^\n");
	/* the selftests' check: the caret line is 13 + pos bytes with its newline */
	last = strrchr(buf, '\n');
	while (last > buf && last[-1] != '\n')
		last--;
	cr_assert_eq(strlen(last), 13 - 2 + 10 + 2);
}

/* --- hostile input --------------------------------------------------------------------- */

Test(hist, command_of_4k_is_rejected_cleanly)
{
	static char cmd[4200];

	strcpy(cmd, "keys=pid:x=");
	memset(cmd + 11, 'a', 4090 - 11);
	cmd[4090] = '\0';
	cr_assert_eq(hist_cmd(&ev_waking, cmd), -EINVAL);
	cr_assert_eq(n_triggers(&ev_waking), 0);

	/* just under the limit: parsed, the unknown field is reported */
	cmd[4000] = '\0';
	cr_assert_eq(hist_cmd(&ev_waking, cmd), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Couldn't find field");
	cr_assert_eq(inst.last_error.pos, 16);
}

Test(hist, nested_parentheses)
{
	char cmd[512] = "keys=pid:x=";

	for (int i = 0; i < 64; i++)
		strcat(cmd, "-(");
	strcat(cmd, "prio");
	for (int i = 0; i < 64; i++)
		strcat(cmd, ")");
	/* the rightmost '-' is the innermost one: a binary minus, nested 64 deep */
	cr_assert_eq(hist_cmd(&ev_waking, cmd), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Too many subexpressions (3 max)");

	strcpy(cmd, "keys=pid:x=");
	for (int i = 0; i < 64; i++)
		strcat(cmd, "(");
	strcat(cmd, "prio+1");
	for (int i = 0; i < 64; i++)
		strcat(cmd, ")");
	cr_assert_eq(hist_cmd(&ev_waking, cmd), -EINVAL);
	cr_assert_eq(n_triggers(&ev_waking), 0);
}

Test(hist, garbage_bytes_never_crash)
{
	static const char alphabet[] = "keys=pid,prio.$-+*/()0x1:=!, if hex sym";
	char cmd[64];
	u64 x = 88172645463325252UL;

	for (int round = 0; round < 3000; round++) {
		unsigned int len = (unsigned int)(x % 60);

		for (unsigned int i = 0; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			cmd[i] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		cmd[len] = '\0';
		if (hist_cmd(&ev_waking, cmd) == 0)
			hist_unreg_all(&inst, &ev_waking);
	}
	cr_assert_eq(n_triggers(&ev_waking), 0);
}

/* --- removal, pause, continue, clear ---------------------------------------------------- */

Test(hist, remove_matches_regardless_of_size_and_spelling)
{
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=call_site:vals=bytes_req:size=4096"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "!key=call_site:values=bytes_req,hitcount"), 0);
	cr_assert_eq(n_triggers(&ev_kmalloc), 0);
	/* removing what does not exist is silently fine */
	cr_assert_eq(hist_cmd(&ev_kmalloc, "!keys=call_site"), 0);
	/* but the removal must describe the same trigger */
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=call_site"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "!keys=call_site if bytes_req > 1"), 0);
	cr_assert_eq(n_triggers(&ev_kmalloc), 1);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "!keys=call_site:sort=call_site"), 0);
	cr_assert_eq(n_triggers(&ev_kmalloc), 1);
	/* a removal that fails to parse is an error */
	cr_assert_eq(hist_cmd(&ev_kmalloc, "!keys=bogus"), -EINVAL);
	cr_assert_eq(n_triggers(&ev_kmalloc), 1);
}

Test(hist, referenced_variables_pin_their_trigger)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "!keys=pid:ts0=common_timestamp.usecs"), -EBUSY);
	hist_unreg_all(&inst, &ev_waking);	/* '>' keeps it too */
	cr_assert_eq(n_triggers(&ev_waking), 1);
	cr_assert_eq(hist_cmd(&ev_switch, "!keys=next_pid:lat=common_timestamp.usecs-$ts0"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "!keys=pid:ts0=common_timestamp.usecs"), 0);
	cr_assert_eq(n_triggers(&ev_waking), 0);
}

Test(hist, variable_names_must_be_unique_or_qualified)
{
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:v=common_timestamp"), 0);
	cr_assert_eq(hist_cmd(&ev_kmalloc, "keys=common_pid:v=common_timestamp"), 0);
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:d=common_timestamp-$v"), -EINVAL);
	cr_assert_str_eq(inst.last_error.msg, "Variable name not unique, need to use fully "
		       "qualified name (subsys.event.var) for variable");
	cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:d=common_timestamp-kmem.kmalloc.$v"), 0);
}

Test(hist, pause_continue_clear_an_existing_trigger)
{
	struct hist_trigger_data *hd;

	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid"), 0);
	hd = first_trigger(&ev_waking);
	cr_assert_not(hd->paused);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:pause"), 0);
	cr_assert(hd->paused);
	cr_assert_eq(n_triggers(&ev_waking), 1);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:cont"), 0);
	cr_assert_not(hd->paused);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:continue"), 0);
	cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:clear"), 0);
	cr_assert_eq(n_triggers(&ev_waking), 1);
	/* a second, different trigger on the same event */
	cr_assert_eq(hist_cmd(&ev_waking, "keys=prio"), 0);
	cr_assert_eq(n_triggers(&ev_waking), 2);
	hist_unreg_all(&inst, &ev_waking);
	cr_assert_eq(n_triggers(&ev_waking), 0);
}

Test(hist, create_and_remove_complex_trigger_many_times)
{
	/* ASan's leak check at exit proves nothing is left behind */
	cr_assert_eq(synth_events_write(&inst, "lat_ev u64 lat; pid_t pid; char comm[16]"), 0,
		     "%s at %u", inst.last_error.msg, inst.last_error.pos);
	for (int i = 0; i < 2000; i++) {
		cr_assert_eq(hist_cmd(&ev_waking, "keys=pid:ts0=common_timestamp.usecs"), 0);
		cr_assert_eq(hist_cmd(&ev_switch, "keys=next_pid:lat=common_timestamp.usecs-$ts0:"
				      "onmatch(sched.sched_waking).lat_ev($lat,next_pid,next_comm):"
				      "onmax($lat).save(prev_pid,prev_comm)"), 0);
		cr_assert_eq(hist_cmd(&ev_switch, "!keys=next_pid:lat=common_timestamp.usecs-$ts0:"
				      "onmatch(sched.sched_waking).lat_ev($lat,next_pid,next_comm):"
				      "onmax($lat).save(prev_pid,prev_comm)"), 0);
		cr_assert_eq(hist_cmd(&ev_waking, "!keys=pid:ts0=common_timestamp.usecs"), 0);
	}
	cr_assert_eq(n_triggers(&ev_switch), 0);
	cr_assert_eq(synth_events_write(&inst, "!lat_ev"), 0);
}
