// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - sorting, the text, JSON and Prometheus outputs, and the diff.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

static const char *const key_names[KEY__NR] = {
	[KEY_TOTAL] = "total", [KEY_AVG] = "avg", [KEY_MIN] = "min",
	[KEY_MAX] = "max", [KEY_P99] = "p99", [KEY_LAT] = "lat",
	[KEY_MAXLAT] = "maxlat", [KEY_P99LAT] = "p99lat", [KEY_LATE] = "late",
	[KEY_QUEUED] = "queued", [KEY_EXECUTED] = "executed",
	[KEY_CANCELLED] = "cancelled", [KEY_WORKQUEUE] = "workqueue",
	[KEY_FUNCTION] = "function",
};

int wq_key_parse(const char *s, enum wq_key *key)
{
	int i;

	for (i = 0; i < KEY__NR; i++) {
		if (!strcmp(s, key_names[i])) {
			*key = i;
			return 0;
		}
	}
	return -1;
}

const char *wq_key_names(void)
{
	return "total avg min max p99 lat maxlat p99lat late queued executed cancelled workqueue function";
}

uint64_t wq_key_value(const struct wq_row *r, enum wq_key key)
{
	switch (key) {
	case KEY_TOTAL: return r->run_total;
	case KEY_AVG: return r->run_avg;
	case KEY_MIN: return r->run_min;
	case KEY_MAX: return r->run_max;
	case KEY_P99: return r->run_p99;
	case KEY_LAT: return r->lat_avg;
	case KEY_MAXLAT: return r->lat_max;
	case KEY_P99LAT: return r->lat_p99;
	case KEY_LATE: return r->late_avg;
	case KEY_QUEUED: return r->queued;
	case KEY_EXECUTED: return r->executed;
	case KEY_CANCELLED: return r->cancelled;
	default: return 0;
	}
}

int wq_row_name_cmp(const struct wq_row *a, const struct wq_row *b, enum wq_key key)
{
	int c;

	if (key == KEY_WORKQUEUE || key == KEY_FUNCTION) {
		c = strcmp(key == KEY_WORKQUEUE ? a->workqueue : a->function,
			   key == KEY_WORKQUEUE ? b->workqueue : b->function);
		if (c)
			return c;
	}
	c = strcmp(a->workqueue, b->workqueue);
	return c ? c : strcmp(a->function, b->function);
}

static enum wq_key sort_key;

/*
 * Numbers largest first, a value an interval cannot tell (WQ_UNKNOWN)
 * last; names A to Z; ties by workqueue, then function.
 */
static int row_cmp(const void *pa, const void *pb)
{
	const struct wq_row *a = pa, *b = pb;
	uint64_t x = wq_key_value(a, sort_key), y = wq_key_value(b, sort_key);

	/* a value an interval cannot tell goes last; names have none (0) */
	x = x == WQ_UNKNOWN ? 0 : x;
	y = y == WQ_UNKNOWN ? 0 : y;
	if (x != y)
		return x > y ? -1 : 1;
	return wq_row_name_cmp(a, b, sort_key);
}

void wq_sort(struct wq_table *t, enum wq_key key)
{
	sort_key = key;
	if (t->nr)
		qsort(t->rows, t->nr, sizeof(*t->rows), row_cmp);
}

