/*
 * /sys/kernel/tracing/user_events_data and user_events_status.
 *
 * user_events_data: DIAG_IOCSREG registers an event and gives back its
 * write index on this open file; a write()/writev() starting with that
 * index is one record. struct user_reg's size tells the ABIs apart: 28
 * bytes or more is the current one (an enable bit in the program's
 * memory), 20 up to 27 the first one (a bit in the mmap'd status page).
 * DIAG_IOCSUNREG drops an enable bit, DIAG_IOCSDEL deletes an event.
 *
 * user_events_status: read, the events and who uses them (Linux 6.12's
 * text); mmap'd, the first ABI's page of status bits.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/err.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/preempt.h>
#include <kernel/rcu.h>
#include <kernel/mm.h>
#include <kernel/mman.h>
#include <kernel/fs/fs.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/tracefs.h>
#include <asm/uaccess.h>
#include <asm/page.h>
#include <trace/trace.h>
#include <trace/user_events.h>

/* The ioctls (uapi linux/user_events.h): the size encoded is a pointer's. */
#define DIAG_IOCSREG	0xc0082a00u
#define DIAG_IOCSDEL	0x40082a01u
#define DIAG_IOCSUNREG	0x40082a02u

/* The current ABI's registration (packed, 28 bytes). */
struct user_reg {
	u32 size;
	u8 enable_bit;
	u8 enable_size;
	u16 flags;
	u64 enable_addr;
	u64 name_args;
	u32 write_index;
} __packed;

/* The first ABI's registration (packed, 20 bytes). */
struct user_reg_v0 {
	u32 size;
	u64 name_args;
	u32 status_bit;
	u32 write_index;
} __packed;

struct user_unreg {
	u32 size;
	u8 disable_bit;
	u8 reserved;
	u16 reserved2;
	u64 disable_addr;
} __packed;

/*
 * The events an open data file registered, by write index. Writers read
 * it with preemption off and no lock; a registration replaces it whole
 * and frees the old one after a grace period.
 */
struct user_event_refs {
	unsigned int count;
	struct user_event *events[];	/* each referenced */
};

/* Records up to this size are built on the writer's stack. */
#define USER_EVENT_STACK_REC	256

/* --- registering ---------------------------------------------------------------------- */

