// SPDX-License-Identifier: GPL-2.0
/*
 * wqwrite - one write(2) of exact bytes to a file, for the guest tests of
 * control files: zero-length writes, writes at an offset, binary bytes and
 * huge writes, none of which a shell redirection can issue.
 *
 *   wqwrite [-o OFFSET] [-n REPEAT] FILE BYTES
 *
 * BYTES takes \xHH escapes; -n repeats it REPEAT times in the one write.
 * Prints "ok N" with the count written, or "error NAME" (EINVAL...), and
 * exits 0 or 1 accordingly; 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	default: return "OTHER";
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: wqwrite [-o OFFSET] [-n REPEAT] FILE BYTES\n");
	return 2;
}

int main(int argc, char **argv)
{
	long offset = -1, repeat = 1;
	size_t len = 0, total, i;
	char *bytes, *buf, *end;
	const char *s;
	ssize_t ret;
	int opt, fd;

	while ((opt = getopt(argc, argv, "+o:n:")) != -1) {
		switch (opt) {
		case 'o':
			offset = strtol(optarg, &end, 0);
			if (*end || offset < 0)
				return usage();
			break;
		case 'n':
			repeat = strtol(optarg, &end, 0);
			if (*end || repeat < 1 || repeat > (64L << 20))
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2)
		return usage();
	s = argv[optind + 1];
	bytes = malloc(strlen(s) + 1);
	if (!bytes)
		return 2;
	while (*s) {
		unsigned int v;

		if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1) {
			bytes[len++] = (char)v;
			s += 4;
		} else {
			bytes[len++] = *s++;
		}
	}
	total = len * (size_t)repeat;
	buf = malloc(total + 1);
	if (!buf)
		return 2;
	for (i = 0; i < (size_t)repeat; i++)
		memcpy(buf + i * len, bytes, len);
	fd = open(argv[optind], O_WRONLY);
	if (fd < 0) {
		printf("error %s (open)\n", errname(errno));
		return 1;
	}
	if (offset >= 0)
		ret = pwrite(fd, buf, total, offset);
	else
		ret = write(fd, buf, total);
	if (ret < 0) {
		printf("error %s\n", errname(errno));
		return 1;
	}
	printf("ok %zd\n", ret);
	return 0;
}
