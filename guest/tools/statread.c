// SPDX-License-Identifier: GPL-2.0
/*
 * statread - read a trace_stat file of another tracer (the function
 * profiler's function<N>, the branch profilers) over and over with one
 * read size, and check every table it gets.
 *
 *   statread -b BYTES -t SECONDS [-u DONE] -H HEADER -R REGEX [-s COL] [-n NAME] FILE
 *
 * Each round opens FILE, reads it to the end with read(2) calls of BYTES
 * bytes and closes it.  A table is whole when it starts with the lines of
 * the file HEADER, exactly, and every line after them matches the extended
 * regular expression REGEX (a torn or mixed line does not); with -s COL,
 * the rows must also be sorted by their COL-th whitespace-separated field
 * (a number, a "us" after it ignored), largest first.  A read(2) that fails
 * with EBUSY ends the round: the function profiler says so of a record that
 * a reset zeroed after the open(); it is counted apart, not as a problem.
 * Any other error is a problem.  It reads for SECONDS (-t 0: once), and
 * with -u DONE, after them until the file DONE exists (the test's load says
 * so when it has done all it had to).  At the end it prints
 *   NAME: bytes=B tables=T rows=N busy=E problems=P
 * after the first problems found, and exits 1 if there was any problem, 2
 * on a usage or system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *name = "statread";
static long problems;

/* die: a usage or system error, exit 2 */
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "statread: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* problem: one finding; the first ten are printed */
static void problem(const char *fmt, ...)
{
	va_list ap;

	if (problems++ >= 10)
		return;
	printf("%s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* slurp: all of a small file */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die("%s: %s", path, strerror(errno));
	do {
		if (n + 4096 > cap) {
			cap = cap ? 2 * cap : 8192;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("out of memory");
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* field: the COL-th (1-based) whitespace-separated field of @line, as a number */
static int field(const char *line, int col, double *v)
{
	const char *p = line;
	char *end;
	int i;

	for (i = 1; ; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return -1;
		if (i == col)
			break;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	*v = strtod(p, &end);
	return end == p ? -1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *hdr_path = NULL, *re_src = NULL, *done = NULL, *file;
	long tables = 0, rows = 0, busy = 0, bytes = 0, secs = -1;
	char *hdr, *buf = NULL, *tab = NULL;
	size_t hdr_len, cap = 0;
	int col = 0, c, round;
	double end, prev = 0;
	regex_t re;

	while ((c = getopt(argc, argv, "b:t:u:H:R:s:n:h")) != -1) {
		switch (c) {
		case 'b': bytes = atol(optarg); break;
		case 't': secs = atol(optarg); break;
		case 'u': done = optarg; break;
		case 'H': hdr_path = optarg; break;
		case 'R': re_src = optarg; break;
		case 's': col = atoi(optarg); break;
		case 'n': name = optarg; break;
		default:
			fprintf(stderr, "usage: statread -b BYTES -t SECONDS [-u DONE] -H HEADER -R REGEX [-s COL] [-n NAME] FILE\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind != argc - 1 || bytes < 1 || bytes > (1 << 24) || secs < 0 ||
	    !hdr_path || !re_src || col < 0)
		die("usage: statread -b BYTES -t SECONDS [-u DONE] -H HEADER -R REGEX [-s COL] [-n NAME] FILE");
	file = argv[optind];
	hdr = slurp(hdr_path, &hdr_len);
	if (regcomp(&re, re_src, REG_EXTENDED | REG_NOSUB))
		die("bad regular expression: %s", re_src);
	buf = malloc(bytes);
	if (!buf)
		die("out of memory");

	end = now() + secs;
	for (round = 0; round == 0 || now() < end || (done && access(done, F_OK)); round++) {
		size_t len = 0;
		int fd = open(file, O_RDONLY), failed = 0;
		char *line, *next;
		long n = 0;
		ssize_t got;

		if (fd < 0) {
			problem("open: %s", strerror(errno));
			continue;
		}
		for (;;) {
			got = read(fd, buf, bytes);
			if (got <= 0)
				break;
			if (len + got + 1 > cap) {
				cap = 2 * (len + got) + 1;
				tab = realloc(tab, cap);
				if (!tab)
					die("out of memory");
			}
			memcpy(tab + len, buf, got);
			len += got;
		}
		if (got < 0) {
			if (errno == EBUSY)
				busy++;
			else
				problem("read: %s", strerror(errno));
			failed = 1;
		}
		close(fd);
		if (failed)
			continue;
		tab[len] = '\0';
		if (len < hdr_len || memcmp(tab, hdr, hdr_len)) {
			problem("table %ld: not the header: '%.80s'", tables, tab);
			continue;
		}
		for (line = tab + hdr_len; *line; line = next) {
			next = strchr(line, '\n');
			if (!next) {
				problem("table %ld: a last line without its newline: '%.80s'", tables, line);
				break;
			}
			*next++ = '\0';
			if (regexec(&re, line, 0, NULL, 0)) {
				problem("table %ld: a row unlike the others: '%.100s'", tables, line);
				continue;
			}
			if (col) {
				double v = 0;

				if (field(line, col, &v))
					problem("table %ld: no field %d: '%.100s'", tables, col, line);
				else if (n && v > prev)
					problem("table %ld: out of order at row %ld: '%.100s'", tables, n, line);
				prev = v;
			}
			n++;
		}
		tables++;
		rows += n;
	}
	printf("%s: bytes=%ld tables=%ld rows=%ld busy=%ld problems=%ld\n",
	       name, bytes, tables, rows, busy, problems);
	regfree(&re);
	free(buf);
	free(tab);
	free(hdr);
	return problems ? 1 : 0;
}
