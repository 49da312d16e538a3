/*
 * Timers in jiffies (kernel/timer.c): a function to run in softirq context
 * (TIMER_SOFTIRQ) on the CPU that armed it, once jiffies reaches expires.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <kernel/types.h>
#include <kernel/list.h>

struct timer_base;

struct timer_list {
	struct list_head entry;		/* in its base's list while pending */
	unsigned long expires;		/* jiffies */
	void (*function)(struct timer_list *t);
	struct timer_base *base;	/* the CPU base it was last armed on */
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *t));
/* (Re)arms t on this CPU; returns 1 if it was pending. */
int mod_timer(struct timer_list *t, unsigned long expires);
/* Disarms t; returns 1 if it was pending. */
int del_timer(struct timer_list *t);
/* Disarms t and waits for its function if it is running now (not from that function). */
int del_timer_sync(struct timer_list *t);
static inline bool timer_pending(const struct timer_list *t) { return !list_empty(&t->entry); }

/* Per-CPU bases; the tick calls run_local_timers. */
void init_timers(void);
void run_local_timers(void);
/* This CPU's jiffies, pending timers and softirqs in one line (for a hang report). */
void timers_show_cpu(void);

#endif
