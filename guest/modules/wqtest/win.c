// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest "windows": for each item of a scenario, the interval that must
 * hold the run time, the queue latency and the timer lateness that the stat
 * tracer measured, read on its clock (ktime_get_mono_fast_ns()) by probes
 * that sit right before and right after its own on the same tracepoints.
 *
 * The tracer reads the clock inside its probes: on worklet_enqueue (queued),
 * on worklet_enqueue_delayed (armed), last on workqueue_execute_start (the
 * call: the wait ends and the run starts) and first on
 * workqueue_execute_end (the return).  Around them:
 *
 *   enq_pre, enq_post    probes before and after its worklet_enqueue one
 *   arm_pre, arm_post    the same on worklet_enqueue_delayed
 *   call_pre             the probe just before its workqueue_execute_start
 *   fn_start, fn_end     the work function's first and last statements
 *   ret_post             the probe just after its workqueue_execute_end
 *
 * so that, whatever happened between two clock reads (a vCPU that the host
 * did not run for 5 ms, an interrupt, a cache miss):
 *
 *   fn_end - fn_start          <= run <= ret_post - call_pre
 *   call_pre - enq_post        <= lat <= fn_start - enq_pre
 *   enq_pre - arm_post - delay <= late (before the tracer's clamp at 0)
 *                                     <= enq_post - arm_pre - delay
 *
 * These are not tolerances: on a quiet machine each interval is a few
 * microseconds wide; a host that deschedules the guest between two of the
 * reads widens the interval of that one item by exactly what the tracer
 * may have seen.  The order statistics of the bounds bound those of the
 * tracer's samples (the k-th smallest run time lies between the k-th
 * smallest lower bound and the k-th smallest upper bound), so a test can
 * check MIN, MAX, the sum and the histogram's P99 without any margin.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <asm/barrier.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "wqtest.h"

struct wqt_win {
	u64 arm_pre, arm_post, enq_pre, enq_post, call_pre;
	u64 fn_start, fn_end, ret_post;
};

static struct wqt_win *wqt_wins;	/* one per watched item */
static unsigned long wqt_win_base;	/* address of the first item */
static size_t wqt_win_stride;		/* from one item to the next */
static unsigned int wqt_win_n;

/* The window of @work, if it is a watched item; NULL otherwise. */
static struct wqt_win *wqt_win_of(const void *work)
{
	/* pairs with the release in wqt_win_begin(): the geometry is set */
	struct wqt_win *w = smp_load_acquire(&wqt_wins);
	unsigned long off = (unsigned long)work - wqt_win_base;

	if (!w || off % wqt_win_stride || off / wqt_win_stride >= wqt_win_n)
		return NULL;
	return &w[off / wqt_win_stride];
}

static inline void wqt_win_stamp(const void *work, size_t field)
{
	struct wqt_win *w = wqt_win_of(work);

	if (w)
		*(u64 *)((char *)w + field) = ktime_get_mono_fast_ns();
}

#define WQT_STAMP(work, f) wqt_win_stamp(work, offsetof(struct wqt_win, f))

static void wqt_enq_pre(void *d, struct work_struct *work, const char *wq,
			int req_cpu, int cpu)
{
	WQT_STAMP(work, enq_pre);
}

static void wqt_enq_post(void *d, struct work_struct *work, const char *wq,
			 int req_cpu, int cpu)
{
	WQT_STAMP(work, enq_post);
}

static void wqt_arm_pre(void *d, struct work_struct *work, const char *wq,
			int cpu, unsigned long delay)
{
	WQT_STAMP(work, arm_pre);
}

static void wqt_arm_post(void *d, struct work_struct *work, const char *wq,
			 int cpu, unsigned long delay)
{
	WQT_STAMP(work, arm_post);
}

static void wqt_call_pre(void *d, struct work_struct *work)
{
	WQT_STAMP(work, call_pre);
}

/* @work may be freed here: only its address is compared */
static void wqt_ret_post(void *d, struct work_struct *work, work_func_t fn)
{
	WQT_STAMP(work, ret_post);
}

