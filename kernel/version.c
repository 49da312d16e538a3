/*
 * The format of /proc/version, under Linux's name: system name, release
 * and version around who built the kernel and with what, each in
 * parentheses, as Linux prints it (scripts and ftracetest pick those
 * two groups out, and read the format itself through the symbol).
 * Builds are reproducible, so the builder is the project's name.
 */
#include <kernel/utsname.h>

#ifdef __clang__
#define UTS_COMPILER	"clang version " __clang_version__
#else
#define UTS_COMPILER	"gcc version " __VERSION__
#endif

const char linux_proc_banner[] =
	"%s version %s (" UTS_NODENAME "@" UTS_NODENAME ") (" UTS_COMPILER ") %s\n";
