/*
 * The OOM killer. A user page fault that finds no free page is not the
 * faulting process's error, so it gets no signal for it: as on Linux, the
 * process holding the most memory is killed, with every process sharing
 * its address space (a vfork parent and child), and the faulting
 * instruction runs again once memory is back (or its own process was one
 * of those killed).
 *
 * Never chosen: kernel threads, init (pid 1), tasks without an address
 * space. While an earlier victim is still on its way out, no second one is
 * chosen: its pages are about to come back, and killing on every fault of
 * every starved process would empty the system. "On its way out" lasts
 * until its address space is torn down (oom_mm_released), not only while
 * it is listed as dying: between its exit and the last of its pages being
 * freed, another process's fault would otherwise find no victim to wait
 * for and kill a second one.
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/delay.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/string.h>

/* What the kill message says about the victim, read while it cannot go away. */
struct oom_victim {
	struct mm_struct *mm;		/* a user reference, so its teardown waits for the mark */
	pid_t pid;
	char comm[TASK_COMM_LEN];
	unsigned long total_vm, rss;	/* pages */
};

/* Address spaces of killed processes whose pages are not all free yet. */
static int oom_victims;

void oom_mm_released(struct mm_struct *mm)
{
	if (mm->oom_victim)
		__atomic_sub_fetch(&oom_victims, 1, __ATOMIC_RELEASE);
}

/* A thread group that has been told to end and still holds its memory. */
static bool oom_dying(const struct task_struct *p)
{
	return p->signal && READ_ONCE(p->signal->group_exit);
}

/* A process (thread-group leader) the killer may choose. */
static bool oom_killable(const struct task_struct *p)
{
	return p->mm && !(p->flags & PF_KTHREAD) && p->pid != 1 && p->tgid == p->pid;
}

/*
 * Kills the process with the most resident pages, and those sharing its
 * memory, and describes it in v. Returns 1 when it did, 0 when a process
 * killed before still holds memory (wait for it), -1 when there is none.
 */
static int oom_kill_biggest(struct oom_victim *v)
{
	const struct ksiginfo info = { .code = SI_KERNEL };
	struct task_struct *p, *victim = NULL;
	unsigned long best = 0;
	int ret = -1;

	spin_lock(&tasklist_lock);
	if (__atomic_load_n(&oom_victims, __ATOMIC_ACQUIRE)) {
		ret = 0;
		goto out;
	}
	list_for_each_entry(p, &task_list, tasks) {
		if (!oom_killable(p))
			continue;
		if (oom_dying(p)) {
			ret = 0;
			goto out;
		}
		if (p->mm->rss > best) {
			best = p->mm->rss;
			victim = p;
		}
	}
	if (!victim)
		goto out;
	if (!mmget_not_zero(victim->mm)) {
		ret = 0;		/* exiting: its pages are on their way back */
		goto out;
	}
	v->mm = victim->mm;
	v->pid = victim->pid;
	memcpy(v->comm, victim->comm, sizeof(v->comm));
	v->total_vm = victim->mm->total_vm;
	v->rss = victim->mm->rss;
	victim->mm->oom_victim = true;
	__atomic_add_fetch(&oom_victims, 1, __ATOMIC_RELEASE);
	list_for_each_entry(p, &task_list, tasks)
		if (p != victim && oom_killable(p) && p->mm == victim->mm)
			send_sig_info(SIGKILL, &info, p, true);
	send_sig_info(SIGKILL, &info, victim, true);
	ret = 1;
out:
	spin_unlock(&tasklist_lock);
	return ret;
}

bool pagefault_out_of_memory(void)
{
	struct oom_victim v;
	int r;

	if (fatal_signal_pending(current) || oom_dying(current))
		return true;		/* on its way out: the retry ends it */
	r = oom_kill_biggest(&v);
	if (r < 0)
		return false;
	if (r > 0) {
		/* Linux's two lines, less what Spoor does not keep per process (page tables, files). */
		printk(KERN_WARNING "%s invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), "
		       "order=0, oom_score_adj=0\n", current->comm);
		printk(KERN_ERR "Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
		       "file-rss:0kB, shmem-rss:0kB, UID:0 oom_score_adj:0\n", v.pid, v.comm,
		       v.total_vm * (PAGE_SIZE / 1024), v.rss * (PAGE_SIZE / 1024));
		mmput(v.mm);	/* the last one, if the victim is gone already: then it is released here */
	}
	if (!oom_dying(current))
		msleep(1);		/* give the victim a moment to let go */
	return true;
}