/* The work function of a watched item starts. */
void wqt_win_fn_start(struct work_struct *work)
{
	WQT_STAMP(work, fn_start);
}

/* The work function of a watched item is about to return. */
void wqt_win_fn_end(struct work_struct *work)
{
	WQT_STAMP(work, fn_end);
}

/*
 * The probes, by tracepoint.  The stat tracer's are at the default priority
 * on the worklet events, at INT_MIN (last) on workqueue_execute_start and
 * INT_MAX (first) on workqueue_execute_end; higher runs first.
 */
static struct wqt_win_probe {
	const char *tp_name;
	void *probe;
	int prio;
	struct tracepoint *tp;
} wqt_win_probes[] = {
	{ "worklet_enqueue", wqt_enq_pre, TRACEPOINT_DEFAULT_PRIO + 1 },
	{ "worklet_enqueue", wqt_enq_post, TRACEPOINT_DEFAULT_PRIO - 1 },
	{ "worklet_enqueue_delayed", wqt_arm_pre, TRACEPOINT_DEFAULT_PRIO + 1 },
	{ "worklet_enqueue_delayed", wqt_arm_post, TRACEPOINT_DEFAULT_PRIO - 1 },
	{ "workqueue_execute_start", wqt_call_pre, INT_MIN + 1 },
	{ "workqueue_execute_end", wqt_ret_post, INT_MAX - 1 },
};

static void wqt_win_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wqt_win_probes); i++)
		if (!strcmp(tp->name, wqt_win_probes[i].tp_name))
			wqt_win_probes[i].tp = tp;
}

/* Unregister the first @n probes and wait until none runs. */
static void wqt_win_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(wqt_win_probes[n].tp,
					    wqt_win_probes[n].probe, NULL);
	tracepoint_synchronize_unregister();
}

/*
 * Watch @n items, the first at @base and each @stride bytes after the last,
 * until wqt_win_end(): their windows start empty.  One watch at a time
 * (scenarios run under wqt_lock).
 */
int wqt_win_begin(struct work_struct *base, size_t stride, unsigned int n)
{
	struct wqt_win *w;
	unsigned int i;
	int ret;

	if (!n || !stride)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(wqt_win_probes); i++)
		wqt_win_probes[i].tp = NULL;
	for_each_kernel_tracepoint(wqt_win_find, NULL);
	for (i = 0; i < ARRAY_SIZE(wqt_win_probes); i++)
		if (!wqt_win_probes[i].tp)
			return -ENOENT;	/* a kernel without the series */

	wqt_win_free();
	w = kvcalloc(n, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	wqt_win_base = (unsigned long)base;
	wqt_win_stride = stride;
	wqt_win_n = n;
	/* the geometry before the windows: a probe that sees one sees both */
	smp_store_release(&wqt_wins, w);
	for (i = 0; i < ARRAY_SIZE(wqt_win_probes); i++) {
		ret = tracepoint_probe_register_prio(wqt_win_probes[i].tp,
						     wqt_win_probes[i].probe,
						     NULL, wqt_win_probes[i].prio);
		if (ret)
			goto unregister;
	}
	return 0;

unregister:
	wqt_win_unregister(i);
	wqt_win_free();
	return ret;
}

