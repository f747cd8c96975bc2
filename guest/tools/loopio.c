// SPDX-License-Identifier: GPL-2.0
/*
 * loopio - timed direct I/O to a block device, for the bench's loop workload
 *
 *   loopio read|write DEVICE BLOCK COUNT
 *
 * Opens DEVICE with O_DIRECT and issues COUNT synchronous reads or writes
 * of BLOCK bytes at successive offsets (wrapping at the device's end), one
 * at a time, from one buffer.  Prints, on one line:
 *   ios=N bytes=B ns=T mbps=M iops=I
 * with T the wall time of the I/O loop alone (CLOCK_MONOTONIC), M in
 * 10^6 bytes per second.  Exit status 0, or 1 with a message on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("loopio: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static unsigned long long number(const char *what, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || !v)
		die("%s: '%s' is not a positive number", what, s);
	return v;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long bs, count, size, off = 0, i, t0, ns;
	int writing, fd;
	void *buf;

	if (argc != 5)
		die("usage: loopio read|write DEVICE BLOCK COUNT");
	if (!strcmp(argv[1], "write"))
		writing = 1;
	else if (!strcmp(argv[1], "read"))
		writing = 0;
	else
		die("'%s': read or write", argv[1]);
	bs = number("BLOCK", argv[3]);
	count = number("COUNT", argv[4]);
	if (bs % 4096)
		die("BLOCK %llu is not a multiple of 4096", bs);
	fd = open(argv[2], (writing ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0)
		die("%s: %s", argv[2], strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size))
		die("%s: BLKGETSIZE64: %s", argv[2], strerror(errno));
	if (size < bs)
		die("%s: %llu bytes, less than one block", argv[2], size);
	size -= size % bs;
	if (posix_memalign(&buf, 4096, bs))
		die("no memory for a %llu-byte buffer", bs);
	memset(buf, 0x5a, bs);

	t0 = now_ns();
	for (i = 0; i < count; i++) {
		ssize_t n = writing ? pwrite(fd, buf, bs, off) : pread(fd, buf, bs, off);

		if (n != (ssize_t)bs)
			die("%s: %s at offset %llu: %s", argv[2], argv[1], off,
			    n < 0 ? strerror(errno) : "short transfer");
		off += bs;
		if (off >= size)
			off = 0;
	}
	ns = now_ns() - t0;
	if (close(fd))
		die("%s: close: %s", argv[2], strerror(errno));
	printf("ios=%llu bytes=%llu ns=%llu mbps=%.1f iops=%.0f\n", count,
	       count * bs, ns, ns ? count * bs * 1e3 / ns : 0.0,
	       ns ? count * 1e9 / ns : 0.0);
	return 0;
}
