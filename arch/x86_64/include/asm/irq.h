/* Interrupt vectors and their handlers. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/ptrace.h>

typedef void (*irq_handler_t)(struct pt_regs *regs);

/* Install the handler of a vector (>= 32); -1 if taken or out of range. */
int irq_register_vector(unsigned int vector, irq_handler_t handler);

#endif
