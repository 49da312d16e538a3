/* Random bytes for AT_RANDOM, getrandom(2) and address-space layout. */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include <kernel/types.h>

void get_random_bytes(void *buf, size_t len);
u64 get_random_u64(void);

#endif
