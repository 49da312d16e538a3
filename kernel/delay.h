/*
 * Waiting. udelay/ndelay/mdelay spin on the TSC (any context, exact to the
 * calibration); msleep gives the CPU away (task context only, kernel/sched).
 */
#ifndef KERNEL_DELAY_H
#define KERNEL_DELAY_H

#include <kernel/types.h>

void ndelay(unsigned long ns);
void udelay(unsigned long us);
void mdelay(unsigned long ms);
void msleep(unsigned int ms);
/* Sleeps interruptibly: returns the milliseconds left if a signal cut it short. */
unsigned long msleep_interruptible(unsigned int ms);

#endif
