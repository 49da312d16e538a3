/*
 * perf_event_open(2) and the perf event file: read(2) with read_format,
 * the PERF_EVENT_IOC_* ioctls, poll(2), and close. Checks and errno values
 * are Linux 6.12's for the cases perf's tools and selftests meet.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/fcntl.h>
#include <kernel/fs/fdtable.h>
#include <asm/uaccess.h>
#include <trace/trace_event.h>
#include <trace/trace_filter.h>
#include <trace/perf_event.h>

#define PERF_FLAGS_KNOWN	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/* The perf event behind fd, with the file referenced (fput it), or NULL. */
static struct perf_event *perf_fget(int fd, struct file **filep)
{
	struct file *f = fget(fd);

	if (!f)
		return NULL;
	if (f->f_op != &perf_fops) {
		fput(f);
		return NULL;
	}
	*filep = f;
	return f->private_data;
}

/* Copy the attr as Linux does: any size from VER0 up, unknown tail bytes zero. */
static int perf_copy_attr(struct perf_event_attr *uattr, struct perf_event_attr *attr)
{
	u32 size;
	u8 tail[64];

	memset(attr, 0, sizeof(*attr));
	if (copy_from_user(&size, &uattr->size, sizeof(size)))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096)
		goto too_big;
	if (copy_from_user(attr, uattr, size < sizeof(*attr) ? size : sizeof(*attr)))
		return -EFAULT;
	for (u32 off = sizeof(*attr); off < size; off += sizeof(tail)) {
		u32 n = size - off < sizeof(tail) ? size - off : (u32)sizeof(tail);

		if (copy_from_user(tail, (const u8 *)uattr + off, n))
			return -EFAULT;
		for (u32 i = 0; i < n; i++)
			if (tail[i])
				goto too_big;
	}
	attr->size = size;
	return 0;
too_big:
	size = sizeof(*attr);
	copy_to_user((u32 *)&uattr->size, &size, sizeof(size));
	return -E2BIG;
}

static int perf_check_attr(const struct perf_event_attr *attr)
{
	if (attr->flags & ~PERF_ATTR_FLAG_KNOWN)
		return -EINVAL;
	if (attr->sample_type & ~(u64)PERF_SAMPLE_SUPPORTED)
		return -EINVAL;
	if (attr->read_format & ~(u64)(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if ((attr->flags & PERF_ATTR_FLAG_FREQ) && !attr->sample_freq)
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_READ) && (attr->flags & PERF_ATTR_FLAG_INHERIT) &&
	    !(attr->read_format & PERF_FORMAT_GROUP))
		return -EINVAL;	/* Linux 6.12 allows inherited SAMPLE_READ for groups only */
	return 0;
}

static int perf_pmu_init(struct perf_event *event)
{
	switch (event->attr.type) {
	case PERF_TYPE_TRACEPOINT:
		return perf_tp_event_init(event);
	case PERF_TYPE_SOFTWARE:
		return perf_sw_event_init(event);
	default:
		return -ENOENT;	/* no hardware PMU */
	}
}

/* The task pid names: 0 the caller, -ESRCH if none; referenced. */
static struct task_struct *perf_find_task(pid_t pid)
{
	struct task_struct *p;

	if (!pid)
		p = current;
	else {
		spin_lock(&tasklist_lock);
		p = find_task_by_pid(pid);
		if (p)
			get_task_struct(p);
		spin_unlock(&tasklist_lock);
		return p ? p : ERR_PTR(-ESRCH);
	}
	get_task_struct(p);
	return p;
}

