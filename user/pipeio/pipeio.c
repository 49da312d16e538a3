/*
 * pipeio: a filter for pipelines. Copies stdin to stdout in upper case,
 * then prints how many lines and bytes it read. Reads with read(2) in small
 * chunks so short reads from a pipe are exercised, and writes everything
 * it read before the summary, so `echo x | pipeio | cat` shows the order.
 */
#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

/* write_all: a pipe may take less than asked for. */
static int write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, n);

		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(void)
{
	char buf[64];
	long lines = 0, bytes = 0;
	ssize_t r;

	while ((r = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n')
				lines++;
			buf[i] = (char)toupper((unsigned char)buf[i]);
		}
		bytes += r;
		if (write_all(buf, (size_t)r) < 0) {
			perror("pipeio: write");
			return 1;
		}
	}
	if (r < 0) {
		perror("pipeio: read");
		return 1;
	}
	printf("pipeio: %ld lines, %ld bytes\n", lines, bytes);
	return 0;
}
