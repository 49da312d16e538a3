/*
 * args: what execve handed over. Prints argc, every argv[i], and the
 * environment variables named PATH* or SPOOR_*, so a test can pass
 * known values and compare (the rest of the environment is the shell's).
 */
#include <stdio.h>
#include <string.h>

extern char **environ;

int main(int argc, char **argv)
{
	printf("argc=%d\n", argc);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "SPOOR_", 6) || !strncmp(*e, "PATH", 4))
			printf("env %s\n", *e);
	/* argv and envp must end in NULL; a missing terminator shows here. */
	return argv[argc] == NULL ? 0 : 1;
}
