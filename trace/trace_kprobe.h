/*
 * Kprobe events (trace/trace_kprobe.c): kprobe_events, kprobe_profile, and
 * the probe events' part of dynamic_events (p:/r:, f:/t:, e:).
 */
#ifndef TRACE_TRACE_KPROBE_H
#define TRACE_TRACE_KPROBE_H

#include <kernel/types.h>

/* The tracefs files. Once, after tracing_init(). */
int trace_kprobe_init(void);
/* A dynamic_events line: -ECHILD when it is not a probe event's (errors go to error_log). */
int trace_kprobe_dynevent_write(const char *cmd);
/* The probe events' lines of dynamic_events, snprintf-style. */
int trace_kprobe_dynevent_show(char *buf, size_t size);
/* `>` on dynamic_events: every probe event goes (-EBUSY, and none, if one is traced). */
int trace_kprobe_release_all(void);

#endif
