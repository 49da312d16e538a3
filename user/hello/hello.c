/* hello: the smallest ring-3 program, the first thing execve runs. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
