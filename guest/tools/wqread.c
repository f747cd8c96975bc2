// SPDX-License-Identifier: GPL-2.0
/*
 * wqread - read trace_stat/workqueues over and over with one buffer size,
 * and check that every read is one whole, consistent table.
 *
 *   wqread -b BYTES -t SECONDS [-u DONE] [-n NAME] FILE
 *
 * Each round opens FILE, reads it to the end with read(2) calls of BYTES
 * bytes, closes it and checks what it got:
 *   - the summary lines, "# rows: U of C" and "# resets: R" among them,
 *     then the column names, then exactly U rows and nothing else;
 *   - every row has its 14 numbers, a workqueue and a function;
 *   - the rows are sorted by TOTAL_RUN_us, then EXECUTED, largest first;
 *   - no (WORKQUEUE, FUNCTION) is there twice;
 *   - no count of a row (QUEUED, EXECUTED, CANCELLED, TOTAL_RUN_us) is
 *     smaller than in this reader's previous table, unless "# resets:"
 *     changed in between.
 * It reads for SECONDS, and with -u DONE, after them until the file DONE
 * exists (a test's load says so when it has done all it had to).
 * At the end it prints one line,
 *   NAME: bytes=B reads=R tables=T rows=N problems=P
 * after the first problems found, each on a line of its own, and exits 1
 * if there was any problem, 2 on a usage or system error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NCOLS		14	/* numbers before WORKQUEUE */
#define MAX_SHOWN	10	/* problems printed */

struct row {
	char *key;		/* "WORKQUEUE FUNCTION", into the text */
	unsigned long long q, x, c;
	double total;
};

struct table {
	char *text;		/* the whole read, owned */
	struct row *rows;
	long nr;
	long long resets;
};

static long problems, tables;
static const char *name = "wqread";

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "wqread: %s %s: %s\n", what, arg, strerror(errno));
	exit(2);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: wqread -b BYTES -t SECONDS [-u DONE] [-n NAME] FILE\n"
		"  -b BYTES    size of every read(2), 1 or more\n"
		"  -t SECONDS  how long to go on reading, 1 or more\n"
		"  -u DONE     and then until the file DONE exists\n"
		"  -n NAME     what to call this reader in its report\n"
		"  -h          this help\n");
	exit(2);
}

/* Count one problem and show the first ones. */
static void __attribute__((format(printf, 1, 2))) problem(const char *fmt, ...)
{
	va_list ap;

	if (++problems > MAX_SHOWN)
		return;
	printf("%s: problem in table %ld: ", name, tables);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int cmp_key(const void *p1, const void *p2)
{
	return strcmp(((const struct row *)p1)->key, ((const struct row *)p2)->key);
}

/* Read @file whole with reads of @bytes; the text is NUL-terminated. */
static char *read_whole(const char *file, size_t bytes, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap + 1);
	ssize_t r;
	int fd;

	if (!text)
		die("out of memory for", file);
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("cannot open", file);
	for (;;) {
		if (cap - n < bytes) {
			cap = 2 * cap + bytes;
			text = realloc(text, cap + 1);
			if (!text)
				die("out of memory for", file);
		}
		r = read(fd, text + n, bytes);
		if (r < 0)
			die("cannot read", file);
		if (!r)
			break;
		n += r;
	}
	close(fd);
	text[n] = '\0';
	*len = n;
	return text;
}