/* This file's index for user, adding it (with a reference) the first time. */
static long user_events_ref_add(struct file *file, struct user_event *user)
{
	struct user_event_refs *old = file->private_data, *new;
	unsigned int n = old ? old->count : 0;

	for (unsigned int i = 0; i < n; i++)
		if (old->events[i] == user)
			return i;
	new = kmalloc(sizeof(*new) + (n + 1) * sizeof(new->events[0]), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	if (old)
		memcpy(new->events, old->events, n * sizeof(new->events[0]));
	new->events[n] = user;
	new->count = n + 1;
	user_event_get(user);
	rcu_assign_pointer(file->private_data, new);
	if (old) {
		synchronize_rcu();
		kfree(old);
	}
	return n;
}

/* A registration string from ring 3, as Linux's strndup_user: -EFAULT, -EINVAL (too long). */
static char *user_string(u64 uaddr)
{
	char *s = kmalloc(USER_EVENT_DESC_MAX, GFP_KERNEL);
	long n;

	if (!s)
		return ERR_PTR(-ENOMEM);
	n = strncpy_from_user(s, (const char *)uaddr, USER_EVENT_DESC_MAX);
	if (n < 0 || n >= USER_EVENT_DESC_MAX) {
		kfree(s);
		return ERR_PTR(n < 0 ? -EFAULT : -EINVAL);
	}
	return s;
}

/*
 * Copy a size-prefixed struct in, as copy_struct_from_user: a shorter
 * one is zero-extended, a longer one must be zero past what we know.
 */
static int user_struct_copy(void *dst, size_t dst_size, const u8 *usrc, u32 size)
{
	u8 b;

	memset(dst, 0, dst_size);
	if (copy_from_user(dst, usrc, min((size_t)size, dst_size)))
		return -EFAULT;
	for (size_t i = dst_size; i < size; i++) {
		if (get_user(b, usrc + i))
			return -EFAULT;
		if (b)
			return -E2BIG;
	}
	return 0;
}

/* Register and keep a reference for this file: its write index, or -errno. */
static long user_events_reg_event(struct file *file, u64 name_args, u32 flags,
				  struct user_event **out)
{
	char *cmd = user_string(name_args);
	struct user_event *user;
	long idx;

	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	trace_types_lock();
	user = user_event_register(cmd, flags);
	if (IS_ERR(user)) {
		trace_types_unlock();
		kfree(cmd);
		return PTR_ERR(user);
	}
	idx = user_events_ref_add(file, user);
	user_event_put(user);	/* the file's reference keeps it now */
	*out = user;
	trace_types_unlock();
	kfree(cmd);
	return idx;
}

/* The first ABI: an index and a status-page bit. */
static long user_events_ioctl_reg_v0(struct file *file, struct user_reg_v0 *ureg, u32 size)
{
	struct user_reg_v0 reg;
	struct user_event *user;
	long idx;
	int ret = user_struct_copy(&reg, sizeof(reg), (const u8 *)ureg, size);

	if (ret)
		return ret;
	idx = user_events_reg_event(file, reg.name_args, 0, &user);
	if (idx < 0)
		return idx;
	trace_types_lock();
	if (!user->status_bit) {
		user->status_bit = user_event_status_bit_alloc();
		user_event_status_page_update(user);
	}
	reg.status_bit = user->status_bit;
	trace_types_unlock();
	if (!reg.status_bit)
		return -EMFILE;
	if (put_user(reg.status_bit, &ureg->status_bit) || put_user((u32)idx, &ureg->write_index))
		return -EFAULT;
	return 0;
}

static long user_events_ioctl_reg(struct file *file, struct user_reg *ureg)
{
	struct user_reg reg;
	struct user_event *user;
	long idx;
	u32 size;
	int ret;

	if (get_user(size, &ureg->size))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size >= sizeof(struct user_reg_v0) && size < sizeof(reg))
		return user_events_ioctl_reg_v0(file, (struct user_reg_v0 *)ureg, size);
	if (size < sizeof(reg))
		return -EINVAL;
	ret = user_struct_copy(&reg, sizeof(reg), (const u8 *)ureg, size);
	if (ret)
		return ret;
	if (reg.flags & ~(USER_EVENT_REG_MAX - 1))
		return -EINVAL;
	if ((reg.enable_size != 4 && reg.enable_size != 8) || reg.enable_addr % reg.enable_size ||
	    reg.enable_bit >= reg.enable_size * 8)
		return -EINVAL;
	if (!access_ok(reg.enable_addr, reg.enable_size))
		return -EFAULT;
	trace_types_lock();
	ret = user_event_enabler_exists(reg.enable_addr, reg.enable_bit) ? -EADDRINUSE : 0;
	trace_types_unlock();
	if (ret)
		return ret;
	idx = user_events_reg_event(file, reg.name_args, reg.flags, &user);
	if (idx < 0)
		return idx;
	/* from here the file holds the event, whatever the enabler does */
	trace_types_lock();
	ret = user_event_enabler_create(user, reg.enable_addr, reg.enable_bit, reg.enable_size);
	trace_types_unlock();
	if (ret)
		return ret;
	return put_user((u32)idx, &ureg->write_index);
}

static long user_events_ioctl_unreg(struct user_unreg *uunreg)
{
	struct user_unreg unreg;
	u32 size;
	int ret;

	if (get_user(size, &uunreg->size))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < sizeof(unreg))
		return -EINVAL;
	ret = user_struct_copy(&unreg, sizeof(unreg), (const u8 *)uunreg, size);
	if (ret)
		return ret;
	if (unreg.reserved || unreg.reserved2)
		return -EINVAL;
	trace_types_lock();
	ret = user_event_enabler_remove(unreg.disable_addr, unreg.disable_bit);
	trace_types_unlock();
	return ret;
}

