/* The optprobe region check is pure: the host builds the kernel's header as is. */
#include "../../../../arch/x86_64/include/asm/optprobe_region.h"
