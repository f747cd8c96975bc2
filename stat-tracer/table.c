// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - parsing trace_stat/workqueues tables and wqstat snapshots.
 *
 * The parser trusts nothing: every line is checked for length and binary
 * bytes, every number for syntax and range, and the header must name the
 * columns this tool needs.  Columns are found by name, so columns added by
 * a later kernel are skipped.  The first error ends the parse, with a
 * message naming the file, the line and what is wrong.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

/* The columns wqstat reads; the last two must close the header. */
enum col {
	C_QUEUED, C_EXECUTED, C_CANCELLED, C_TOTAL_RUN, C_AVG_RUN, C_MIN_RUN,
	C_MAX_RUN, C_P99_RUN, C_AVG_LAT, C_MAX_LAT, C_P99_LAT, C_LATE_N,
	C_AVG_LATE, C_MAX_LATE, C_TOTAL_LAT, C__NR
};

static const struct {
	const char *name;
	bool required;
	bool is_time;
} cols[C__NR] = {
	[C_QUEUED]	= { "QUEUED", true, false },
	[C_EXECUTED]	= { "EXECUTED", true, false },
	[C_CANCELLED]	= { "CANCELLED", true, false },
	[C_TOTAL_RUN]	= { "TOTAL_RUN_us", true, true },
	[C_AVG_RUN]	= { "AVG_RUN_us", true, true },
	[C_MIN_RUN]	= { "MIN_RUN_us", true, true },
	[C_MAX_RUN]	= { "MAX_RUN_us", true, true },
	[C_P99_RUN]	= { "P99_RUN_us", true, true },
	[C_AVG_LAT]	= { "AVG_LAT_us", true, true },
	[C_MAX_LAT]	= { "MAX_LAT_us", true, true },
	[C_P99_LAT]	= { "P99_LAT_us", true, true },
	[C_LATE_N]	= { "LATE_N", false, false },
	[C_AVG_LATE]	= { "AVG_LATE_us", false, true },
	[C_MAX_LATE]	= { "MAX_LATE_us", false, true },
	[C_TOTAL_LAT]	= { "TOTAL_LAT_us", false, true },
};

/* Record the first error: "NAME:LINE: message". */
static int fail(struct wq_error *err, const char *name, size_t line,
		const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err->msg, sizeof(err->msg), "%s:%zu: %s", name, line, what);
	else
		snprintf(err->msg, sizeof(err->msg), "%s: %s", name, what);
	return -1;
}

void wq_table_init(struct wq_table *t)
{
	memset(t, 0, sizeof(*t));
	t->enabled = -1;
	t->rows_used = t->capacity = t->dropped = -1;
	t->lost_pairs = t->unmatched = t->memory = -1;
	t->merged = t->evicted = t->evicted_events = t->resets = -1;
	t->since_reset = -1;
}

void wq_row_free(struct wq_row *r)
{
	free(r->workqueue);
	free(r->function);
	free(r->run.b);
	free(r->lat.b);
	r->workqueue = r->function = NULL;
	r->run.b = r->lat.b = NULL;
}

void wq_table_free(struct wq_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		wq_row_free(&t->rows[i]);
	free(t->rows);
	wq_table_init(t);
}

int wq_parse_count(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!isdigit((unsigned char)*s) || strlen(s) > 20)
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int wq_parse_us(const char *s, uint64_t *ns)
{
	char ipart[24];
	const char *dot = strchr(s, '.');
	size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
	uint64_t us, frac = 0;
	int i;

	if (!ilen || ilen >= sizeof(ipart))
		return -1;
	memcpy(ipart, s, ilen);
	ipart[ilen] = '\0';
	if (wq_parse_count(ipart, &us) || us > UINT64_MAX / 1000 - 1)
		return -1;
	if (dot) {
		const char *f = dot + 1;

		if (!*f || strlen(f) > 3)
			return -1;
		for (i = 0; i < 3; i++) {
			frac *= 10;
			if (*f) {
				if (!isdigit((unsigned char)*f))
					return -1;
				frac += *f++ - '0';
			}
		}
	}
	*ns = us * 1000 + frac;
	return 0;
}

/* A line must be text: no NUL, no control bytes but tab. */
static bool is_text(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\n' && i == len - 1)
			break;
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return false;
	}
	return true;
}