static long user_events_ioctl_del(const char *uname)
{
	char *name = user_string((u64)uname);
	int ret;

	if (IS_ERR(name))
		return PTR_ERR(name);
	trace_types_lock();
	ret = user_event_delete(name);
	trace_types_unlock();
	kfree(name);
	return ret;
}

static long user_events_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case DIAG_IOCSREG:
		return user_events_ioctl_reg(file, (struct user_reg *)arg);
	case DIAG_IOCSDEL:
		return user_events_ioctl_del((const char *)arg);
	case DIAG_IOCSUNREG:
		return user_events_ioctl_unreg((struct user_unreg *)arg);
	default:
		return -ENOTTY;
	}
}

/* --- writing ------------------------------------------------------------------------------- */

/* Copy len bytes starting at byte `from` of the segments to dst: 0 or -EFAULT. */
static int iov_copy(void *dst, const struct iovec_user *iov, int cnt, size_t from, size_t len)
{
	for (int i = 0; i < cnt && len; i++) {
		size_t n;

		if (from >= iov[i].len) {
			from -= iov[i].len;
			continue;
		}
		n = min(iov[i].len - from, len);
		if (copy_from_user(dst, (const void *)(iov[i].base + from), n))
			return -EFAULT;
		dst = (u8 *)dst + n;
		len -= n;
		from = 0;
	}
	return 0;
}

static struct user_event *user_events_lookup(struct file *file, s32 idx)
{
	struct user_event_refs *refs;
	struct user_event *user = NULL;

	preempt_disable();
	refs = rcu_dereference(file->private_data);
	if (refs && (u32)idx < refs->count)
		user = refs->events[idx];
	preempt_enable();
	return user;
}

static ssize_t user_events_write_iov(struct file *file, const struct iovec_user *iov, int cnt)
{
	u8 stack_rec[USER_EVENT_STACK_REC] __aligned(8), *rec = stack_rec;
	struct user_event *user;
	size_t total = 0, payload;
	s32 idx;
	int ret;

	for (int i = 0; i < cnt; i++) {
		if ((ssize_t)iov[i].len < 0 || total + iov[i].len < total)
			return -EINVAL;
		total += iov[i].len;
	}
	if (total < sizeof(idx) || iov_copy(&idx, iov, cnt, 0, sizeof(idx)))
		return -EFAULT;
	if (idx < 0)
		return -EINVAL;
	user = user_events_lookup(file, idx);
	if (!user)
		return -ENOENT;
	payload = total - sizeof(idx);
	if (payload + sizeof(struct trace_entry) < user->fields.size)
		return -EINVAL;
	if (!READ_ONCE(user->tp.funcs))
		return -EBADF;
	/* too big for any ring: dropped, as Linux's failed reserve is */
	if (payload + sizeof(struct trace_entry) > 0xffff)
		return (ssize_t)total;
	if (payload + sizeof(struct trace_entry) > sizeof(stack_rec)) {
		rec = kmalloc(payload + sizeof(struct trace_entry), GFP_KERNEL);
		if (!rec)
			return -ENOMEM;
	}
	/* the common fields are the probe's to fill: the payload goes after them */
	ret = iov_copy(rec + sizeof(struct trace_entry), iov, cnt, sizeof(idx), payload);
	if (!ret)
		ret = user_event_emit(user, rec, (u32)(payload + sizeof(struct trace_entry)));
	if (rec != stack_rec)
		kfree(rec);
	return ret ? ret : (ssize_t)total;
}

/* The last close: the file's references to its events go. */
static int user_events_release(struct inode *inode, struct file *file)
{
	struct user_event_refs *refs = file->private_data;

	if (!refs)
		return 0;
	trace_types_lock();
	for (unsigned int i = 0; i < refs->count; i++)
		user_event_put(refs->events[i]);
	trace_types_unlock();
	kfree(refs);
	return 0;
}

