/*
 * What the VFS tests stand in for: the current task's file state (one
 * table and cwd per test thread) and the scheduler under kernel/sched/
 * wait.c and kernel/locking/mutex.c, where a "sleeping" thread polls, so
 * blocking pipes and contended locks work between host threads.
 */
#ifndef TESTS_UNIT_VFS_SHIM_H
#define TESTS_UNIT_VFS_SHIM_H

#include <kernel/fs/fdtable.h>
/* libc's <stdlib.h> (through Criterion) has its own wait-status macros. */
#undef WEXITSTATUS
#undef WTERMSIG
#undef WIFEXITED
#include <kernel/fs/pipe.h>
#include <unistd.h>

static __thread struct files_struct *test_files;
static __thread struct fs_struct *test_fs;
static __thread struct task_struct test_task;

struct files_struct *current_files(void) { return test_files; }
struct fs_struct *current_fs(void) { return test_fs; }

DEFINE_PER_CPU(struct task_struct *, current_task);

bool wake_up_state(struct task_struct *p, unsigned int state)
{
	return true;
}

long schedule_timeout(long timeout)
{
	usleep(100);
	return timeout;
}

/* A mutex waiter (seq_file's lock) naps the same way, then looks again. */
void schedule(void)
{
	usleep(100);
}

bool wake_up_process(struct task_struct *p)
{
	return true;
}

bool fatal_signal_pending(const struct task_struct *p)
{
	return false;
}

/* A test thread as a task on CPU cpu, with its own descriptor table and cwd "/". */
static inline void test_task_start(int cpu)
{
	host_cpu_id = cpu;
	this_cpu_write(current_task, &test_task);
	cr_assert_eq(vfs_init(), 0);
	test_files = alloc_files();
	test_fs = alloc_fs_struct(NULL);
}

static inline void test_task_end(void)
{
	put_files_struct(test_files);
	free_fs_struct(test_fs);
	test_files = NULL;
	test_fs = NULL;
}

#endif
