/*
 * Saved tgids, Linux's record-tgid option: a map from pid to thread-group
 * id, made the first time an array turns the option on and kept after
 * (saved_tgids still lists what was seen, as on Linux). Every task is its
 * own thread group in Spoor, so the column repeats the pid, as Linux's
 * does for single-threaded tasks. Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/rcu.h>
#include <kernel/fs/tracefs.h>
#include <trace/trace.h>
#include <trace/trace_files.h>

#define TGID_MAP_PIDS	32768	/* pids 0..PID_MAX-1 (kernel/sched.h) */

static pid_t *tgid_map;		/* [pid]: 0 unknown; set once, never freed */
static unsigned int tgid_users;	/* arrays with record-tgid on */

void trace_save_tgid(pid_t pid, pid_t tgid)
{
	pid_t *map = rcu_dereference(tgid_map);

	if (map && pid > 0 && pid < TGID_MAP_PIDS)
		WRITE_ONCE(map[pid], tgid);
}

pid_t trace_find_tgid(pid_t pid)
{
	pid_t *map = rcu_dereference(tgid_map);

	return map && pid > 0 && pid < TGID_MAP_PIDS ? READ_ONCE(map[pid]) : 0;
}

int trace_tgids_record(bool on)
{
	if (!on) {
		if (tgid_users && --tgid_users == 0)
			trace_tgids_attach(false);
		return 0;
	}
	if (!tgid_map) {
		pid_t *map = kcalloc(TGID_MAP_PIDS, sizeof(*map), GFP_KERNEL);

		if (!map)
			return -ENOMEM;
		rcu_assign_pointer(tgid_map, map);
	}
	if (tgid_users++ == 0) {
		int ret = trace_tgids_attach(true);

		if (ret) {
			tgid_users--;
			return ret;
		}
	}
	return 0;
}

/* saved_tgids: "<pid> <tgid>" for every pid seen, by pid. */
static int saved_tgids_show(struct seq_file *m, void *v)
{
	for (pid_t pid = 1; pid < TGID_MAP_PIDS; pid++) {
		pid_t tgid = trace_find_tgid(pid);

		if (tgid)
			seq_printf(m, "%d %d\n", pid, tgid);
	}
	return 0;
}
TRACE_SHOW_FILE(saved_tgids)

static const struct file_operations saved_tgids_fops = {
	.open = saved_tgids_open,
	.read = seq_read,
	.release = tr_single_release,
};

const struct trace_file_spec trace_tgids_files[] = {
	{ "saved_tgids", TRACE_MODE_READ, &saved_tgids_fops },
	{ }
};