SYSCALL_DEFINE5(perf_event_open, struct perf_event_attr *, uattr, pid_t, pid, int, cpu,
		int, group_fd, unsigned long, flags)
{
	struct perf_event_attr attr;
	struct perf_event *event, *leader = NULL;
	struct task_struct *task = NULL;
	struct file *group_file = NULL, *f;
	struct inode *inode;
	int err, fd;

	if (flags & ~PERF_FLAGS_KNOWN)
		return -EINVAL;
	if (flags & PERF_FLAG_PID_CGROUP)
		return -EINVAL;	/* no cgroups */
	err = perf_copy_attr(uattr, &attr);
	if (err)
		return err;
	err = perf_check_attr(&attr);
	if (err)
		return err;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	if (cpu < -1)
		return -EINVAL;
	if (cpu >= (int)nr_cpu_ids)
		return -ENODEV;
	if (group_fd != -1) {
		leader = perf_fget(group_fd, &group_file);
		if (!leader)
			return -EBADF;
	}
	if (pid != -1) {
		task = perf_find_task(pid);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			task = NULL;
			goto out;
		}
	}
	err = -EINVAL;
	if (leader && (leader->group_leader != leader || leader->cpu != cpu ||
		       leader->task != task || leader->parent))
		goto out;
	perf_reclaim();
	err = -ENOMEM;
	event = perf_event_alloc(&attr, cpu, task, leader, NULL);
	if (!event)
		goto out;
	err = perf_pmu_init(event);
	if (err) {
		perf_event_put(event);
		goto out;
	}
	inode = new_inode(S_IFREG | 0600);
	f = inode ? alloc_file(inode, O_RDWR, &perf_fops) : NULL;
	if (!f) {
		perf_event_release(event);
		err = -ENOMEM;
		goto out;
	}
	f->private_data = event;
	if (leader) {
		unsigned long irqf;

		spin_lock_irqsave(&perf_lock, irqf);
		list_add_tail(&event->sibling_list, &leader->sibling_list);
		leader->nr_siblings++;
		spin_unlock_irqrestore(&perf_lock, irqf);
	}
	if (!(attr.flags & (PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_ENABLE_ON_EXEC)))
		perf_event_enable(event);
	err = perf_task_track(event);
	if (err) {
		fput(f);
		goto out;
	}
	fd = fd_install(current_files(), f, 0);
	if (fd < 0) {
		fput(f);
		err = fd;
		goto out;
	}
	if (flags & PERF_FLAG_FD_CLOEXEC)
		set_close_on_exec(current_files(), fd, true);
	err = fd;
out:
	if (task)
		put_task_struct(task);
	if (group_file)
		fput(group_file);
	return err;
}

static ssize_t perf_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct perf_event *event = file->private_data;
	size_t size = perf_event_read_size(event) * sizeof(u64);
	u64 *values;

	if (count < size)
		return -ENOSPC;
	values = kmalloc(size, GFP_KERNEL);
	if (!values)
		return -ENOMEM;
	perf_event_read_values(event, false, values);
	memcpy(buf, values, size);
	kfree(values);
	return (ssize_t)size;
}

/* Apply fn to the event (and its group with PERF_IOC_FLAG_GROUP) and their children. */
static void perf_for_each(struct perf_event *event, unsigned long arg,
			  void (*fn)(struct perf_event *))
{
	struct perf_event *leader = event->group_leader, *sib, *child;
	unsigned long flags;

	if (!(arg & PERF_IOC_FLAG_GROUP))
		leader = event;
	spin_lock_irqsave(&perf_lock, flags);
	fn(leader);
	list_for_each_entry(child, &leader->child_list, child_list)
		fn(child);
	if (leader == event->group_leader && (arg & PERF_IOC_FLAG_GROUP)) {
		list_for_each_entry(sib, &leader->sibling_list, sibling_list) {
			fn(sib);
			list_for_each_entry(child, &sib->child_list, child_list)
				fn(child);
		}
	}
	spin_unlock_irqrestore(&perf_lock, flags);
}

static void perf_reset(struct perf_event *event)
{
	atomic64_set(&event->count, 0);
	event->child_count = 0;
	event->clock_base = perf_event_clock(event);
}

