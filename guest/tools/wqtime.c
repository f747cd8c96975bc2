// SPDX-License-Identifier: GPL-2.0
/*
 * wqtime - time the reading of a file from inside one process, so that the
 * figure is not made of the start-up of the shell's helpers (date, cat),
 * which under emulation takes tens of milliseconds each.
 *
 *   wqtime [-n COUNT] FILE             read FILE whole COUNT times
 *   wqtime [-n COUNT] -x FILE CMD ARG...  run CMD COUNT times
 *
 * The first form prints "open_us read_us rows" of the median read: the
 * open(2) (where trace_stat takes its snapshot and sorts it), the read(2)
 * calls with a 128 KiB buffer, as cat uses, and the number of lines.  The
 * second prints the median wall time in us of fork, exec and wait of CMD
 * with its output on /dev/null (FILE is ignored; give "-").  Exits 1 on
 * an error, with a message naming it; 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_COUNT	101
#define BUF_SIZE	(128 * 1024)

static char buf[BUF_SIZE];

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int die(const char *what, const char *name)
{
	fprintf(stderr, "wqtime: %s %s: %s\n", what, name, strerror(errno));
	exit(1);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

/* One whole read of @file: open time, read time, lines. */
static void read_once(const char *file, long long *open_us, long long *read_us,
		      long long *lines)
{
	long long t0 = now_us(), t1;
	ssize_t n, i;
	int fd;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("cannot open", file);
	t1 = now_us();
	*lines = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			*lines += buf[i] == '\n';
	if (n < 0)
		die("cannot read", file);
	close(fd);
	*open_us = t1 - t0;
	*read_us = now_us() - t1;
}

/* One fork, exec and wait of @argv with stdout on /dev/null. */
static long long run_once(char **argv)
{
	long long t0 = now_us();
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		die("cannot fork for", argv[0]);
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("cannot wait for", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "wqtime: %s failed (status %d)\n", argv[0], status);
		exit(1);
	}
	return now_us() - t0;
}

int main(int argc, char **argv)
{
	long long o[MAX_COUNT], r[MAX_COUNT], lines = 0;
	int count = 5, exec = 0, opt, i;

	while ((opt = getopt(argc, argv, "+n:x")) != -1) {
		switch (opt) {
		case 'n':
			count = atoi(optarg);
			break;
		case 'x':
			exec = 1;
			break;
		default:
			goto usage;
		}
	}
	if (count < 1 || count > MAX_COUNT || optind >= argc ||
	    (exec && optind + 1 >= argc))
		goto usage;
	for (i = 0; i < count; i++) {
		if (exec)
			o[i] = run_once(argv + optind + 1);
		else
			read_once(argv[optind], &o[i], &r[i], &lines);
	}
	if (exec) {
		printf("%lld\n", median(o, count));
		return 0;
	}
	printf("%lld %lld %lld\n", median(o, count), median(r, count), lines);
	return 0;
usage:
	fprintf(stderr, "usage: wqtime [-n COUNT(1..%d)] FILE\n"
		"       wqtime [-n COUNT] -x - CMD [ARG...]\n", MAX_COUNT);
	return 2;
}
