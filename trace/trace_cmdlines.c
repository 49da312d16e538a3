/*
 * Saved cmdlines: the names of tasks seen by the scheduler while tracing
 * is on, so the `trace` output can print <comm>-<pid> for records that
 * only hold a pid. A ring of (pid, comm) slots, newest replacing oldest,
 * with a pid-indexed map to find a pid's slot. saved_cmdlines_size sets
 * the number of slots, rounded up as Linux's (cmdlines_capacity); a
 * resize starts from an empty table, as Linux's does. Pure.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/spinlock.h>
#include <kernel/rcu.h>
#include <kernel/fs/seq_file.h>
#include <trace/trace.h>

#define PID_MAP_SIZE	4096	/* pid -> slot, indexed by pid % size */
#define NO_SLOT		0xffff

struct saved_cmdline {
	pid_t pid;			/* -1: unused */
	char comm[16];
};

/* The table: replaced whole by a resize (freed after a grace period). */
struct saved_cmdlines_buffer {
	unsigned int num;		/* slots (saved_cmdlines_size) */
	unsigned int next_slot;
	struct saved_cmdline saved[];
};

static struct saved_cmdlines_buffer *savedcmd;	/* NULL until tracing first starts */
static unsigned int savedcmd_num;	/* slots of the next table (saved_cmdlines_size) */
static u16 pid_map[PID_MAP_SIZE];
static unsigned int cmdline_users;	/* trace_cmdlines_start() calls not yet stopped */
static unsigned int cmdline_off;	/* arrays with record-cmd off: no saving at all */
static DEFINE_SPINLOCK(cmdline_lock);

/*
 * The slots a request for n gets: Linux allocates a 128 KiB pid map, a
 * 24-byte header and 20 bytes a slot as one power-of-two run of pages
 * and fills it, so 128 (its default) reads back 6552.
 */
static unsigned int cmdlines_capacity(unsigned int n)
{
	unsigned long fixed = 32768 * 4 + 24, size = 4096;

	while (size < fixed + 20ul * n)
		size <<= 1;
	return (unsigned int)((size - fixed) / 20);
}

/* A new empty table of num slots; the pid map is cleared when it is installed. */
static struct saved_cmdlines_buffer *cmdlines_alloc(unsigned int num)
{
	struct saved_cmdlines_buffer *b = kmalloc(sizeof(*b) + num * sizeof(b->saved[0]),
						   GFP_KERNEL);

	if (!b)
		return NULL;
	b->num = num;
	b->next_slot = 0;
	for (unsigned int i = 0; i < num; i++)
		b->saved[i].pid = -1;
	return b;
}

/* Put b in place (NULL: keep none); the old table is returned to free after a grace period. */
static struct saved_cmdlines_buffer *cmdlines_install(struct saved_cmdlines_buffer *b)
{
	struct saved_cmdlines_buffer *old;
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(&cmdline_lock);
	old = savedcmd;
	for (unsigned int i = 0; i < PID_MAP_SIZE; i++)
		pid_map[i] = NO_SLOT;
	rcu_assign_pointer(savedcmd, b);
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
	return old;
}

/* Both are 16 bytes, NUL-padded as saved: two word compares. */
static bool comm_equal(const char *a, const char *b)
{
	u64 x[2], y[2];

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	return x[0] == y[0] && x[1] == y[1];
}

/*
 * From the sched_switch probe: interrupts are off and a CPU may hold the
 * lock on the reading side, so a busy lock skips this save (the task is
 * saved again at its next switch) instead of spinning.
 */
