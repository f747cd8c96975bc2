// SPDX-License-Identifier: GPL-2.0
/*
 * wqstat - pairing the rows of two tables (sort-merge), and what happened
 * between two tables of one tracer: the rows' differences.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "wqstat.h"

/* The length of @s without @suffix, if it ends with it. */
static size_t base_len(const char *s, const char *suffix)
{
	size_t l = strlen(s), sl = strlen(suffix);

	return l > sl && !strcmp(s + l - sl, suffix) ? l - sl : l;
}

/* Compare two strings up to their lengths @la and @lb, as strcmp(). */
static int cmp_n(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/*
 * A row's identity across tables: the workqueue's name and the function,
 * without "(destroyed)" and "(unloaded)", which a row gains as it retires.
 */
static int key_cmp(const struct wq_row *x, const struct wq_row *y)
{
	int c = cmp_n(x->workqueue, base_len(x->workqueue, "(destroyed)"),
		      y->workqueue, base_len(y->workqueue, "(destroyed)"));

	if (c)
		return c;
	return cmp_n(x->function, base_len(x->function, "(unloaded)"),
		     y->function, base_len(y->function, "(unloaded)"));
}

/* qsort: rows by identity, then by instance. */
static int full_cmp(const void *p, const void *q)
{
	const struct wq_row *x = *(const struct wq_row * const *)p;
	const struct wq_row *y = *(const struct wq_row * const *)q;
	int c = key_cmp(x, y);

	return c ? c : strcmp(x->wq_id, y->wq_id);
}

/* The rows of @t as pointers, sorted by full_cmp(); NULL when out of memory. */
static const struct wq_row **sorted(const struct wq_table *t)
{
	const struct wq_row **v = malloc((t->nr + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < t->nr; i++)
		v[i] = &t->rows[i];
	qsort(v, t->nr, sizeof(*v), full_cmp);
	return v;
}

/* How far the run of rows with the identity of @v[@i] goes. */
static size_t group_end(const struct wq_row **v, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && !key_cmp(v[i], v[j]))
		j++;
	return j;
}

int wq_pair(const struct wq_table *a, const struct wq_table *b, bool strict,
	    struct wq_diff_row **out, size_t *nr)
{
	const struct wq_row **va = sorted(a), **vb = sorted(b);
	struct wq_diff_row *p = calloc(a->nr + b->nr + 1, sizeof(*p));
	size_t ia = 0, ib = 0, n = 0;

	if (!va || !vb || !p) {
		free(va);
		free(vb);
		free(p);
		return -1;
	}
	while (ia < a->nr || ib < b->nr) {
		int c = ia == a->nr ? 1 : ib == b->nr ? -1 : key_cmp(va[ia], vb[ib]);
		size_t ea = ia, eb = ib, i, j, first = n;

		if (c <= 0)
			ea = group_end(va, ia, a->nr);
		if (c >= 0)
			eb = group_end(vb, ib, b->nr);
		/* within a group, the same instance first: both sorted by id */
		for (i = ia, j = ib; i < ea || j < eb; ) {
			int d = i == ea ? 1 : j == eb ? -1 : strcmp(va[i]->wq_id, vb[j]->wq_id);

			p[n].a = d <= 0 ? va[i++] : NULL;
			p[n].b = d >= 0 ? vb[j++] : NULL;
			n++;
		}
		/*
		 * Across boots a workqueue's id changes: unless @strict, the
		 * instances left over on each side are paired in order.
		 */
		if (!strict) {
			size_t k = first, bj = first;

			for (i = first; i < n; i++) {
				if (!p[i].a || p[i].b)
					continue;
				while (bj < n && (p[bj].a || !p[bj].b))
					bj++;
				if (bj == n)
					break;
				p[i].b = p[bj].b;
				p[bj].b = NULL;
			}
			for (i = first; i < n; i++)
				if (p[i].a || p[i].b)
					p[k++] = p[i];
			n = k;
		}
		ia = ea;
		ib = eb;
	}
	free(va);
	free(vb);
	*out = p;
	*nr = n;
	return 0;
}

/* The lower bound of the kernel's bucket below @le ns: see wqstat.h. */
static uint64_t bucket_lo(uint64_t le)
{
	int order;

	if (le <= 1024)
		return le >= 64 ? le - 64 : 0;
	order = 63 - __builtin_clzll(le - 1);
	return le - (1ULL << (order - 3));
}

uint64_t wq_hist_p99(const struct wq_hist *h)
{
	uint64_t rank, seen = 0;
	size_t i;

	if (!h->n)
		return 0;
	rank = h->n - h->n / 100;
	for (i = 0; i < h->nr; i++) {
		seen += h->b[i].count;
		if (seen >= rank)
			break;
	}
	if (i == h->nr || h->b[i].le_ns == WQ_UNKNOWN)
		return WQ_UNKNOWN;
	return bucket_lo(h->b[i].le_ns) + (h->b[i].le_ns - bucket_lo(h->b[i].le_ns)) / 2;
}

/* @b - @a, bucket by bucket; a count that went down is 0.  0 or -1. */
static int hist_sub(const struct wq_hist *b, const struct wq_hist *a, struct wq_hist *d)
{
	size_t i, j = 0;

	memset(d, 0, sizeof(*d));
	d->b = calloc(b->nr + 1, sizeof(*d->b));
	if (!d->b)
		return -1;
	for (i = 0; i < b->nr; i++) {
		uint64_t c = b->b[i].count;

		while (j < a->nr && a->b[j].le_ns < b->b[i].le_ns)
			j++;
		if (j < a->nr && a->b[j].le_ns == b->b[i].le_ns)
			c = c > a->b[j].count ? c - a->b[j].count : 0;
		if (!c)
			continue;
		d->b[d->nr].le_ns = b->b[i].le_ns;
		d->b[d->nr++].count = c;
		d->n += c;
	}
	d->sum_ns = b->sum_ns > a->sum_ns ? b->sum_ns - a->sum_ns : 0;
	return 0;
}

/* @x + @y, bucket by bucket, into @d.  0 or -1. */
static int hist_add(const struct wq_hist *x, const struct wq_hist *y, struct wq_hist *d)
{
	size_t i = 0, j = 0;

	memset(d, 0, sizeof(*d));
	d->b = calloc(x->nr + y->nr + 1, sizeof(*d->b));
	if (!d->b)
		return -1;
	while (i < x->nr || j < y->nr) {
		const struct wq_bucket *bx = i < x->nr ? &x->b[i] : NULL;
		const struct wq_bucket *by = j < y->nr ? &y->b[j] : NULL;
		struct wq_bucket *o = &d->b[d->nr++];

		if (bx && (!by || bx->le_ns <= by->le_ns)) {
			*o = *bx;
			i++;
			if (by && by->le_ns == bx->le_ns) {
				o->count += by->count;
				j++;
			}
		} else {
			*o = *by;
			j++;
		}
		d->n += o->count;
	}
	d->sum_ns = x->sum_ns + y->sum_ns;
	return 0;
}

/* A deep copy of @h. */
static int hist_dup(const struct wq_hist *h, struct wq_hist *d)
{
	*d = *h;
	d->b = malloc((h->nr + 1) * sizeof(*d->b));
	if (!d->b)
		return -1;
	if (h->nr)
		memcpy(d->b, h->b, h->nr * sizeof(*d->b));
	return 0;
}

/* @y - @x, or 0 if it went down. */
static uint64_t sub0(uint64_t y, uint64_t x)
{
	return y > x ? y - x : 0;
}

/* @sum / @n, 0 for no samples. */
static uint64_t avg(uint64_t sum, uint64_t n)
{
	return n ? sum / n : 0;
}

/* The interval's row: @b less @a (NULL: a row new in the interval). */
static int interval_row(const struct wq_row *a, const struct wq_row *b, struct wq_row *r)
{
	uint64_t rn, ln;

	*r = *b;
	r->run.b = r->lat.b = NULL;
	r->workqueue = strdup(b->workqueue);
	r->function = strdup(b->function);
	if (!r->workqueue || !r->function)
		goto nomem;
	if (!a) {
		if (b->has_hist && (hist_dup(&b->run, &r->run) || hist_dup(&b->lat, &r->lat)))
			goto nomem;
		return 0;
	}
	r->queued = sub0(b->queued, a->queued);
	r->executed = sub0(b->executed, a->executed);
	r->cancelled = sub0(b->cancelled, a->cancelled);
	r->run_total = sub0(b->run_total, a->run_total);
	r->lat_sum = sub0(b->lat_sum, a->lat_sum);
	r->late_n = sub0(b->late_n, a->late_n);
	r->has_hist = b->has_hist && a->has_hist;
	if (r->has_hist) {
		if (hist_sub(&b->run, &a->run, &r->run) || hist_sub(&b->lat, &a->lat, &r->lat))
			goto nomem;
		rn = r->run.n;
		ln = r->lat.n;
		r->run_p99 = wq_hist_p99(&r->run);
		r->lat_p99 = wq_hist_p99(&r->lat);
		r->lat_avg = avg(r->lat.sum_ns, ln);
	} else {
		rn = r->executed;
		r->run_p99 = r->lat_p99 = WQ_UNKNOWN;
		/* without TOTAL_LAT_us, the sums as the averages give them */
		r->lat_avg = avg(sub0(b->lat_avg * b->executed, a->lat_avg * a->executed),
				 r->executed);
	}
	r->run_avg = avg(r->run_total, rn);
	/* an extreme of the interval is known only where it moved */
	r->run_min = b->run_min < a->run_min ? b->run_min : WQ_UNKNOWN;
	r->run_max = b->run_max > a->run_max ? b->run_max : WQ_UNKNOWN;
	r->lat_max = b->lat_max > a->lat_max ? b->lat_max : WQ_UNKNOWN;
	r->late_max = b->late_max > a->late_max ? b->late_max : WQ_UNKNOWN;
	r->late_avg = r->late_n ? WQ_UNKNOWN : 0;
	/* as the kernel does: a P99 within the extremes, where they are known */
	if (r->run_max != WQ_UNKNOWN && r->run_p99 != WQ_UNKNOWN && r->run_p99 > r->run_max)
		r->run_p99 = r->run_max;
	if (r->run_min != WQ_UNKNOWN && r->run_p99 != WQ_UNKNOWN && r->run_p99 < r->run_min)
		r->run_p99 = r->run_min;
	if (r->lat_max != WQ_UNKNOWN && r->lat_p99 != WQ_UNKNOWN && r->lat_p99 > r->lat_max)
		r->lat_p99 = r->lat_max;
	return 0;
nomem:
	wq_row_free(r);
	return -1;
}

/*
 * Add the counts of @x to @acc (whose buckets it owns): a row of a
 * destroyed instance, merged into the row of its name ("-") while the
 * interval ran, is in B's merged row and must be in A's as well.
 */
static int merge_row(struct wq_row *acc, const struct wq_row *x)
{
	struct wq_hist run, lat;

	acc->queued += x->queued;
	acc->executed += x->executed;
	acc->cancelled += x->cancelled;
	acc->run_total += x->run_total;
	acc->lat_sum += x->lat_sum;
	acc->late_n += x->late_n;
	acc->run_min = acc->run_min < x->run_min ? acc->run_min : x->run_min;
	acc->run_max = acc->run_max > x->run_max ? acc->run_max : x->run_max;
	acc->lat_max = acc->lat_max > x->lat_max ? acc->lat_max : x->lat_max;
	acc->late_max = acc->late_max > x->late_max ? acc->late_max : x->late_max;
	/* the sums of latency, as the averages give them where none is printed */
	acc->lat_avg = avg(acc->lat_avg * (acc->executed - x->executed) +
			   x->lat_avg * x->executed, acc->executed);
	acc->has_hist = acc->has_hist && x->has_hist;
	if (!acc->has_hist)
		return 0;
	if (hist_add(&acc->run, &x->run, &run))
		return -1;
	if (hist_add(&acc->lat, &x->lat, &lat)) {
		free(run.b);
		return -1;
	}
	free(acc->run.b);
	free(acc->lat.b);
	acc->run = run;
	acc->lat = lat;
	return 0;
}

/* The row of either side of pair @p, for its identity. */
static const struct wq_row *either(const struct wq_diff_row *p)
{
	return p->a ? p->a : p->b;
}

/*
 * A's side of the pair @i whose B row is a merged one ("-"): A's merged row
 * and the instances of that name and function that A has and B no longer
 * has.  The pairs of one name and function are next to each other.  Into
 * @acc, to free with wq_row_free().
 */
static int merged_side(const struct wq_diff_row *p, size_t n, size_t i, struct wq_row *acc)
{
	const struct wq_row *b = p[i].b;
	size_t lo = i, hi = i + 1, j;

	memset(acc, 0, sizeof(*acc));
	acc->has_hist = b->has_hist;
	acc->run_min = UINT64_MAX;
	while (lo > 0 && !key_cmp(either(&p[lo - 1]), b))
		lo--;
	while (hi < n && !key_cmp(either(&p[hi]), b))
		hi++;
	for (j = lo; j < hi; j++) {
		const struct wq_row *x = p[j].a;

		if (!x || (j != i && (p[j].b || !strcmp(x->wq_id, "-"))))
			continue;
		if (merge_row(acc, x))
			return -1;
	}
	return 0;
}

/* Whether anything happened to @r in the interval. */
static bool active(const struct wq_row *r)
{
	return r->queued || r->executed || r->cancelled;
}

int wq_interval(const struct wq_table *a, const struct wq_table *b, struct wq_table *out)
{
	static const struct wq_table empty = { .nr = 0 };
	struct wq_diff_row *p;
	size_t n, i;
	bool reset = (a->resets >= 0 && b->resets >= 0 && b->resets != a->resets) ||
		     (a->since_reset >= 0 && b->since_reset >= 0 &&
		      b->since_reset < a->since_reset);

	wq_table_init(out);
	if (reset)
		a = &empty;
	if (wq_pair(a, b, true, &p, &n))
		return -1;
	*out = *b;
	out->rows = NULL;
	out->nr = out->alloc = 0;
	out->is_interval = true;
	/* the summary's counts are the interval's too, and its length */
	if (!reset) {
		if (a->dropped >= 0 && b->dropped >= 0)
			out->dropped = sub0(b->dropped, a->dropped);
		if (a->lost_pairs >= 0 && b->lost_pairs >= 0)
			out->lost_pairs = sub0(b->lost_pairs, a->lost_pairs);
		if (a->unmatched >= 0 && b->unmatched >= 0)
			out->unmatched = sub0(b->unmatched, a->unmatched);
		if (a->since_reset >= 0 && b->since_reset >= 0)
			out->since_reset = b->since_reset - a->since_reset;
	}
	out->rows = calloc(n + 1, sizeof(*out->rows));
	if (!out->rows) {
		free(p);
		return -1;
	}
	out->alloc = n + 1;
	for (i = 0; i < n; i++) {
		struct wq_row *r = &out->rows[out->nr];

		struct wq_row acc;
		int err;

		if (!p[i].b)
			continue;
		if (!strcmp(p[i].b->wq_id, "-")) {
			err = merged_side(p, n, i, &acc) ||
			      interval_row(acc.executed || acc.queued || acc.cancelled ||
					   p[i].a ? &acc : NULL, p[i].b, r);
			wq_row_free(&acc);
		} else {
			err = interval_row(p[i].a, p[i].b, r);
		}
		if (err) {
			free(p);
			wq_table_free(out);
			return -1;
		}
		if (active(r))
			out->nr++;
		else
			wq_row_free(r);
	}
	free(p);
	return 0;
}
