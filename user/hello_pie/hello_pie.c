/*
 * hello_pie: hello as a static PIE. The binary is linked at base 0 and
 * relocates itself (musl's rcrt1.o) wherever execve loads it, so main's
 * run-time address differs from its link-time one; printing both shows the
 * loader picked a base and the self-relocation worked (printf's own
 * pointers are relocated data too).
 */
#include <stdio.h>

/* The linker's name for the first byte of the ELF image: its run-time base. */
extern const char __ehdr_start[];

int main(void)
{
	unsigned long base = (unsigned long)__ehdr_start;
	unsigned long addr = (unsigned long)&main;

	printf("hello, world (static pie)\n");
	printf("main at 0x%lx, link-time 0x%lx, base 0x%lx\n", addr, addr - base, base);
	printf("relocated: %s\n", base != 0 ? "yes" : "no");
	return base != 0 ? 0 : 1;
}