static const struct file_operations user_events_data_fops = {
	.write_iov = user_events_write_iov,
	.unlocked_ioctl = user_events_ioctl,
	.release = user_events_release,
};

/* --- user_events_status ---------------------------------------------------------------------- */

/* The first ABI's status page: bit N set while event N is traced. Bit 0 is never given. */
static u8 *user_events_status_page;
static unsigned int user_events_next_bit = 1;
static unsigned int user_events_free_bits[64];
static unsigned int user_events_nr_free_bits;

unsigned int user_event_status_bit_alloc(void)
{
	if (user_events_nr_free_bits)
		return user_events_free_bits[--user_events_nr_free_bits];
	if (!user_events_status_page || user_events_next_bit >= PAGE_SIZE * 8)
		return 0;
	return user_events_next_bit++;
}

void user_event_status_bit_free(unsigned int bit)
{
	__atomic_fetch_and(&user_events_status_page[bit / 8], (u8)~(1u << (bit % 8)),
			   __ATOMIC_RELAXED);
	if (user_events_nr_free_bits < ARRAY_SIZE(user_events_free_bits))
		user_events_free_bits[user_events_nr_free_bits++] = bit;
}

void user_event_status_page_update(struct user_event *user)
{
	unsigned int bit = user->status_bit;
	u8 mask = (u8)(1u << (bit % 8));

	if (!bit)
		return;
	if (user_event_enabled(user))
		__atomic_fetch_or(&user_events_status_page[bit / 8], mask, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&user_events_status_page[bit / 8], (u8)~mask, __ATOMIC_RELAXED);
}

static u64 user_events_status_fault(struct vm_area_struct *vma, unsigned long pgoff)
{
	return pgoff ? (u64)-1 : __pa(user_events_status_page) >> PAGE_SHIFT;
}

static const struct vm_operations_struct user_events_status_vm_ops = {
	.fault_pfn = user_events_status_fault,
};

/* One page, read-only: programs only look at it. */
static int user_events_status_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->end - vma->start != PAGE_SIZE || vma->pgoff)
		return -EINVAL;
	if (vma->flags & VM_WRITE)
		return -EPERM;
	vma->flags |= VM_PFNMAP;
	vma->vm_ops = &user_events_status_vm_ops;
	return 0;
}

static int user_events_status_show(struct seq_file *m, void *v)
{
	struct user_event *user;
	unsigned int active = 0, busy = 0;

	trace_types_lock();
	list_for_each_entry(user, &user_events_list, list) {
		unsigned int status = READ_ONCE(user->status);

		seq_puts(m, user->tp_name);
		if (status) {
			seq_puts(m, " # Used by");
			if (status & USER_EVENT_STATUS_FTRACE)
				seq_puts(m, " ftrace");
			if (status & USER_EVENT_STATUS_PERF)
				seq_puts(m, " perf");
			if (status & USER_EVENT_STATUS_OTHER)
				seq_puts(m, " other");
			busy++;
		}
		seq_puts(m, "\n");
		active++;
	}
	trace_types_unlock();
	seq_printf(m, "\nActive: %u\nBusy: %u\n", active, busy);
	return 0;
}

static int user_events_status_open(struct inode *inode, struct file *file)
{
	return single_open(file, user_events_status_show, NULL);
}

static const struct file_operations user_events_status_fops = {
	.open = user_events_status_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.mmap = user_events_status_mmap,
};

int user_events_files_init(void)
{
	struct dentry *d;

	user_events_status_page = (u8 *)get_zeroed_page(GFP_KERNEL);
	if (!user_events_status_page)
		return -ENOMEM;
	d = tracefs_create_file("user_events_data", TRACE_MODE_WRITE, NULL, NULL,
				&user_events_data_fops);
	if (!IS_ERR(d))
		d = tracefs_create_file("user_events_status", TRACE_MODE_READ, NULL, NULL,
					&user_events_status_fops);
	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}
