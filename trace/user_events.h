/*
 * user_events: trace events that ring-3 programs define and write
 * (Linux's user_events ABI). The pieces:
 *   user_events.c          the events: registry, reference counts, the
 *                          trace_event_call each one is, its probe and
 *                          records, dynamic_events' `u:` commands;
 *   user_events_fields.c   the field grammar and record layout (pure);
 *   user_events_enabler.c  the enable bits in processes' memory;
 *   user_events_data.c     /sys/kernel/tracing/user_events_data (ioctls,
 *                          write/writev) and user_events_status.
 * Everything below runs under trace_types_lock unless it says otherwise.
 */
#ifndef TRACE_USER_EVENTS_H
#define TRACE_USER_EVENTS_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <trace/trace_event.h>
#include <trace/tracepoint.h>
#include <trace/user_events_fields.h>

/* struct user_reg's flags (uapi). */
#define USER_EVENT_REG_PERSIST		(1U << 0)
#define USER_EVENT_REG_MULTI_FORMAT	(1U << 1)
#define USER_EVENT_REG_MAX		(1U << 2)

/* Who traces the event: user_events_status's "Used by" words. */
#define USER_EVENT_STATUS_FTRACE	(1U << 0)
#define USER_EVENT_STATUS_PERF		(1U << 1)
#define USER_EVENT_STATUS_OTHER		(1U << 2)

/* Events at once (Linux's default kernel.user_events_max). */
#define USER_EVENTS_MAX			32768

/*
 * One user event. refcnt counts what keeps it: each data file that
 * registered it, each enabler, each instance tracing it, a caller
 * between find and its own get. A PERSIST event also lives with no
 * reference until deleted; any other one is destroyed when the last
 * reference goes (deferred to the reaper when that happens inside the
 * tracing core's enable path, which is walking the event's files).
 */
struct user_event {
	char *reg_name;			/* the name it was registered with */
	char *tp_name;			/* its event name: reg_name, or reg_name.ID if multi-format */
	u32 reg_flags;			/* USER_EVENT_REG_* */
	unsigned int refcnt;
	unsigned int status;		/* USER_EVENT_STATUS_* */
	unsigned int ftrace_users;	/* instances with the probe attached */
	unsigned int status_bit;	/* old ABI: its bit in the status page; 0 none */
	struct user_event_fields fields;
	struct trace_event_call call;
	struct tracepoint tp;
	struct list_head list;		/* in user_events_list */
};

/* --- user_events.c ---------------------------------------------------------------- */

/*
 * Find or create the event a registration string names (cmd is
 * modified). Returns it with a reference, or an ERR_PTR: -EINVAL
 * (grammar, flags), -EADDRINUSE (same name, other fields), -EMFILE.
 */
struct user_event *user_event_register(char *cmd, u32 reg_flags);
void user_event_get(struct user_event *user);
void user_event_put(struct user_event *user);
/* DIAG_IOCSDEL: delete every event registered under name: -ENOENT, -EBUSY. */
int user_event_delete(const char *name);
/* Is anything tracing it: what its enable bits show. */
static inline bool user_event_enabled(const struct user_event *user)
{
	return READ_ONCE(user->status) != 0;
}
/*
 * A record of the event from ring 3: payload is len bytes after the
 * write index, already in kernel memory. 0, -EFAULT (a bad __data_loc).
 */
int user_event_emit(struct user_event *user, const void *payload, u32 len);
/* Events in registration order, for user_events_status. */
extern struct list_head user_events_list;
/* dynamic_events: `u:...`, `!u:...`, `-:...`; -ECHILD when the line is not ours. */
int user_events_dynevent_write(const char *cmd);
/* Our lines of dynamic_events, snprintf-style. */
int user_events_dynevent_show(char *buf, size_t size);
int trace_user_events_init(void);

/* --- user_events_enabler.c ----------------------------------------------------------- */

struct mm_struct;
/* A new enable bit of the current process: -EADDRINUSE, -ENOMEM (unmapped), 0. */
int user_event_enabler_create(struct user_event *user, unsigned long addr, unsigned int bit,
			      unsigned int size);
/* DIAG_IOCSUNREG: drop the current process's enablers at addr:bit and clear it. */
int user_event_enabler_remove(unsigned long addr, unsigned int bit);
/* Set or clear every process's enable bits for the event, as its state now is. */
void user_event_enablers_update(struct user_event *user);
/* Is addr:bit in use by the current process? */
bool user_event_enabler_exists(unsigned long addr, unsigned int bit);
int user_event_enablers_init(void);

/* --- user_events_data.c -------------------------------------------------------------- */

/* Old ABI: reflect the event's state in the status page. */
void user_event_status_page_update(struct user_event *user);
/* Old ABI: a bit for a new event (0: page full), and giving it back. */
unsigned int user_event_status_bit_alloc(void);
void user_event_status_bit_free(unsigned int bit);
int user_events_files_init(void);

#endif
