/* Boot self-checks, run by init when the command line says selftest=NAME. */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

/* The kernel base (kernel/selftest_base.c): prints TAP; 0 if every check passed, else -EIO. */
int selftest_base(void);

#endif