/* A time with its unit chosen for the value: us, ms or s. */
void wq_fmt_time(uint64_t ns, char *buf, size_t len)
{
	if (ns == WQ_UNKNOWN)
		snprintf(buf, len, "-");
	else if (ns < 1000000ULL)
		snprintf(buf, len, "%.3fus", ns / 1e3);
	else if (ns < 1000000000ULL)
		snprintf(buf, len, "%.3fms", ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", ns / 1e9);
}

static void summary_text(FILE *o, const struct wq_table *t)
{
	const char *sep = "";

	if (t->kernel[0] || t->time[0])
		fprintf(o, "snapshot of %s taken %s\n", t->kernel[0] ? t->kernel : "?",
			t->time[0] ? t->time : "?");
	if (t->enabled >= 0) {
		fprintf(o, "tracer %s", t->enabled ? "on" : "off");
		sep = ", ";
	}
	if (t->rows_used >= 0) {
		fprintf(o, "%s%lld of %lld rows", sep, t->rows_used, t->capacity);
		sep = ", ";
	}
	if (t->dropped >= 0) {
		fprintf(o, "%s%lld events dropped", sep, t->dropped);
		sep = ", ";
	}
	if (t->unmatched >= 0) {
		fprintf(o, "%s%lld executions without enqueue", sep, t->unmatched);
		sep = ", ";
	}
	if (t->since_reset >= 0)
		fprintf(o, t->is_interval ? "%san interval of %.3f s" : "%s%.3f s since reset",
			sep, t->since_reset);
	fputc('\n', o);
}

static bool has_id(const struct wq_row *r);

static const struct wq_row *twin_rows;

/* qsort: row indexes by workqueue, then function. */
static int cmp_wq_fn(const void *x, const void *y)
{
	const struct wq_row *a = &twin_rows[*(const size_t *)x];
	const struct wq_row *b = &twin_rows[*(const size_t *)y];
	int c = strcmp(a->workqueue, b->workqueue);

	return c ? c : strcmp(a->function, b->function);
}

/*
 * Which rows share their workqueue name and function with another row:
 * two live workqueues of one name.  Those are shown as NAME@WQ_ID.  NULL
 * when out of memory; then every row with an id shows it.
 */
static bool *twins(const struct wq_table *t)
{
	size_t *ix = malloc((t->nr + 1) * sizeof(*ix)), i;
	bool *tw = calloc(t->nr + 1, sizeof(*tw));

	if (!ix || !tw) {
		free(ix);
		free(tw);
		return NULL;
	}
	for (i = 0; i < t->nr; i++)
		ix[i] = i;
	twin_rows = t->rows;
	qsort(ix, t->nr, sizeof(*ix), cmp_wq_fn);
	for (i = 1; i < t->nr; i++)
		if (!cmp_wq_fn(&ix[i - 1], &ix[i]))
			tw[ix[i - 1]] = tw[ix[i]] = true;
	free(ix);
	return tw;
}

void wq_print_text(FILE *o, const struct wq_table *t, size_t limit)
{
	bool *tw = twins(t);
	char wq[64];
	char b[9][32];
	size_t i, n = limit && limit < t->nr ? limit : t->nr;

	summary_text(o, t);
	fprintf(o, "%9s %9s %6s %12s %11s %11s %11s %11s %11s %11s %11s  %-20s %s\n",
		"QUEUED", "EXECUTED", "CANCEL", "TOTAL_RUN", "AVG_RUN", "MIN_RUN",
		"MAX_RUN", "P99_RUN", "AVG_LAT", "MAX_LAT", "P99_LAT",
		"WORKQUEUE", "FUNCTION");
	for (i = 0; i < n; i++) {
		const struct wq_row *r = &t->rows[i];

		wq_fmt_time(r->run_total, b[0], sizeof(b[0]));
		wq_fmt_time(r->run_avg, b[1], sizeof(b[1]));
		wq_fmt_time(r->run_min, b[2], sizeof(b[2]));
		wq_fmt_time(r->run_max, b[3], sizeof(b[3]));
		wq_fmt_time(r->run_p99, b[4], sizeof(b[4]));
		wq_fmt_time(r->lat_avg, b[5], sizeof(b[5]));
		wq_fmt_time(r->lat_max, b[6], sizeof(b[6]));
		wq_fmt_time(r->lat_p99, b[7], sizeof(b[7]));
		if (has_id(r) && (!tw || tw[i]))
			snprintf(wq, sizeof(wq), "%s@%s", r->workqueue, r->wq_id);
		else
			snprintf(wq, sizeof(wq), "%s", r->workqueue);
		fprintf(o, "%9llu %9llu %6llu %12s %11s %11s %11s %11s %11s %11s %11s  %-20s %s\n",
			(unsigned long long)r->queued, (unsigned long long)r->executed,
			(unsigned long long)r->cancelled, b[0], b[1], b[2], b[3],
			b[4], b[5], b[6], b[7], wq, r->function);
	}
	free(tw);
	if (n < t->nr)
		fprintf(o, "(%zu more rows; -n 0 shows all)\n", t->nr - n);
}

/*
 * The length of the UTF-8 sequence at @s, or 0 when it is not one (a stray
 * or truncated byte, an overlong form, a surrogate, past U+10FFFF).
 */
size_t wq_utf8_len(const unsigned char *s)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * A name as a JSON string.  JSON is UTF-8: a byte that is not part of a
 * valid sequence becomes U+FFFD, the replacement character.
 */
void wq_json_string(FILE *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t l;

	fputc('"', o);
	while (*p) {
		unsigned char c = *p;

		l = wq_utf8_len(p);
		if (!l) {
			fputs("\\ufffd", o);
			p++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(o, "\\u%04x", c);
		else
			fwrite(p, 1, l, o);
		p += l;
	}
	fputc('"', o);
}

/* A time in microseconds as a JSON number; null when it is not known. */
void wq_json_us(FILE *o, const char *key, uint64_t ns, bool comma)
{
	if (ns == WQ_UNKNOWN)
		fprintf(o, "\"%s\": null%s", key, comma ? ", " : "");
	else
		fprintf(o, "\"%s\": %llu.%03llu%s", key, (unsigned long long)(ns / 1000),
			(unsigned long long)(ns % 1000), comma ? ", " : "");
}

void wq_json_ident(FILE *o, const struct wq_row *r)
{
	fputs("\"workqueue\": ", o);
	wq_json_string(o, r->workqueue);
	fputs(", \"function\": ", o);
	wq_json_string(o, r->function);
	fputs(", \"wq_id\": ", o);
	if (r->wq_id[0])
		wq_json_string(o, r->wq_id);
	else
		fputs("null", o);
	fprintf(o, ", \"destroyed\": %s", r->destroyed ? "true" : "false");
}

static void json_row(FILE *o, const struct wq_row *r)
{
	fputc('{', o);
	wq_json_ident(o, r);
	fprintf(o, ", \"queued\": %llu, \"executed\": %llu, \"cancelled\": %llu, ",
		(unsigned long long)r->queued,
		(unsigned long long)r->executed, (unsigned long long)r->cancelled);
	wq_json_us(o, "total_run_us", r->run_total, true);
	wq_json_us(o, "avg_run_us", r->run_avg, true);
	wq_json_us(o, "min_run_us", r->run_min, true);
	wq_json_us(o, "max_run_us", r->run_max, true);
	wq_json_us(o, "p99_run_us", r->run_p99, true);
	wq_json_us(o, "avg_lat_us", r->lat_avg, true);
	wq_json_us(o, "max_lat_us", r->lat_max, true);
	wq_json_us(o, "p99_lat_us", r->lat_p99, true);
	fprintf(o, "\"late_n\": %llu, ", (unsigned long long)r->late_n);
	wq_json_us(o, "avg_late_us", r->late_avg, true);
	wq_json_us(o, "max_late_us", r->late_max, false);
	fputc('}', o);
}

static void json_ll(FILE *o, const char *key, long long v)
{
	if (v < 0)
		fprintf(o, "\"%s\": null, ", key);
	else
		fprintf(o, "\"%s\": %lld, ", key, v);
}

void wq_print_json(FILE *o, const struct wq_table *t, size_t limit)
{
	size_t i, n = limit && limit < t->nr ? limit : t->nr;

	fputs("{\"version\": 1, \"summary\": {", o);
	if (t->enabled < 0)
		fputs("\"enabled\": null, ", o);
	else
		fprintf(o, "\"enabled\": %s, ", t->enabled ? "true" : "false");
	json_ll(o, "rows_used", t->rows_used);
	json_ll(o, "capacity", t->capacity);
	json_ll(o, "dropped", t->dropped);
	json_ll(o, "lost_pairs", t->lost_pairs);
	json_ll(o, "unmatched", t->unmatched);
	json_ll(o, "memory_bytes", t->memory);
	json_ll(o, "merged", t->merged);
	json_ll(o, "evicted", t->evicted);
	json_ll(o, "evicted_events", t->evicted_events);
	json_ll(o, "resets", t->resets);
	if (t->since_reset < 0)
		fprintf(o, "\"%s\": null, ", t->is_interval ? "interval_s" : "since_reset_s");
	else
		fprintf(o, "\"%s\": %.3f, ", t->is_interval ? "interval_s" : "since_reset_s",
			t->since_reset);
	fputs("\"kernel\": ", o);
	wq_json_string(o, t->kernel);
	fputs(", \"time\": ", o);
	wq_json_string(o, t->time);
	fputs("},\n \"rows\": [", o);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", o);
		json_row(o, &t->rows[i]);
	}
	fputs("\n]}\n", o);
}

/* A workqueue instance's own id: not absent, not "-" (every instance). */
static bool has_id(const struct wq_row *r)
{
	return r->wq_id[0] && strcmp(r->wq_id, "-");
}

/* B/A; 1 when both are 0, INFINITY when only A is 0. */
double wq_ratio(uint64_t a, uint64_t b)
{
	if (!a)
		return b ? INFINITY : 1.0;
	return (double)b / (double)a;
}

/*
 * How much a row regressed: the wall time B spent more than A would have,
 * run time and queue latency together, over B's executions.  Ranking by
 * time lost, not by ratio, keeps a 20 us item that became 30 us below a
 * 1 ms item that became 4 ms.
 */
static double regression(const struct wq_row *a, const struct wq_row *b)
{
	double run = (double)b->run_avg - (double)a->run_avg;
	double lat = (double)b->lat_avg - (double)a->lat_avg;

	return (double)b->executed * (run + lat);
}

/* Rows in both first, the most time lost first; then only in B, then only in A. */
static int diff_cmp(const void *pa, const void *pb)
{
	const struct wq_diff_row *x = pa, *y = pb;
	int cx = x->a && x->b ? 0 : x->b ? 1 : 2;
	int cy = y->a && y->b ? 0 : y->b ? 1 : 2;
	const struct wq_row *rx = x->b ? x->b : x->a, *ry = y->b ? y->b : y->a;
	int c;

	if (cx != cy)
		return cx - cy;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	c = strcmp(rx->workqueue, ry->workqueue);
	return c ? c : strcmp(rx->function, ry->function);
}

int wq_diff(const struct wq_table *a, const struct wq_table *b, struct wq_diff *d)
{
	size_t i;

	d->nr = 0;
	if (wq_pair(a, b, false, &d->rows, &d->nr))
		return -1;
	for (i = 0; i < d->nr; i++)
		if (d->rows[i].a && d->rows[i].b)
			d->rows[i].score = regression(d->rows[i].a, d->rows[i].b);
	if (d->nr)
		qsort(d->rows, d->nr, sizeof(*d->rows), diff_cmp);
	return 0;
}

void wq_diff_free(struct wq_diff *d)
{
	free(d->rows);
	d->rows = NULL;
	d->nr = 0;
}

static void fmt_ratio(double r, char *buf, size_t len)
{
	if (isinf(r))
		snprintf(buf, len, "new");
	else
		snprintf(buf, len, "x%.2f", r);
}

static long long delta(uint64_t a, uint64_t b)
{
	return (long long)b - (long long)a;
}

void wq_print_diff_text(FILE *o, const struct wq_diff *d, size_t limit)
{
	size_t i, n = limit && limit < d->nr ? limit : d->nr;
	static const struct wq_row zero;

	fprintf(o, "   %9s %9s %7s  %-25s %-25s %-25s %-25s  %-20s %s\n", "dQUEUED",
		"dEXECUTED", "dCANCEL", "AVG_RUN A -> B", "P99_RUN A -> B",
		"AVG_LAT A -> B", "P99_LAT A -> B", "WORKQUEUE", "FUNCTION");
	for (i = 0; i < n; i++) {
		const struct wq_diff_row *r = &d->rows[i];
		const struct wq_row *a = r->a ? r->a : &zero, *b = r->b ? r->b : &zero;
		const struct wq_row *id = r->b ? r->b : r->a;
		uint64_t va[4] = { a->run_avg, a->run_p99, a->lat_avg, a->lat_p99 };
		uint64_t vb[4] = { b->run_avg, b->run_p99, b->lat_avg, b->lat_p99 };
		char cell[4][80];
		int k;

		for (k = 0; k < 4; k++) {
			char ta[24], tb[24], ra[16];

			wq_fmt_time(va[k], ta, sizeof(ta));
			wq_fmt_time(vb[k], tb, sizeof(tb));
			fmt_ratio(wq_ratio(va[k], vb[k]), ra, sizeof(ra));
			snprintf(cell[k], sizeof(cell[k]), "%s->%s %s", ta, tb, ra);
		}
		fprintf(o, "%s %+9lld %+9lld %+7lld  %-25s %-25s %-25s %-25s  %-20s %s\n",
			r->a && r->b ? " " : r->b ? "+" : "-",
			delta(a->queued, b->queued), delta(a->executed, b->executed),
			delta(a->cancelled, b->cancelled), cell[0], cell[1], cell[2],
			cell[3], id->workqueue, id->function);
	}
	if (n < d->nr)
		fprintf(o, "(%zu more rows; -n 0 shows all)\n", d->nr - n);
	fputs("(+ only in B, - only in A; ratios are B/A; sorted by time lost in B, worst first)\n", o);
}

static void json_ratio(FILE *o, const char *key, uint64_t a, uint64_t b)
{
	double r = wq_ratio(a, b);

	if (isinf(r))
		fprintf(o, ", \"%s\": null", key);
	else
		fprintf(o, ", \"%s\": %.4f", key, r);
}

void wq_print_diff_json(FILE *o, const struct wq_diff *d, const char *na,
			const char *nb, size_t limit)
{
	size_t i, n = limit && limit < d->nr ? limit : d->nr;
	static const struct wq_row zero;

	fputs("{\"version\": 1, \"a\": ", o);
	wq_json_string(o, na);
	fputs(", \"b\": ", o);
	wq_json_string(o, nb);
	fputs(", \"rows\": [", o);
	for (i = 0; i < n; i++) {
		const struct wq_diff_row *r = &d->rows[i];
		const struct wq_row *a = r->a ? r->a : &zero, *b = r->b ? r->b : &zero;
		const struct wq_row *id = r->b ? r->b : r->a;

		fputs(i ? ",\n  {" : "\n  {", o);
		fputs("\"workqueue\": ", o);
		wq_json_string(o, id->workqueue);
		fputs(", \"function\": ", o);
		wq_json_string(o, id->function);
		fprintf(o, ", \"in\": \"%s\"", r->a && r->b ? "both" : r->b ? "b" : "a");
		fprintf(o, ", \"d_queued\": %lld, \"d_executed\": %lld, \"d_cancelled\": %lld",
			delta(a->queued, b->queued), delta(a->executed, b->executed),
			delta(a->cancelled, b->cancelled));
		fputs(", ", o);
		wq_json_us(o, "a_avg_run_us", a->run_avg, true);
		wq_json_us(o, "b_avg_run_us", b->run_avg, false);
		json_ratio(o, "avg_run_ratio", a->run_avg, b->run_avg);
		fputs(", ", o);
		wq_json_us(o, "a_p99_run_us", a->run_p99, true);
		wq_json_us(o, "b_p99_run_us", b->run_p99, false);
		json_ratio(o, "p99_run_ratio", a->run_p99, b->run_p99);
		fputs(", ", o);
		wq_json_us(o, "a_avg_lat_us", a->lat_avg, true);
		wq_json_us(o, "b_avg_lat_us", b->lat_avg, false);
		json_ratio(o, "avg_lat_ratio", a->lat_avg, b->lat_avg);
		fputs(", ", o);
		wq_json_us(o, "a_p99_lat_us", a->lat_p99, true);
		wq_json_us(o, "b_p99_lat_us", b->lat_p99, false);
		json_ratio(o, "p99_lat_ratio", a->lat_p99, b->lat_p99);
		fputc('}', o);
	}
	fputs("\n]}\n", o);
}

/* A CSV field: quoted when it holds the separator, a quote or a line end. */
static void csv_string(FILE *o, const char *s, char sep)
{
	if (!strchr(s, sep) && !strpbrk(s, "\"\r\n")) {
		fputs(s, o);
		return;
	}
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

/* A time in microseconds as a CSV field; empty when it is not known. */
static void csv_us(FILE *o, uint64_t ns, char sep)
{
	fputc(sep, o);
	if (ns != WQ_UNKNOWN)
		fprintf(o, "%llu.%03llu", (unsigned long long)(ns / 1000),
			(unsigned long long)(ns % 1000));
}

void wq_print_csv(FILE *o, const struct wq_table *t, size_t limit, char sep)
{
	static const char *const names[] = {
		"queued", "executed", "cancelled", "total_run_us", "avg_run_us",
		"min_run_us", "max_run_us", "p99_run_us", "avg_lat_us", "max_lat_us",
		"p99_lat_us", "late_n", "avg_late_us", "max_late_us", "wq_id",
		"destroyed", "workqueue", "function",
	};
	size_t i, k, n = limit && limit < t->nr ? limit : t->nr;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		fprintf(o, "%s%s", k ? (char[2]){ sep, 0 } : "", names[k]);
	fputc('\n', o);
	for (i = 0; i < n; i++) {
		const struct wq_row *r = &t->rows[i];

		fprintf(o, "%llu%c%llu%c%llu", (unsigned long long)r->queued, sep,
			(unsigned long long)r->executed, sep, (unsigned long long)r->cancelled);
		csv_us(o, r->run_total, sep);
		csv_us(o, r->run_avg, sep);
		csv_us(o, r->run_min, sep);
		csv_us(o, r->run_max, sep);
		csv_us(o, r->run_p99, sep);
		csv_us(o, r->lat_avg, sep);
		csv_us(o, r->lat_max, sep);
		csv_us(o, r->lat_p99, sep);
		fprintf(o, "%c%llu", sep, (unsigned long long)r->late_n);
		csv_us(o, r->late_avg, sep);
		csv_us(o, r->late_max, sep);
		fprintf(o, "%c%s%c%d%c", sep, r->wq_id, sep, r->destroyed, sep);
		csv_string(o, r->workqueue, sep);
		fputc(sep, o);
		csv_string(o, r->function, sep);
		fputc('\n', o);
	}
}

/* A time in microseconds as the kernel prints it; "-" when not known. */
static void table_us(FILE *o, uint64_t ns)
{
	if (ns == WQ_UNKNOWN)
		fputs(" -", o);
	else
		fprintf(o, " %llu.%03llu", (unsigned long long)(ns / 1000),
			(unsigned long long)(ns % 1000));
}

/* A bucket column as the kernel prints it. */
static void table_buckets(FILE *o, const struct wq_hist *h)
{
	size_t i;

	if (!h->nr)
		fputs(" -", o);
	for (i = 0; i < h->nr; i++) {
		fputc(i ? ',' : ' ', o);
		if (h->b[i].le_ns == WQ_UNKNOWN)
			fputs("inf", o);
		else
			fprintf(o, "%llu", (unsigned long long)h->b[i].le_ns);
		fprintf(o, ":%llu", (unsigned long long)h->b[i].count);
	}
}

void wq_write_table(FILE *o, const struct wq_table *t)
{
	bool hist = t->nr > 0, ids = false;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		hist = hist && t->rows[i].has_hist;
		ids = ids || t->rows[i].wq_id[0];
	}
	if (t->enabled >= 0)
		fprintf(o, "# enabled: %d\n", t->enabled);
	if (t->rows_used >= 0)
		fprintf(o, "# rows: %lld of %lld\n", t->rows_used, t->capacity);
	if (t->dropped >= 0)
		fprintf(o, "# dropped: %lld events (table full)\n", t->dropped);
	if (t->merged >= 0)
		fprintf(o, "# merged: %lld retired rows\n", t->merged);
	if (t->evicted >= 0)
		fprintf(o, "# evicted: %lld retired rows (%lld events)\n", t->evicted,
			t->evicted_events >= 0 ? t->evicted_events : 0);
	if (t->lost_pairs >= 0)
		fprintf(o, "# lost pairs: %lld (pairing tables full)\n", t->lost_pairs);
	if (t->unmatched >= 0)
		fprintf(o, "# unmatched: %lld executions without an enqueue\n", t->unmatched);
	if (t->since_reset >= 0)
		fprintf(o, "# %s: %.3f s\n", t->is_interval ? "interval" : "since reset",
			t->since_reset);
	if (t->resets >= 0)
		fprintf(o, "# resets: %lld\n", t->resets);
	if (t->memory >= 0)
		fprintf(o, "# memory: %lld bytes\n", t->memory);
	fprintf(o, "QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us "
		"P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us %s%s"
		"WORKQUEUE FUNCTION\n", hist ? "TOTAL_LAT_us RUN_BUCKETS LAT_BUCKETS " : "",
		ids ? "WQ_ID " : "");
	for (i = 0; i < t->nr; i++) {
		const struct wq_row *r = &t->rows[i];

		fprintf(o, "%llu %llu %llu", (unsigned long long)r->queued,
			(unsigned long long)r->executed, (unsigned long long)r->cancelled);
		table_us(o, r->run_total);
		table_us(o, r->run_avg);
		table_us(o, r->run_min);
		table_us(o, r->run_max);
		table_us(o, r->run_p99);
		table_us(o, r->lat_avg);
		table_us(o, r->lat_max);
		table_us(o, r->lat_p99);
		fprintf(o, " %llu", (unsigned long long)r->late_n);
		table_us(o, r->late_avg);
		table_us(o, r->late_max);
		if (hist) {
			table_us(o, r->lat.sum_ns);
			table_buckets(o, &r->run);
			table_buckets(o, &r->lat);
		}
		if (ids)
			fprintf(o, " %s", r->wq_id[0] ? r->wq_id : "-");
		fprintf(o, " %s %s\n", r->workqueue, r->function);
	}
}