/* "# KEY: N" with N a count: 1 and the count in @v, 0 if not this key, -1 if bad. */
static int summary_count(const char *line, const char *key, long long *v)
{
	size_t kl = strlen(key), dl;
	uint64_t x;
	char num[24];

	if (strncmp(line, key, kl))
		return 0;
	line += kl;
	dl = strspn(line, "0123456789");
	if (!dl || dl >= sizeof(num) || (line[dl] && line[dl] != ' '))
		return -1;
	memcpy(num, line, dl);
	num[dl] = '\0';
	if (wq_parse_count(num, &x) || x > INT64_MAX)
		return -1;
	*v = x;
	return 1;
}

/*
 * Parse "# key: value" summary and metadata lines; unknown keys are kept
 * out.  A value that is not a plain count (negative, NaN, a word) is an
 * error, so that no output can carry it.
 */
static int parse_comment(struct wq_table *t, const char *line, const char *name,
			 size_t ln, struct wq_error *err)
{
	static const struct {
		const char *key;
		size_t off;
	} counts[] = {
		{ "# dropped: ", offsetof(struct wq_table, dropped) },
		{ "# merged: ", offsetof(struct wq_table, merged) },
		{ "# evicted: ", offsetof(struct wq_table, evicted) },
		{ "# lost pairs: ", offsetof(struct wq_table, lost_pairs) },
		{ "# unmatched: ", offsetof(struct wq_table, unmatched) },
		{ "# resets: ", offsetof(struct wq_table, resets) },
		{ "# memory: ", offsetof(struct wq_table, memory) },
	};
	long long a, b;
	uint64_t ns;
	size_t i;
	int n = 0, rc;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		rc = summary_count(line, counts[i].key, (long long *)((char *)t + counts[i].off));
		if (rc < 0)
			return fail(err, name, ln, "'%.60s' is not a count", line + 2);
		if (rc)
			break;
	}
	if (i < sizeof(counts) / sizeof(counts[0])) {
		const char *ev = strstr(line, " retired rows (");

		/* "# evicted: N retired rows (M events)" */
		if (!strncmp(line, "# evicted: ", 11) && ev) {
			if (summary_count(ev, " retired rows (", &a) <= 0)
				return fail(err, name, ln, "'%.60s' is not a count", line + 2);
			t->evicted_events = a;
		}
		return 0;
	}
	if (sscanf(line, "# enabled: %lld%n", &a, &n) == 1 && n) {
		if (a != 0 && a != 1)
			return fail(err, name, ln, "enabled is %lld, not 0 or 1", a);
		t->enabled = a;
	} else if (sscanf(line, "# rows: %lld of %lld", &a, &b) == 2) {
		if (a < 0 || b < 0 || a > b)
			return fail(err, name, ln, "bad row count '%s'", line + 2);
		t->rows_used = a;
		t->capacity = b;
	} else if (!strncmp(line, "# since reset: ", 15) || !strncmp(line, "# interval: ", 12)) {
		const char *v = strchr(line, ':') + 2;
		char num[32];
		size_t l = strcspn(v, " ");

		t->is_interval = line[2] == 'i';
		if (l >= sizeof(num))
			return fail(err, name, ln, "'%.60s' is not a time in s", line + 2);
		memcpy(num, v, l);
		num[l] = '\0';
		/* seconds with up to three decimals: the parser of times in us */
		if (wq_parse_us(num, &ns))
			return fail(err, name, ln, "'%.60s' is not a time in s", line + 2);
		t->since_reset = ns / 1e3;
	} else if (!strncmp(line, "# kernel: ", 10)) {
		snprintf(t->kernel, sizeof(t->kernel), "%s", line + 10);
	} else if (!strncmp(line, "# time: ", 8)) {
		snprintf(t->time, sizeof(t->time), "%s", line + 8);
	}
	/* other comments are for humans */
	return 0;
}

