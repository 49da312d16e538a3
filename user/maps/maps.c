/*
 * maps: prints /proc/self/maps and checks it against what the program
 * knows of itself: some mapping must be executable and hold main (the
 * text), and one named [stack] must hold a local variable.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	unsigned long text = (unsigned long)&main;
	unsigned long stack = (unsigned long)&text;
	int text_ok = 0, stack_ok = 0, lines = 0;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		perror("maps: /proc/self/maps");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char perms[8];

		fputs(line, stdout);
		lines++;
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3)
			continue;
		if (start <= text && text < end && perms[2] == 'x')
			text_ok = 1;
		if (start <= stack && stack < end && strstr(line, "[stack]"))
			stack_ok = 1;
	}
	fclose(f);
	printf("maps: %d lines, text %s, stack %s\n", lines,
	       text_ok ? "ok" : "missing", stack_ok ? "ok" : "missing");
	return text_ok && stack_ok ? 0 : 1;
}