static long perf_set_filter(struct perf_event *event, const char *ustr)
{
	struct trace_event_call *call = perf_tp_event_call(event);
	struct event_filter *filter;
	struct filter_error ferr;
	char *str;
	long err;

	if (event->attr.type != PERF_TYPE_TRACEPOINT || !call)
		return -EINVAL;
	if (event->filter)
		return -EEXIST;
	str = kmalloc(4096, GFP_KERNEL);
	if (!str)
		return -ENOMEM;
	err = strncpy_from_user(str, ustr, 4096);
	if (err >= 0 && err < 4096)
		err = filter_parse(call, str, &filter, &ferr);
	else if (err >= 0)
		err = -E2BIG;
	kfree(str);
	if (err)
		return err == -ENOMEM || err == -EFAULT ? err : -EINVAL;
	WRITE_ONCE(event->filter, filter);
	return 0;
}

static long perf_set_output(struct perf_event *event, int fd)
{
	struct perf_event *target;
	struct perf_buffer *old;
	struct file *tf;

	if (fd == -1) {
		old = event->rb;
		WRITE_ONCE(event->rb, NULL);
		if (old)
			perf_buffer_put(old);
		return 0;
	}
	target = perf_fget(fd, &tf);
	if (!target)
		return -EBADF;
	if (target == event) {
		fput(tf);
		return 0;
	}
	/* one ring per CPU or per task: the writers must be where the ring is */
	if ((target->cpu != -1 && target->cpu != event->cpu) || target->task != event->task ||
	    !target->rb || event->rb) {
		fput(tf);
		return event->rb ? -EBUSY : -EINVAL;
	}
	WRITE_ONCE(event->rb, perf_buffer_get(target->rb));
	fput(tf);
	return 0;
}

static long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = file->private_data;
	u64 value;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		perf_for_each(event, arg, perf_event_enable);
		break;
	case PERF_EVENT_IOC_DISABLE:
		perf_for_each(event, arg, perf_event_disable);
		break;
	case PERF_EVENT_IOC_RESET:
		perf_for_each(event, arg, perf_reset);
		break;
	case PERF_EVENT_IOC_REFRESH:
		if ((event->attr.flags & PERF_ATTR_FLAG_INHERIT) || !event->sample_period)
			return -EINVAL;
		__atomic_add_fetch(&event->event_limit, (int)arg, __ATOMIC_RELAXED);
		perf_for_each(event, 0, perf_event_enable);
		break;
	case PERF_EVENT_IOC_PERIOD:
		if (copy_from_user(&value, (void *)arg, sizeof(value)))
			return -EFAULT;
		if (!event->sample_period || !value)
			return -EINVAL;
		if (event->attr.flags & PERF_ATTR_FLAG_FREQ)
			event->attr.sample_freq = value;
		else
			event->attr.sample_period = event->sample_period = value;
		atomic64_set(&event->period_left, (long)event->sample_period);
		break;
	case PERF_EVENT_IOC_ID:
		value = event->id;
		if (copy_to_user((void *)arg, &value, sizeof(value)))
			return -EFAULT;
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_set_output(event, (int)arg);
	case PERF_EVENT_IOC_SET_FILTER:
		return perf_set_filter(event, (const char *)arg);
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		if (!event->rb)
			return -EINVAL;
		WRITE_ONCE(event->rb->ring.paused, !!arg);
		break;
	default:
		return -ENOTTY;
	}
	perf_event_update_userpage(event);
	return 0;
}

static unsigned int perf_poll(struct file *file)
{
	struct perf_event *event = file->private_data;
	struct perf_buffer *rb = READ_ONCE(event->rb);

	return rb ? perf_ring_poll(&rb->ring) : 0;
}

static int perf_release(struct inode *inode, struct file *file)
{
	perf_event_release(file->private_data);
	return 0;
}

const struct file_operations perf_fops = {
	.read = perf_read,
	.release = perf_release,
	.mmap = perf_mmap,
	.unlocked_ioctl = perf_ioctl,
	.poll = perf_poll,
};
