/*
 * Saved cmdlines: the names of tasks seen by the scheduler while tracing
 * is on, so the `trace` output can print <comm>-<pid> for records that
 * only hold a pid. A small ring of (pid, comm) slots, newest replacing
 * oldest, with a pid-indexed map to find a pid's slot; as Linux's, it
 * remembers the last SAVED_CMDLINES_DEFAULT tasks. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/spinlock.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>

#define PID_MAP_SIZE	4096	/* pid -> slot, indexed by pid % size */
#define NO_SLOT		0xffff

struct saved_cmdline {
	pid_t pid;			/* -1: unused */
	char comm[16];
};

static struct saved_cmdline saved[SAVED_CMDLINES_DEFAULT];
static u16 pid_map[PID_MAP_SIZE];
static unsigned int next_slot;
static bool cmdlines_ready;
static unsigned int cmdline_users;	/* trace_cmdlines_start() calls not yet stopped */
static DEFINE_SPINLOCK(cmdline_lock);

/* Both are 16 bytes, NUL-padded as saved: two word compares. */
static bool comm_equal(const char *a, const char *b)
{
	u64 x[2], y[2];

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	return x[0] == y[0] && x[1] == y[1];
}

static void cmdlines_init(void)
{
	for (unsigned int i = 0; i < SAVED_CMDLINES_DEFAULT; i++)
		saved[i].pid = -1;
	for (unsigned int i = 0; i < PID_MAP_SIZE; i++)
		pid_map[i] = NO_SLOT;
	cmdlines_ready = true;
}

/*
 * From the sched_switch probe: interrupts are off and a CPU may hold the
 * lock on the reading side, so a busy lock skips this save (the task is
 * saved again at its next switch) instead of spinning.
 */
void trace_save_cmdline(pid_t pid, const char *comm)
{
	unsigned long flags;
	u16 slot;

	if (pid <= 0)
		return;		/* idle tasks print as <idle> */
	/* Already known under this name: nothing to write (a racy read is only a hint). */
	slot = READ_ONCE(pid_map[pid % PID_MAP_SIZE]);
	if (cmdlines_ready && slot != NO_SLOT && READ_ONCE(saved[slot].pid) == pid &&
	    comm_equal(saved[slot].comm, comm))
		return;
	local_irq_save(flags);
	if (!spin_trylock(&cmdline_lock)) {
		local_irq_restore(flags);
		return;
	}
	if (!cmdlines_ready)
		cmdlines_init();
	slot = pid_map[pid % PID_MAP_SIZE];
	if (slot == NO_SLOT || saved[slot].pid != pid) {
		slot = (u16)next_slot;
		next_slot = (next_slot + 1) % SAVED_CMDLINES_DEFAULT;
		if (saved[slot].pid >= 0 && pid_map[saved[slot].pid % PID_MAP_SIZE] == slot)
			pid_map[saved[slot].pid % PID_MAP_SIZE] = NO_SLOT;
		saved[slot].pid = pid;
		pid_map[pid % PID_MAP_SIZE] = slot;
	}
	/* All 16 bytes, so the next comparison sees the same padding. */
	memcpy(saved[slot].comm, comm, sizeof(saved[slot].comm));
	saved[slot].comm[sizeof(saved[slot].comm) - 1] = '\0';
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
}

void trace_find_cmdline(pid_t pid, char comm[16])
{
	unsigned long flags;
	u16 slot;

	if (pid == 0) {
		strscpy(comm, "<idle>", 16);
		return;
	}
	strscpy(comm, "<...>", 16);
	if (pid < 0)
		return;
	local_irq_save(flags);
	spin_lock(&cmdline_lock);
	if (cmdlines_ready) {
		slot = pid_map[pid % PID_MAP_SIZE];
		if (slot != NO_SLOT && saved[slot].pid == pid)
			strscpy(comm, saved[slot].comm, 16);
	}
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
}

/* saved_cmdlines: "<pid> <comm>" per remembered task. */
void trace_cmdlines_show(struct seq_file *m)
{
	struct saved_cmdline copy[SAVED_CMDLINES_DEFAULT];
	unsigned long flags;
	unsigned int n = 0;

	local_irq_save(flags);
	spin_lock(&cmdline_lock);
	for (unsigned int i = 0; cmdlines_ready && i < SAVED_CMDLINES_DEFAULT; i++)
		if (saved[i].pid >= 0 && pid_map[saved[i].pid % PID_MAP_SIZE] == i)
			copy[n++] = saved[i];
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
	for (unsigned int i = 0; i < n; i++)
		seq_printf(m, "%d %s\n", copy[i].pid, copy[i].comm);
}

/* Caller holds trace_types_lock (enabling and disabling events). */
void trace_cmdlines_start(void)
{
	if (cmdline_users++ == 0)
		trace_cmdlines_attach(true);
}

void trace_cmdlines_stop(void)
{
	if (cmdline_users && --cmdline_users == 0)
		trace_cmdlines_attach(false);
}
