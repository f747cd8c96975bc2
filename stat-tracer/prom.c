// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - the Prometheus text exposition format 0.0.4, for node_exporter's
 * textfile collector.
 *
 * Every metric family is written once, HELP and TYPE first, then all its
 * samples.  A row's series carry the labels workqueue and function (without
 * their "(destroyed)" and "(unloaded)" suffixes), wq_id (when the table has
 * the column), destroyed and unloaded; rows that still share every label get
 * dup="2", "3"... in table order, so that no series is written twice.
 *
 * The run and latency histograms use one fixed set of bounds for every row,
 * 64 ns times a power of two, so that their buckets add up across rows.
 * Each kernel bucket lies in one such power-of-two interval and is counted
 * under the bound that closes it.  A row without the kernel's buckets (an
 * older table) has only the +Inf bucket, with the executions as its count.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

#define PROM_UNIT_NS	64ULL
#define PROM_NR_LE	30	/* 64 ns * 2^0 ... 64 ns * 2^29 (about 34.36 s), then +Inf */

/* A label value: escaped as the text format asks; bytes that are not UTF-8 become U+FFFD. */
static void prom_label(FILE *o, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t l;

	fputc('"', o);
	while (p < end && *p) {
		l = wq_utf8_len(p);
		if (!l || l > (size_t)(end - p)) {
			fputs("\xef\xbf\xbd", o);	/* U+FFFD */
			p++;
			continue;
		}
		if (*p == '\\' || *p == '"')
			fprintf(o, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", o);
		else
			fwrite(p, 1, l, o);
		p += l;
	}
	fputc('"', o);
}

/* The length of @s without @suffix (and one blank before it) when @strip and it ends so. */
static size_t strip_len(const char *s, const char *suffix, bool strip)
{
	size_t l = strlen(s), sl = strlen(suffix);

	if (!strip || l < sl || strcmp(s + l - sl, suffix))
		return l;
	l -= sl;
	if (l && s[l - 1] == ' ')
		l--;
	return l;
}

/* Write the labels of @r, without braces, as one string. */
static void row_labels(FILE *o, const struct wq_row *r)
{
	fputs("workqueue=", o);
	prom_label(o, r->workqueue, strip_len(r->workqueue, "(destroyed)", r->destroyed));
	fputs(",function=", o);
	prom_label(o, r->function, strip_len(r->function, "(unloaded)", r->unloaded));
	if (r->wq_id[0]) {
		fputs(",wq_id=", o);
		prom_label(o, r->wq_id, strlen(r->wq_id));
	}
	fprintf(o, ",destroyed=\"%s\",unloaded=\"%s\"", r->destroyed ? "true" : "false",
		r->unloaded ? "true" : "false");
}

/* The label strings of every row, made unique, and where each one starts. */
struct prom_labels {
	char		*buf;
	size_t		len;
	size_t		*off;	/* the row's labels start at buf + off[i] */
	uint32_t	*dup;	/* 0, or N for dup="N" */
};

static const struct prom_labels *sort_pl;

/* Order row indexes by label string, then by row. */
static int label_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(sort_pl->buf + sort_pl->off[a], sort_pl->buf + sort_pl->off[b]);

	if (c)
		return c;
	return a < b ? -1 : a > b;
}

/* Build the label strings of @t's rows and number the duplicates; 0 or -1 (out of memory). */
static int labels_build(struct prom_labels *pl, const struct wq_table *t)
{
	size_t i, run = 0, *ix = NULL;
	FILE *m;

	memset(pl, 0, sizeof(*pl));
	pl->off = malloc((t->nr + 1) * sizeof(*pl->off));
	pl->dup = calloc(t->nr + 1, sizeof(*pl->dup));
	ix = malloc((t->nr + 1) * sizeof(*ix));
	m = open_memstream(&pl->buf, &pl->len);
	if (!pl->off || !pl->dup || !ix || !m)
		goto fail;
	for (i = 0; i < t->nr; i++) {
		long pos = ftell(m);

		if (pos < 0)
			goto fail;
		pl->off[i] = pos;
		row_labels(m, &t->rows[i]);
		fputc('\0', m);
	}
	if (fclose(m)) {
		m = NULL;
		goto fail;
	}
	m = NULL;
	/* equal label strings end up together, in table order: the later rows get dup */
	for (i = 0; i < t->nr; i++)
		ix[i] = i;
	sort_pl = pl;
	qsort(ix, t->nr, sizeof(*ix), label_cmp);
	for (i = 1; i < t->nr; i++) {
		if (strcmp(pl->buf + pl->off[ix[i - 1]], pl->buf + pl->off[ix[i]]))
			run = 0;
		else
			pl->dup[ix[i]] = ++run + 1;
	}
	free(ix);
	return 0;
fail:
	if (m)
		fclose(m);
	free(ix);
	free(pl->off);
	free(pl->dup);
	free(pl->buf);
	memset(pl, 0, sizeof(*pl));
	return -1;
}

