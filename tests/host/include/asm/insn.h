/* The instruction decoder is pure: the host builds the kernel's header as is. */
#include "../../../../arch/x86_64/include/asm/insn.h"
