/*
 * Enable bits: with the current ABI a program registers an event with
 * the address of a 4- or 8-byte word in its own memory and a bit in it;
 * the kernel sets that bit while anything traces the event and clears
 * it when nothing does, so the program's "is it on?" is one load.
 *
 * Each address space with enablers has a struct user_event_mm in its
 * mm->user_events slot. Fork copies the enablers (the child's bits land
 * in the child's pages: the write breaks copy-on-write), threads share
 * them, exec and exit drop them (the mm's release). A bit is written
 * through access_remote_vm, which faults the page in first, so words in
 * pages the program never touched work from the first enable.
 *
 * Only the byte holding the bit is rewritten (little endian: bit b of a
 * word at A is bit b % 8 of byte A + b / 8), so bits of other events in
 * the same word are never touched by a stale copy; the kernel's writes
 * are serialised by trace_types_lock. A program storing to that very
 * byte while its bit changes can lose the update, as it would racing
 * any other writer of its memory.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/list.h>
#include <kernel/sched.h>
#include <kernel/mman.h>
#include <kernel/printk.h>
#include <trace/trace.h>
#include <trace/user_events.h>

/* One registered enable bit of one address space. */
struct user_event_enabler {
	struct user_event *event;	/* referenced */
	unsigned long addr;		/* the enable word (aligned to its size) */
	u8 bit;				/* in the word */
	struct list_head link;		/* in user_event_mm.enablers */
};

/* The enablers of one address space (mm->user_events). */
struct user_event_mm {
	struct mm_struct *mm;
	struct list_head enablers;
	struct list_head link;		/* in user_event_mms */
};

static LIST_HEAD(user_event_mms);

/* Set or clear the enabler's bit in its process: 0 or -EFAULT. */
static int enabler_write(struct mm_struct *mm, unsigned long addr, unsigned int bit, bool set)
{
	unsigned long byte = addr + bit / 8;
	u8 mask = (u8)(1u << (bit % 8)), val;

	if (access_remote_vm(mm, byte, &val, 1, false))
		return -EFAULT;
	val = set ? val | mask : val & (u8)~mask;
	return access_remote_vm(mm, byte, &val, 1, true);
}

static struct user_event_mm *user_event_mm_alloc(struct mm_struct *mm)
{
	struct user_event_mm *uem = kzalloc(sizeof(*uem), GFP_KERNEL);

	if (!uem)
		return NULL;
	uem->mm = mm;
	INIT_LIST_HEAD(&uem->enablers);
	list_add_tail(&uem->link, &user_event_mms);
	mm->user_events = uem;
	return uem;
}

static int enabler_add(struct user_event_mm *uem, struct user_event *user, unsigned long addr,
		       unsigned int bit)
{
	struct user_event_enabler *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return -ENOMEM;
	e->event = user;
	e->addr = addr;
	e->bit = (u8)bit;
	user_event_get(user);
	list_add_tail(&e->link, &uem->enablers);
	return 0;
}

static void enabler_free(struct user_event_enabler *e)
{
	list_del(&e->link);
	user_event_put(e->event);
	kfree(e);
}

bool user_event_enabler_exists(unsigned long addr, unsigned int bit)
{
	struct user_event_mm *uem = current->mm ? current->mm->user_events : NULL;
	struct user_event_enabler *e;

	if (!uem)
		return false;
	list_for_each_entry(e, &uem->enablers, link)
		if (e->addr == addr && e->bit == bit)
			return true;
	return false;
}

int user_event_enabler_create(struct user_event *user, unsigned long addr, unsigned int bit,
			      unsigned int size)
{
	struct mm_struct *mm = current->mm;
	struct user_event_mm *uem;

	if (!mm)
		return -ENOMEM;
	/* Linux reports an enable word it cannot fault in as a failed allocation */
	if (enabler_write(mm, addr, bit, user_event_enabled(user)))
		return -ENOMEM;
	uem = mm->user_events ? mm->user_events : user_event_mm_alloc(mm);
	if (!uem)
		return -ENOMEM;
	return enabler_add(uem, user, addr, bit);
}

int user_event_enabler_remove(unsigned long addr, unsigned int bit)
{
	struct user_event_mm *uem = current->mm ? current->mm->user_events : NULL;
	struct user_event_enabler *e, *tmp;
	int ret = -ENOENT;

	if (!uem)
		return -ENOENT;
	list_for_each_entry_safe(e, tmp, &uem->enablers, link) {
		if (e->addr == addr && e->bit == bit) {
			enabler_free(e);
			ret = 0;
		}
	}
	/* the bit is the program's again: leave it clear, whatever the event's state */
	return ret ? ret : enabler_write(current->mm, addr, bit, false);
}

void user_event_enablers_update(struct user_event *user)
{
	bool on = user_event_enabled(user);
	struct user_event_mm *uem;
	struct user_event_enabler *e;

	list_for_each_entry(uem, &user_event_mms, link) {
		list_for_each_entry(e, &uem->enablers, link) {
			if (e->event != user)
				continue;
			/* an unmapped word is the program's problem: the state still changes */
			if (enabler_write(uem->mm, e->addr, e->bit, on))
				pr_debug("user_events: cannot %s bit %u at %#lx\n", on ? "set" : "clear",
					 e->bit, e->addr);
		}
	}
}

/* fork: the child gets the parent's enablers. */
static void user_events_mm_fork(struct mm_struct *old, struct mm_struct *new)
{
	struct user_event_mm *uem, *child;
	struct user_event_enabler *e;

	trace_types_lock();
	uem = old->user_events;
	child = uem && !list_empty(&uem->enablers) ? user_event_mm_alloc(new) : NULL;
	if (child)
		list_for_each_entry(e, &uem->enablers, link)
			if (enabler_add(child, e->event, e->addr, e->bit))
				break;
	trace_types_unlock();
}

/* exit or exec: the address space goes, and its enablers with it. */
static void user_events_mm_release(struct mm_struct *mm)
{
	struct user_event_mm *uem;
	struct user_event_enabler *e, *tmp;

	trace_types_lock();
	uem = mm->user_events;
	if (uem) {
		list_for_each_entry_safe(e, tmp, &uem->enablers, link)
			enabler_free(e);
		list_del(&uem->link);
		mm->user_events = NULL;
		kfree(uem);
	}
	trace_types_unlock();
}

static struct mm_callbacks user_events_mm_callbacks = {
	.fork = user_events_mm_fork,
	.release = user_events_mm_release,
};

int user_event_enablers_init(void)
{
	register_mm_callbacks(&user_events_mm_callbacks);
	return 0;
}
