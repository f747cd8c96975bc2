// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest "pctl": items whose run times are spread in a known way, for the
 * tests of the stat tracer's P99.
 *
 *	echo "pctl spread 200" > /sys/kernel/debug/wqtest/run
 *
 * queues N items of wqt_pctl_fn, all at once, on a new ordered queue named
 * wqtest_pctl, so that they run one after the other and each waits behind
 * all that were queued before it.  Each item spins for its own time:
 *
 *   spread   100 us, 200 us, ... N * 100 us, in a shuffled order
 *   bimodal  300 us, except N / 50 + 1 items of 8000 us, shuffled in
 *   tail     1000 us, except N / 100 items of 20000 us, shuffled in: the
 *            99th percentile is the slowest 1000 us item, in a histogram
 *            bucket well below the largest sample, so that an estimate a
 *            bucket off is not hidden by the clamp to the largest
 *
 * Every item takes its own time stamps: before it is queued, when its
 * function starts and when it is about to return.  The result gives the
 * exact 99th percentile of the run times (start to return) and of the
 * latencies (queued to start) that these stamps measured, with the same
 * rank as the stat tracer: the ceil(0.99 * N)-th smallest sample.  Those are
 * a second opinion: the first is win.c's, the intervals that hold the very
 * samples the tracer took.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "wqtest.h"

#define WQT_PCTL_MAX	2000

struct wqt_pctl_item {
	struct work_struct	work;
	unsigned int		spin_us;
	u64			queued, start, end;	/* ktime_get_ns() */
};

/* Work function of "pctl": spin for the item's own time, stamped. */
static void wqt_pctl_fn(struct work_struct *work)
{
	struct wqt_pctl_item *it = container_of(work, struct wqt_pctl_item, work);
	u64 start;

	wqt_win_fn_start(work);
	start = ktime_get_ns();
	it->start = start;
	while (ktime_get_ns() - start < it->spin_us * NSEC_PER_USEC)
		cpu_relax();
	it->end = ktime_get_ns();
	wqt_win_fn_end(work);
}

static int wqt_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort @v and give its min, max and ceil(0.99 * n)-th smallest value. */
static void wqt_p99(u64 *v, unsigned int n, u64 *min, u64 *max, u64 *p99)
{
	sort(v, n, sizeof(*v), wqt_u64_cmp, NULL);
	*min = v[0];
	*max = v[n - 1];
	*p99 = v[n - n / 100 - 1];
}

/* "pctl MODE N": see the top of this file. */
int wqt_scn_pctl(const char *mode, unsigned int n)
{
	struct workqueue_struct *wq;
	struct wqt_pctl_item *items;
	u64 *run, *lat;
	u64 rmin, rmax, rp99, lmin, lmax, lp99;
	unsigned int i, j, tmp, slow;
	int ret = -ENOMEM, win;

	if (n < 1 || n > WQT_PCTL_MAX)
		return -EINVAL;
	if (strcmp(mode, "spread") && strcmp(mode, "bimodal") && strcmp(mode, "tail"))
		return -EINVAL;
	items = kvcalloc(n, sizeof(*items), GFP_KERNEL);
	run = kvcalloc(n, sizeof(*run), GFP_KERNEL);
	lat = kvcalloc(n, sizeof(*lat), GFP_KERNEL);
	if (!items || !run || !lat)
		goto free;

	slow = !strcmp(mode, "tail") ? n / 100 : n / 50 + 1;
	for (i = 0; i < n; i++) {
		if (!strcmp(mode, "spread"))
			items[i].spin_us = (i + 1) * 100;
		else if (!strcmp(mode, "bimodal"))
			items[i].spin_us = i < slow ? 8000 : 300;
		else
			items[i].spin_us = i < slow ? 20000 : 1000;
	}
	/* Fisher-Yates, so that the order tells nothing of the time */
	for (i = n - 1; i > 0; i--) {
		j = get_random_u32() % (i + 1);
		tmp = items[i].spin_us;
		items[i].spin_us = items[j].spin_us;
		items[j].spin_us = tmp;
	}

	wq = alloc_ordered_workqueue("wqtest_pctl", 0);
	if (!wq)
		goto free;
	for (i = 0; i < n; i++)
		INIT_WORK(&items[i].work, wqt_pctl_fn);
	win = wqt_win_begin(&items[0].work, sizeof(items[0]), n);
	for (i = 0; i < n; i++) {
		items[i].queued = ktime_get_ns();
		queue_work(wq, &items[i].work);
	}
	flush_workqueue(wq);
	wqt_win_end();
	destroy_workqueue(wq);

	for (i = 0; i < n; i++) {
		run[i] = items[i].end - items[i].start;
		lat[i] = items[i].start - items[i].queued;
	}
	wqt_p99(run, n, &rmin, &rmax, &rp99);
	wqt_p99(lat, n, &lmin, &lmax, &lp99);
	wqt_result_set("mode=%s\nitems=%u\nrun_min_ns=%llu\nrun_max_ns=%llu\nrun_p99_ns=%llu\nlat_min_ns=%llu\nlat_max_ns=%llu\nlat_p99_ns=%llu\n",
		       mode, n, rmin, rmax, rp99, lmin, lmax, lp99);
	if (!win)
		wqt_result_win("", 0, n, 0);
	wqt_win_free();
	ret = 0;
free:
	kvfree(lat);
	kvfree(run);
	kvfree(items);
	return ret;
}
