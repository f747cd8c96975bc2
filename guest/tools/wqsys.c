// SPDX-License-Identifier: GPL-2.0
/*
 * wqsys - make N getppid(2) system calls, a workload of known size for the
 * function profiler: __do_sys_getppid is then hit exactly N times.
 *
 *   wqsys N
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long i, n;

	n = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end || n < 0) {
		fprintf(stderr, "usage: wqsys N\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