/* Parse and check one table; fills @t. */
static void check(struct table *t, const struct table *prev)
{
	long long used = -1, cap = -1;
	char *line, *next, *p, *end;
	int header = 0, i;
	long nrows = 0, alloc = 0;

	t->resets = -1;
	t->rows = NULL;
	t->nr = 0;
	for (line = t->text; *line; line = next) {
		next = strchr(line, '\n');
		if (!next) {
			problem("the last line has no newline: '%.60s'", line);
			break;
		}
		*next++ = '\0';
		if (line[0] == '#') {
			if (header || nrows)
				problem("a summary line after the rows: '%.60s'", line);
			sscanf(line, "# rows: %lld of %lld", &used, &cap);
			sscanf(line, "# resets: %lld", &t->resets);
			continue;
		}
		if (!header) {
			if (strncmp(line, "QUEUED EXECUTED CANCELLED TOTAL_RUN_us", 38))
				problem("not the column names: '%.60s'", line);
			header = 1;
			continue;
		}
		if (nrows == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			t->rows = realloc(t->rows, alloc * sizeof(*t->rows));
			if (!t->rows)
				die("out of memory for", "rows");
		}
		struct row *r = &t->rows[nrows++];
		double v[NCOLS];

		p = line;
		for (i = 0; i < NCOLS; i++) {
			v[i] = strtod(p, &end);
			if (end == p || *end != ' ')
				break;
			p = end + 1;
		}
		if (i < NCOLS || !*p || !strchr(p, ' ')) {
			problem("a malformed row: '%.80s'", line);
			nrows--;
			continue;
		}
		r->q = v[0];
		r->x = v[1];
		r->c = v[2];
		r->total = v[3];
		r->key = p;
		if (nrows > 1) {
			struct row *a = r - 1;

			if (a->total < r->total || (a->total == r->total && a->x < r->x))
				problem("not sorted at row %ld", nrows);
		}
	}
	t->nr = nrows;
	if (!header)
		problem("no column names");
	if (used < 0 || cap < 0)
		problem("no '# rows: U of C' line");
	else if (used != nrows)
		problem("'# rows:' says %lld rows, the table has %ld", used, nrows);
	if (t->resets < 0)
		problem("no '# resets:' line");

	qsort(t->rows, nrows, sizeof(*t->rows), cmp_key);
	for (i = 1; i < nrows; i++)
		if (!strcmp(t->rows[i].key, t->rows[i - 1].key))
			problem("'%s' is there twice", t->rows[i].key);

	if (!prev || prev->resets != t->resets)
		return;
	/* both sorted by key: walk them side by side */
	long a = 0, b = 0;

	while (a < prev->nr && b < nrows) {
		int c = strcmp(prev->rows[a].key, t->rows[b].key);

		if (c < 0) {
			/* a row can only go away with a reset */
			problem("'%s' went away without a reset", prev->rows[a].key);
			a++;
		} else if (c > 0) {
			b++;
		} else {
			const struct row *o = &prev->rows[a], *n = &t->rows[b];

			if (n->q < o->q || n->x < o->x || n->c < o->c || n->total < o->total)
				problem("the counts of '%s' went backwards", n->key);
			a++;
			b++;
		}
	}
	for (; a < prev->nr; a++)
		problem("'%s' went away without a reset", prev->rows[a].key);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct table cur, prev = { 0 };
	long bytes = 0, seconds = 0, reads = 0, rows = 0;
	const char *done = NULL;
	double stop;
	size_t len;
	int opt, have_prev = 0;

	while ((opt = getopt(argc, argv, "b:t:u:n:h")) != -1) {
		switch (opt) {
		case 'b':
			bytes = atol(optarg);
			break;
		case 't':
			seconds = atol(optarg);
			break;
		case 'u':
			done = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		default:
			usage();
		}
	}
	if (bytes < 1 || seconds < 1 || optind != argc - 1)
		usage();
	stop = now() + seconds;
	while (now() < stop || (done && access(done, F_OK))) {
		cur.text = read_whole(argv[optind], bytes, &len);
		reads++;
		check(&cur, have_prev ? &prev : NULL);
		tables++;
		rows += cur.nr;
		if (have_prev) {
			free(prev.text);
			free(prev.rows);
		}
		prev = cur;
		have_prev = 1;
	}
	printf("%s: bytes=%ld reads=%ld tables=%ld rows=%ld problems=%ld\n",
	       name, bytes, reads, tables, rows, problems);
	return problems ? 1 : 0;
}