static u64 wqt_sub0(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static int wqt_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Print "<prefix><what>_{min,max,p99,sum}_{lo,hi}_ns=" lines for the @n
 * bounds in @lo and @hi (sorted here); p99 is the tracer's rank, the
 * ceil(0.99 * n)-th smallest.
 */
static int wqt_win_print(char *buf, size_t len, const char *prefix,
			 const char *what, u64 *lo, u64 *hi, unsigned int n)
{
	u64 slo = 0, shi = 0;
	unsigned int i, k = n - n / 100 - 1;

	for (i = 0; i < n; i++) {
		slo += lo[i];
		shi += hi[i];
	}
	sort(lo, n, sizeof(*lo), wqt_u64_cmp, NULL);
	sort(hi, n, sizeof(*hi), wqt_u64_cmp, NULL);
	return scnprintf(buf, len,
			 "%s%s_min_lo_ns=%llu\n%s%s_min_hi_ns=%llu\n"
			 "%s%s_max_lo_ns=%llu\n%s%s_max_hi_ns=%llu\n"
			 "%s%s_p99_lo_ns=%llu\n%s%s_p99_hi_ns=%llu\n"
			 "%s%s_sum_lo_ns=%llu\n%s%s_sum_hi_ns=%llu\n",
			 prefix, what, lo[0], prefix, what, hi[0],
			 prefix, what, lo[n - 1], prefix, what, hi[n - 1],
			 prefix, what, lo[k], prefix, what, hi[k],
			 prefix, what, slo, prefix, what, shi);
}

/*
 * The bounds of the lateness of the delayed item @i of the last watch,
 * armed for @delay_ns; -ENODATA if it was not seen armed and queued.
 */
int wqt_win_late(unsigned int i, u64 delay_ns, u64 *lo, u64 *hi)
{
	struct wqt_win *w = &wqt_wins[i];

	if (!w->arm_pre || !w->arm_post || !w->enq_pre || !w->enq_post)
		return -ENODATA;
	*lo = wqt_sub0(w->enq_pre, w->arm_post + delay_ns);
	*hi = wqt_sub0(w->enq_post, w->arm_pre + delay_ns);
	return 0;
}

/*
 * Stop watching.  Append to @buf (of @len bytes) the bounds of the items
 * [@first, @first + @n) as key=value lines, each key begun by @prefix:
 * "<prefix>win_items=" the items whose run was seen whole, then the bounds
 * of their run times and latencies; with @delay_ns, of a delayed item's
 * lateness as well.  Between wqt_win_end() and wqt_win_free().  Returns
 * the length appended, or -ENOMEM.
 */
int wqt_win_report(char *buf, size_t len, const char *prefix,
		   unsigned int first, unsigned int n, u64 delay_ns)
{
	u64 *v = kvcalloc(4 * (size_t)n, sizeof(*v), GFP_KERNEL);
	u64 *rlo = v, *rhi = v + n, *llo = v + 2 * n, *lhi = v + 3 * n;
	unsigned int i, seen = 0;
	u64 late_lo, late_hi;
	struct wqt_win *w;
	size_t off;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w = &wqt_wins[first + i];
		if (!w->enq_pre || !w->enq_post || !w->call_pre ||
		    !w->fn_start || !w->fn_end || !w->ret_post)
			continue;
		rlo[seen] = wqt_sub0(w->fn_end, w->fn_start);
		rhi[seen] = wqt_sub0(w->ret_post, w->call_pre);
		llo[seen] = wqt_sub0(w->call_pre, w->enq_post);
		lhi[seen] = wqt_sub0(w->fn_start, w->enq_pre);
		seen++;
	}
	off = scnprintf(buf, len, "%swin_items=%u\n", prefix, seen);
	if (seen) {
		off += wqt_win_print(buf + off, len - off, prefix, "run", rlo, rhi, seen);
		off += wqt_win_print(buf + off, len - off, prefix, "lat", llo, lhi, seen);
	}
	if (delay_ns && n == 1 &&
	    !wqt_win_late(first, delay_ns, &late_lo, &late_hi))
		off += scnprintf(buf + off, len - off,
				 "%slate_lo_ns=%llu\n%slate_hi_ns=%llu\n",
				 prefix, late_lo, prefix, late_hi);
	kvfree(v);
	return off;
}

/* Stop watching: no probe runs once this returns; the windows stay. */
void wqt_win_end(void)
{
	if (wqt_wins)
		wqt_win_unregister(ARRAY_SIZE(wqt_win_probes));
}

/* Free the windows of the last watch, once reported. */
void wqt_win_free(void)
{
	struct wqt_win *w = wqt_wins;

	WRITE_ONCE(wqt_wins, NULL);
	kvfree(w);
}