/* Split @line in place at blanks; returns the count, at most @max. */
static int split(char *line, char **tok, int max)
{
	int n = 0;
	char *s = line;

	while (*s && n < max) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

#define MAX_COLS 64

/*
 * A bucket column: "-" for none, else "UPPER:COUNT,..." with UPPER the bucket's
 * exclusive upper bound in ns ("inf" for the open-ended last one), each
 * bucket above the one before it, and every count at least 1.
 */
static int parse_buckets(const char *s, struct wq_hist *h, const char **why)
{
	size_t cap = 1, i;
	const char *p;

	memset(h, 0, sizeof(*h));
	if (!strcmp(s, "-"))
		return 0;
	for (p = s; *p; p++)
		cap += *p == ',';
	h->b = calloc(cap, sizeof(*h->b));
	if (!h->b) {
		*why = "out of memory";
		return -1;
	}
	for (p = s, i = 0; i < cap; i++) {
		char num[24];
		size_t l = strcspn(p, ":,");
		struct wq_bucket *b = &h->b[i];

		*why = "not UPPER:COUNT,... or -";
		if (!l || l >= sizeof(num) || p[l] != ':')
			goto bad;
		memcpy(num, p, l);
		num[l] = '\0';
		if (!strcmp(num, "inf"))
			b->le_ns = WQ_UNKNOWN;
		else if (wq_parse_count(num, &b->le_ns) || b->le_ns == WQ_UNKNOWN)
			goto bad;
		p += l + 1;
		l = strcspn(p, ",");
		if (!l || l >= sizeof(num) || (i + 1 < cap) != (p[l] == ','))
			goto bad;
		memcpy(num, p, l);
		num[l] = '\0';
		if (wq_parse_count(num, &b->count))
			goto bad;
		p += l + (p[l] == ',');
		*why = "a bucket that is empty or not above the one before it";
		if (!b->count || (i && b->le_ns <= h->b[i - 1].le_ns) ||
		    (i && h->b[i - 1].le_ns == WQ_UNKNOWN))
			goto bad;
		*why = "bucket counts that overflow";
		if (h->n + b->count < h->n)
			goto bad;
		h->n += b->count;
	}
	h->nr = cap;
	return 0;
bad:
	free(h->b);
	memset(h, 0, sizeof(*h));
	return -1;
}

int wq_parse(FILE *f, const char *name, struct wq_table *t, struct wq_error *err)
{
	int colidx[C__NR], ncols = 0, idcol = -1, rbcol = -1, lbcol = -1, i;
	char *line = NULL, *tok[MAX_COLS + 1];
	size_t cap = 0, ln = 0;
	bool header = false;
	ssize_t len;
	int ret = -1;

	wq_table_init(t);
	for (i = 0; i < C__NR; i++)
		colidx[i] = -1;

	while ((len = getline(&line, &cap, f)) > 0) {
		ln++;
		if ((size_t)len > WQSTAT_MAX_LINE) {
			fail(err, name, ln, "line longer than %d bytes", WQSTAT_MAX_LINE);
			goto out;
		}
		/* CRLF line ends (a file that went through Windows) are LF */
		if (len >= 2 && line[len - 2] == '\r' && line[len - 1] == '\n') {
			line[len - 2] = '\n';
			line[--len] = '\0';
		}
		if (strlen(line) != (size_t)len || !is_text(line, len)) {
			fail(err, name, ln, "binary data, not a table");
			goto out;
		}
		if (line[len - 1] != '\n') {
			fail(err, name, ln, "unterminated last line: truncated file?");
			goto out;
		}
		line[--len] = '\0';
		if (!len)
			continue;
		if (line[0] == '#') {
			if (!strncmp(line, "# wqstat snapshot v", 19)) {
				if (ln != 1 || strcmp(line, WQSTAT_SNAPSHOT_MAGIC)) {
					fail(err, name, ln, "snapshot version '%s' is not v1 on line 1",
					     line + 19);
					goto out;
				}
				continue;
			}
			if (header) {
				fail(err, name, ln, "a comment line after the header");
				goto out;
			}
			if (parse_comment(t, line, name, ln, err))
				goto out;
			continue;
		}
		if (!header) {
			int n = split(line, tok, MAX_COLS + 1);

			if (n > MAX_COLS) {
				fail(err, name, ln, "more than %d columns", MAX_COLS);
				goto out;
			}
			for (i = 0; i < n; i++) {
				int c;

				for (c = 0; c < C__NR; c++)
					if (!strcmp(tok[i], cols[c].name))
						colidx[c] = i;
				if (!strcmp(tok[i], "WQ_ID"))
					idcol = i;
				if (!strcmp(tok[i], "RUN_BUCKETS"))
					rbcol = i;
				if (!strcmp(tok[i], "LAT_BUCKETS"))
					lbcol = i;
			}
			for (i = 0; i < C__NR; i++) {
				if (cols[i].required && colidx[i] < 0) {
					fail(err, name, ln, "not a workqueue stat header: no column %s",
					     cols[i].name);
					goto out;
				}
			}
			if (n < 2 || strcmp(tok[n - 2], "WORKQUEUE") || strcmp(tok[n - 1], "FUNCTION")) {
				fail(err, name, ln, "not a workqueue stat header: it must end with WORKQUEUE FUNCTION");
				goto out;
			}
			ncols = n;
			header = true;
			continue;
		}
		/* a row */
		{
			char *copy = strdup(line), *fn;
			struct wq_row r = { 0 };
			uint64_t *dst[C__NR] = {
				&r.queued, &r.executed, &r.cancelled, &r.run_total,
				&r.run_avg, &r.run_min, &r.run_max, &r.run_p99,
				&r.lat_avg, &r.lat_max, &r.lat_p99, &r.late_n,
				&r.late_avg, &r.late_max, &r.lat_sum,
			};
			int n;

			if (!copy) {
				fail(err, name, ln, "out of memory");
				goto out;
			}
			n = split(line, tok, ncols);
			if (n < ncols) {
				free(copy);
				fail(err, name, ln, "%d fields, the header has %d columns", n, ncols);
				goto out;
			}
			for (i = 0; i < C__NR; i++) {
				int bad;

				if (colidx[i] < 0)
					continue;
				/* a time that a table of an interval cannot tell */
				if (cols[i].is_time && i != C_TOTAL_RUN && !strcmp(tok[colidx[i]], "-")) {
					*dst[i] = WQ_UNKNOWN;
					continue;
				}
				bad = cols[i].is_time ? wq_parse_us(tok[colidx[i]], dst[i])
						      : wq_parse_count(tok[colidx[i]], dst[i]);
				if (bad) {
					fail(err, name, ln, "column %s: '%.40s' is not a %s",
					     cols[i].name, tok[colidx[i]],
					     cols[i].is_time ? "time in us (N.NNN)" : "count");
					free(copy);
					goto out;
				}
			}
			if (idcol >= 0) {
				const char *id = tok[idcol];
				size_t il = strlen(id);

				if (strcmp(id, "-") &&
				    (il != 8 || strspn(id, "0123456789abcdef") != 8)) {
					fail(err, name, ln, "column WQ_ID: '%.40s' is not 8 hex digits or -",
					     id);
					free(copy);
					goto out;
				}
				memcpy(r.wq_id, id, il + 1);
			}
			if (rbcol >= 0 && lbcol >= 0) {
				const char *why = NULL;
				int bc = rbcol;

				r.has_hist = true;
				if (!parse_buckets(tok[rbcol], &r.run, &why)) {
					bc = lbcol;
					if (parse_buckets(tok[lbcol], &r.lat, &why))
						free(r.run.b);
					else
						why = NULL;
				}
				if (why) {
					fail(err, name, ln, "column %s: '%.40s': %s",
					     bc == rbcol ? "RUN_BUCKETS" : "LAT_BUCKETS", tok[bc], why);
					free(copy);
					goto out;
				}
				r.run.sum_ns = r.run_total;
				r.lat.sum_ns = r.lat_sum;
			}
			/* FUNCTION is the rest of the line, as %ps prints it */
			fn = copy + (tok[ncols - 1] - line);
			if (t->nr >= WQSTAT_MAX_ROWS) {
				free(copy);
				fail(err, name, ln, "more than %d rows", WQSTAT_MAX_ROWS);
				goto out;
			}
			if (t->nr == t->alloc) {
				size_t na = t->alloc ? t->alloc * 2 : 64;
				struct wq_row *nr = realloc(t->rows, na * sizeof(*nr));

				if (!nr) {
					free(copy);
					fail(err, name, ln, "out of memory");
					goto out;
				}
				t->rows = nr;
				t->alloc = na;
			}
			r.workqueue = strdup(tok[ncols - 2]);
			r.function = strdup(fn);
			free(copy);
			if (!r.workqueue || !r.function) {
				wq_row_free(&r);
				fail(err, name, ln, "out of memory");
				goto out;
			}
			{
				size_t wl = strlen(r.workqueue);

				size_t fl = strlen(r.function);

				if (wl > 11 && !strcmp(r.workqueue + wl - 11, "(destroyed)"))
					r.destroyed = true;
				if (fl > 10 && !strcmp(r.function + fl - 10, "(unloaded)"))
					r.unloaded = true;
			}
			t->rows[t->nr++] = r;
		}
	}
	if (ferror(f)) {
		fail(err, name, ln, "read error: %s", strerror(errno));
		goto out;
	}
	if (!header) {
		fail(err, name, ln ? ln : 0, ln ? "no table header: not a workqueue stat table"
					       : "empty: no table header");
		goto out;
	}
	ret = 0;
out:
	free(line);
	if (ret)
		wq_table_free(t);
	return ret;
}
