/* Kprobe events (trace/trace_kprobe.c): kprobe_events, kprobe_profile, dynamic_events' p:/r:. */
#ifndef TRACE_TRACE_KPROBE_H
#define TRACE_TRACE_KPROBE_H

#include <kernel/types.h>

/* The tracefs files. Once, after tracing_init(). */
int trace_kprobe_init(void);
/* A dynamic_events line: -ECHILD when it is not a kprobe event's (errors go to error_log). */
int trace_kprobe_dynevent_write(const char *cmd);
/* Our lines of dynamic_events (kprobe_events' listing), snprintf-style. */
int trace_kprobe_dynevent_show(char *buf, size_t size);
/* `>` on kprobe_events or dynamic_events: every kprobe event goes (-EBUSY if one is traced). */
int trace_kprobe_release_all(void);

#endif