/* Free what labels_build() made. */
static void labels_free(struct prom_labels *pl)
{
	free(pl->off);
	free(pl->dup);
	free(pl->buf);
}

/* Write NAME{LABELS of row i[,EXTRA]} and a space. */
static void series(FILE *o, const char *name, const char *suffix,
		   const struct prom_labels *pl, size_t i, const char *extra)
{
	fprintf(o, "%s%s{%s", name, suffix, pl->buf + pl->off[i]);
	if (pl->dup[i])
		fprintf(o, ",dup=\"%u\"", pl->dup[i]);
	if (extra)
		fprintf(o, ",%s", extra);
	fputs("} ", o);
}

/* A number of nanoseconds as seconds, exactly, and a newline. */
static void prom_seconds(FILE *o, uint64_t ns)
{
	fprintf(o, "%llu.%09llu\n", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000));
}

/* A finite double in @buf, in the fewest digits that read back the same. */
static void fmt_double(char *buf, size_t len, double v)
{
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* HELP and TYPE of a family. */
static void family(FILE *o, const char *name, const char *type, const char *help)
{
	fprintf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A summary value of the table, when the source had it (>= 0). */
static void summary(FILE *o, const char *name, const char *type, const char *help, long long v)
{
	if (v < 0)
		return;
	family(o, name, type, help);
	fprintf(o, "%s %lld\n", name, v);
}

struct prom_metric {
	const char	*name, *type, *help;
	bool		seconds;
	size_t		off;
};

#define M(n, t, h, s, f) { n, t, h, s, offsetof(struct wq_row, f) }
static const struct prom_metric metrics[] = {
	M("wqstat_queued_total", "counter", "Work items put on a pool's list.", false, queued),
	M("wqstat_executed_total", "counter", "Work function calls.", false, executed),
	M("wqstat_cancelled_total", "counter",
	  "Cancels that took a queued item or an armed timer off.", false, cancelled),
	M("wqstat_timer_late_total", "counter",
	  "Timers of delayed work that fired late (deferrable timers not counted).", false,
	  late_n),
	M("wqstat_run_max_seconds", "gauge", "Longest run of the work function.", true, run_max),
	M("wqstat_latency_max_seconds", "gauge", "Longest time from enqueue to execution.", true,
	  lat_max),
	M("wqstat_timer_late_max_seconds", "gauge",
	  "Largest lateness of a delayed work's timer.", true, late_max),
};

/* The upper bound of fixed bucket @k in ns. */
static uint64_t le_ns(int k)
{
	return PROM_UNIT_NS << k;
}

/* The fixed bucket that holds a kernel bucket ending (exclusive) at @u ns; PROM_NR_LE: +Inf. */
static int le_index(uint64_t u)
{
	int k;

	if (u == WQ_UNKNOWN)
		return PROM_NR_LE;
	for (k = 0; k < PROM_NR_LE; k++)
		if (le_ns(k) >= u)
			return k;
	return PROM_NR_LE;
}

/* @a + @b, held at UINT64_MAX. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* One row's histogram: the cumulative buckets, _sum and _count. */
static void histogram(FILE *o, const char *name, const struct prom_labels *pl, size_t i,
		      const struct wq_hist *h, const char (*le)[32])
{
	uint64_t per[PROM_NR_LE + 1] = { 0 }, cum = 0;
	char extra[48];
	size_t j;
	int k;

	for (j = 0; j < h->nr; j++) {
		k = le_index(h->b[j].le_ns);
		per[k] = add_sat(per[k], h->b[j].count);
	}
	for (k = 0; k < PROM_NR_LE; k++) {
		cum = add_sat(cum, per[k]);
		snprintf(extra, sizeof(extra), "le=\"%s\"", le[k]);
		series(o, name, "_bucket", pl, i, extra);
		fprintf(o, "%llu\n", (unsigned long long)(cum < h->n ? cum : h->n));
	}
	series(o, name, "_bucket", pl, i, "le=\"+Inf\"");
	fprintf(o, "%llu\n", (unsigned long long)h->n);
	series(o, name, "_sum", pl, i, NULL);
	prom_seconds(o, h->sum_ns);
	series(o, name, "_count", pl, i, NULL);
	fprintf(o, "%llu\n", (unsigned long long)h->n);
}

/* A histogram of a row without buckets: +Inf only, @n samples totalling @sum_ns. */
static void histogram_flat(FILE *o, const char *name, const struct prom_labels *pl, size_t i,
			   uint64_t n, uint64_t sum_ns)
{
	series(o, name, "_bucket", pl, i, "le=\"+Inf\"");
	fprintf(o, "%llu\n", (unsigned long long)n);
	series(o, name, "_sum", pl, i, NULL);
	prom_seconds(o, sum_ns);
	series(o, name, "_count", pl, i, NULL);
	fprintf(o, "%llu\n", (unsigned long long)n);
}

/* The table as Prometheus metrics: the summary, then a series per row and metric. */
void wq_print_prometheus(FILE *o, const struct wq_table *t)
{
	char le[PROM_NR_LE][32], num[40];
	struct prom_labels pl;
	size_t m, i;
	int k;

	summary(o, "wqstat_enabled", "gauge", "Whether the tracer counts (1) or not (0).",
		t->enabled);
	summary(o, "wqstat_rows", "gauge", "Rows of the table in use.", t->rows_used);
	summary(o, "wqstat_capacity", "gauge", "Rows the table holds.", t->capacity);
	summary(o, "wqstat_dropped_events_total", "counter",
		"Events lost because no row could be had (the table was full).", t->dropped);
	summary(o, "wqstat_lost_pairs_total", "counter",
		"Latency or run-time samples lost because a pairing table was full.",
		t->lost_pairs);
	summary(o, "wqstat_unmatched_total", "counter", "Executions without an enqueue seen.",
		t->unmatched);
	summary(o, "wqstat_merged_rows_total", "counter",
		"Retired rows added to the kept row of their workqueue name and function.",
		t->merged);
	summary(o, "wqstat_evicted_rows_total", "counter",
		"Kept retired rows given up to make room for new rows.", t->evicted);
	summary(o, "wqstat_evicted_events_total", "counter",
		"Events that the evicted rows had counted, lost with them.", t->evicted_events);
	summary(o, "wqstat_resets_total", "counter", "Resets of the table since boot.", t->resets);
	summary(o, "wqstat_memory_bytes", "gauge", "Bytes the tracer allocated.", t->memory);
	if (t->since_reset >= 0 && isfinite(t->since_reset)) {
		family(o, "wqstat_since_reset_seconds", "gauge",
		       "Seconds since the last reset of the table.");
		fmt_double(num, sizeof(num), t->since_reset);
		fprintf(o, "wqstat_since_reset_seconds %s\n", num);
	}
	if (!t->nr)
		return;
	if (labels_build(&pl, t)) {
		/* no series rather than duplicate ones */
		fputs("# wqstat: out of memory: the rows are left out\n", o);
		return;
	}

	for (m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
		bool started = false;

		for (i = 0; i < t->nr; i++) {
			const struct wq_row *r = &t->rows[i];
			uint64_t v = *(const uint64_t *)((const char *)r + metrics[m].off);

			/* an unknown maximum (of an interval) has no sample */
			if (v == WQ_UNKNOWN)
				continue;
			if (!started)
				family(o, metrics[m].name, metrics[m].type, metrics[m].help);
			started = true;
			series(o, metrics[m].name, "", &pl, i, NULL);
			if (metrics[m].seconds)
				prom_seconds(o, v);
			else
				fprintf(o, "%llu\n", (unsigned long long)v);
		}
	}

	for (k = 0; k < PROM_NR_LE; k++)
		fmt_double(le[k], sizeof(le[k]), le_ns(k) / 1e9);
	family(o, "wqstat_run_seconds", "histogram",
	       "Run time of the work function; without the kernel's buckets, +Inf only.");
	for (i = 0; i < t->nr; i++) {
		const struct wq_row *r = &t->rows[i];

		if (r->has_hist)
			histogram(o, "wqstat_run_seconds", &pl, i, &r->run, le);
		else
			histogram_flat(o, "wqstat_run_seconds", &pl, i, r->executed, r->run_total);
	}
	family(o, "wqstat_latency_seconds", "histogram",
	       "Time from enqueue to execution; without the kernel's buckets, +Inf only, "
	       "and the sum approximate (average times executions).");
	for (i = 0; i < t->nr; i++) {
		const struct wq_row *r = &t->rows[i];
		uint64_t sum;

		if (r->has_hist) {
			histogram(o, "wqstat_latency_seconds", &pl, i, &r->lat, le);
			continue;
		}
		if (__builtin_mul_overflow(r->lat_avg, r->executed, &sum))
			sum = UINT64_MAX;
		histogram_flat(o, "wqstat_latency_seconds", &pl, i, r->executed, sum);
	}
	labels_free(&pl);
}