void trace_save_cmdline(pid_t pid, const char *comm)
{
	struct saved_cmdlines_buffer *b = rcu_dereference(savedcmd);
	struct saved_cmdline *saved;
	unsigned long flags;
	u16 slot;

	if (pid <= 0 || !b)
		return;		/* idle tasks print as <idle> */
	saved = b->saved;
	/* Already known under this name: nothing to write (a racy read is only a hint). */
	slot = READ_ONCE(pid_map[pid % PID_MAP_SIZE]);
	if (slot < b->num && READ_ONCE(saved[slot].pid) == pid &&
	    comm_equal(saved[slot].comm, comm))
		return;
	local_irq_save(flags);
	if (!spin_trylock(&cmdline_lock)) {
		local_irq_restore(flags);
		return;
	}
	if (b != savedcmd)
		goto out;	/* replaced meanwhile: the next switch saves into the new one */
	slot = pid_map[pid % PID_MAP_SIZE];
	if (slot == NO_SLOT || saved[slot].pid != pid) {
		slot = (u16)b->next_slot;
		b->next_slot = (b->next_slot + 1) % b->num;
		if (saved[slot].pid >= 0 && pid_map[saved[slot].pid % PID_MAP_SIZE] == slot)
			pid_map[saved[slot].pid % PID_MAP_SIZE] = NO_SLOT;
		saved[slot].pid = pid;
		pid_map[pid % PID_MAP_SIZE] = slot;
	}
	/* All 16 bytes, so the next comparison sees the same padding. */
	memcpy(saved[slot].comm, comm, sizeof(saved[slot].comm));
	saved[slot].comm[sizeof(saved[slot].comm) - 1] = '\0';
out:
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
	if (savedcmd) {
		slot = pid_map[pid % PID_MAP_SIZE];
		if (slot < savedcmd->num && savedcmd->saved[slot].pid == pid)
			strscpy(comm, savedcmd->saved[slot].comm, 16);
	}
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
}

/*
 * saved_cmdlines: "<pid> <comm>" per remembered task, copied out under the
 * lock first. trace_types_lock keeps the table's size while it is copied.
 */
void trace_cmdlines_show(struct seq_file *m)
{
	struct saved_cmdline *copy;
	unsigned long flags;
	unsigned int n = 0;

	trace_types_lock();
	copy = savedcmd ? kmalloc(savedcmd->num * sizeof(*copy), GFP_KERNEL) : NULL;
	local_irq_save(flags);
	spin_lock(&cmdline_lock);
	for (unsigned int i = 0; copy && i < savedcmd->num; i++) {
		struct saved_cmdline *c = &savedcmd->saved[i];

		if (c->pid >= 0 && pid_map[c->pid % PID_MAP_SIZE] == i)
			copy[n++] = *c;
	}
	spin_unlock(&cmdline_lock);
	local_irq_restore(flags);
	trace_types_unlock();
	for (unsigned int i = 0; i < n; i++)
		seq_printf(m, "%d %s\n", copy[i].pid, copy[i].comm);
	kfree(copy);
}

unsigned int trace_cmdlines_size(void)
{
	return cmdlines_capacity(READ_ONCE(savedcmd_num) ?: SAVED_CMDLINES_DEFAULT);
}

/*
 * saved_cmdlines_size: 1 to PID_MAX slots (Linux's PID_MAX_DEFAULT),
 * rounded up; the table starts empty. Caller holds trace_types_lock.
 */
int trace_cmdlines_resize(unsigned long n)
{
	struct saved_cmdlines_buffer *b;

	if (!n || n > 32768)
		return -EINVAL;
	savedcmd_num = (unsigned int)n;
	if (!savedcmd)
		return 0;	/* made at the first start */
	b = cmdlines_alloc(cmdlines_capacity(savedcmd_num));
	if (!b)
		return -ENOMEM;
	b = cmdlines_install(b);
	synchronize_rcu();	/* probes read the old one locklessly */
	kfree(b);
	return 0;
}

/* Caller holds trace_types_lock (enabling and disabling events). */
void trace_cmdlines_start(void)
{
	if (!savedcmd) {
		struct saved_cmdlines_buffer *b = cmdlines_alloc(trace_cmdlines_size());

		if (b)
			cmdlines_install(b);
	}
	if (cmdline_users++ == 0 && !cmdline_off)
		trace_cmdlines_attach(true);
}

void trace_cmdlines_stop(void)
{
	if (cmdline_users && --cmdline_users == 0 && !cmdline_off)
		trace_cmdlines_attach(false);
}

/*
 * The record-cmd option. Linux clears it on every event file of every
 * array when one array turns it off; here saving stops while any array
 * has it off. Caller holds trace_types_lock.
 */
void trace_cmdlines_record(bool on)
{
	if (on) {
		if (cmdline_off && --cmdline_off == 0 && cmdline_users)
			trace_cmdlines_attach(true);
	} else if (cmdline_off++ == 0 && cmdline_users) {
		trace_cmdlines_attach(false);
	}
}
