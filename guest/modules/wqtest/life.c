// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest: scenarios for what a long-running machine does to the stat
 * tracer - work of a module on a system queue (the module is unloaded and
 * loaded again between runs), deferrable and far-off timers, flush
 * barriers while the tracer is switched on and off, and workqueues
 * created and destroyed by the thousand.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "wqtest.h"

static atomic_t wqt_life_done;

/* Work function of "system": counts itself. */
static void wqt_sys_fn(struct work_struct *work)
{
	wqt_item_ran();
}

/* "system N": N items on system_wq, whose rows outlive this module. */
int wqt_scn_system(unsigned int n)
{
	return wqt_run_many(system_wq, wqt_sys_fn, n);
}

static atomic_t wqt_defer_done, wqt_timer_done;

/* Work function of the deferrable timers of "deferrable". */
static void wqt_defer_fn(struct work_struct *work)
{
	atomic_inc(&wqt_defer_done);
}

/* Work function of the ordinary timers of "deferrable". */
static void wqt_timer_fn(struct work_struct *work)
{
	atomic_inc(&wqt_timer_done);
}

/*
 * "deferrable N": N items on deferrable timers and N on ordinary ones,
 * each one jiffy out, left to fire by themselves (within 30 s; then they
 * are flushed).  Every timer that fires is late by up to a tick; only the
 * ordinary ones may be counted late.
 */
int wqt_scn_deferrable(unsigned int n)
{
	struct delayed_work *defer, *timer;
	unsigned long until = jiffies + 30 * HZ;
	unsigned int i;

	if (!n || n > 10000)
		return -EINVAL;
	defer = kvcalloc(n, sizeof(*defer), GFP_KERNEL);
	timer = kvcalloc(n, sizeof(*timer), GFP_KERNEL);
	if (!defer || !timer) {
		kvfree(defer);
		kvfree(timer);
		return -ENOMEM;
	}
	atomic_set(&wqt_defer_done, 0);
	atomic_set(&wqt_timer_done, 0);
	for (i = 0; i < n; i++) {
		INIT_DEFERRABLE_WORK(&defer[i], wqt_defer_fn);
		INIT_DELAYED_WORK(&timer[i], wqt_timer_fn);
		queue_delayed_work(system_wq, &defer[i], 1);
		queue_delayed_work(system_wq, &timer[i], 1);
	}
	while ((atomic_read(&wqt_defer_done) < n || atomic_read(&wqt_timer_done) < n) &&
	       time_before(jiffies, until))
		msleep(5);
	wqt_result_set("deferrable_fired=%d\ntimer_fired=%d\n",
		       atomic_read(&wqt_defer_done), atomic_read(&wqt_timer_done));
	for (i = 0; i < n; i++) {
		flush_delayed_work(&defer[i]);
		flush_delayed_work(&timer[i]);
	}
	kvfree(defer);
	kvfree(timer);
	return 0;
}

static atomic_t wqt_huge_done;

/* Work function of "hugedelay". */
static void wqt_huge_fn(struct work_struct *work)
{
	atomic_inc(&wqt_huge_done);
}

/*
 * "hugedelay": two timers armed so far out that delay * TICK_NSEC does not
 * fit in 64 bits (MAX_SCHEDULE_TIMEOUT, and the smallest delay for which
 * the product wraps), each then moved to now.  Neither fired: neither is
 * late.
 */
int wqt_scn_hugedelay(void)
{
	unsigned long delays[] = {
		MAX_SCHEDULE_TIMEOUT,
		(unsigned long)min_t(u64, div64_u64(U64_MAX, TICK_NSEC) + 1,
				     MAX_SCHEDULE_TIMEOUT),
	};
	struct delayed_work dwork;
	unsigned int i;

	atomic_set(&wqt_huge_done, 0);
	INIT_DELAYED_WORK_ONSTACK(&dwork, wqt_huge_fn);
	for (i = 0; i < ARRAY_SIZE(delays); i++) {
		queue_delayed_work(system_wq, &dwork, delays[i]);
		mod_delayed_work(system_wq, &dwork, 0);
		flush_delayed_work(&dwork);
	}
	destroy_delayed_work_on_stack(&dwork);
	wqt_result_set("delay0=%lu\ndelay1=%lu\nexecuted=%d\n", delays[0],
		       delays[1], atomic_read(&wqt_huge_done));
	return 0;
}

/* Work function of "barriers": long enough to be flushed while it runs. */
static void wqt_barrier_target_fn(struct work_struct *work)
{
	ktime_t start = ktime_get();

	while (ktime_us_delta(ktime_get(), start) < 20)
		cpu_relax();
	atomic_inc(&wqt_life_done);
}

/*
 * "barriers S": for S seconds, queue an item on @wq and flush it at once,
 * so that flush_work() puts a barrier (wq_barrier_func, on this stack)
 * behind it; the tests switch the stat tracer on and off meanwhile.
 */
int wqt_scn_barriers(struct workqueue_struct *wq, unsigned int seconds)
{
	unsigned long until = jiffies + seconds * HZ;
	struct work_struct item;
	unsigned int rounds = 0, flushed = 0;

	if (!seconds || seconds > 600)
		return -EINVAL;
	atomic_set(&wqt_life_done, 0);
	INIT_WORK_ONSTACK(&item, wqt_barrier_target_fn);
	while (time_before(jiffies, until)) {
		queue_work(wq, &item);
		if (flush_work(&item))
			flushed++;
		rounds++;
		cond_resched();
	}
	destroy_work_on_stack(&item);
	wqt_result_set("rounds=%u\nwaited=%u\nexecuted=%d\n", rounds, flushed,
		       atomic_read(&wqt_life_done));
	return 0;
}

/* Work function of "churn": one per workqueue. */
static void wqt_churn_fn(struct work_struct *work)
{
	atomic_inc(&wqt_life_done);
}

/*
 * "churn N NAMES US [FIRST]": create N workqueues, named wqtest_churn<FIRST>
 * to wqtest_churn<FIRST + NAMES - 1> in turn, queue one item on each and
 * destroy it (which runs the item first: no flush barrier), resting US
 * microseconds between two.
 */
int wqt_scn_churn(unsigned int n, unsigned int names, unsigned int rest_us,
		  unsigned int first)
{
	struct workqueue_struct *wq;
	struct work_struct item;
	unsigned int i;
	ktime_t start = ktime_get();

	if (!n || n > 1000000 || !names || rest_us > 1000000 || first > 1000000)
		return -EINVAL;
	atomic_set(&wqt_life_done, 0);
	INIT_WORK_ONSTACK(&item, wqt_churn_fn);
	for (i = 0; i < n; i++) {
		wq = alloc_workqueue("wqtest_churn%u", 0, 0, first + i % names);
		if (!wq) {
			destroy_work_on_stack(&item);
			return -ENOMEM;
		}
		queue_work(wq, &item);
		destroy_workqueue(wq);
		if (rest_us)
			usleep_range(rest_us, 2 * rest_us);
		cond_resched();
	}
	destroy_work_on_stack(&item);
	wqt_result_set("queues=%u\nnames=%u\nexecuted=%d\nms=%lld\n", n, names,
		       atomic_read(&wqt_life_done),
		       ktime_ms_delta(ktime_get(), start));
	return 0;
}

static DECLARE_COMPLETION(wqt_late_done);

/* Work function of "latechurn": says that it ran. */
static void wqt_late_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	complete(&wqt_late_done);
	wqt_win_fn_end(work);
}

/*
 * "latechurn N J": N workqueues named wqtest_late, one after the other,
 * each given one delayed item of J jiffies, which is waited for, and then
 * destroyed, so that the stat tracer merges their retired rows, timer
 * lateness included.  The result has the bounds of the lateness the tracer
 * saw, summed over the items and the largest (win.c).
 */
int wqt_scn_latechurn(unsigned int n, unsigned int delay)
{
	u64 lo, hi, sum_lo = 0, sum_hi = 0, max_lo = 0, max_hi = 0;
	struct workqueue_struct *wq;
	struct delayed_work dw;
	unsigned int i, seen = 0;
	int ret = 0;

	if (!n || n > 1000 || !delay || delay > HZ)
		return -EINVAL;
	INIT_DELAYED_WORK_ONSTACK(&dw, wqt_late_fn);
	for (i = 0; i < n && !ret; i++) {
		wq = alloc_workqueue("wqtest_late", 0, 0);
		if (!wq) {
			ret = -ENOMEM;
			break;
		}
		reinit_completion(&wqt_late_done);
		ret = wqt_win_begin(&dw.work, sizeof(dw), 1);
		queue_delayed_work(wq, &dw, delay);
		if (!wait_for_completion_timeout(&wqt_late_done, 30 * HZ))
			ret = -ETIMEDOUT;
		flush_delayed_work(&dw);
		wqt_win_end();
		destroy_workqueue(wq);
		if (!ret && !wqt_win_late(0, (u64)delay * TICK_NSEC, &lo, &hi)) {
			sum_lo += lo;
			sum_hi += hi;
			max_lo = max(max_lo, lo);
			max_hi = max(max_hi, hi);
			seen++;
		}
		wqt_win_free();
	}
	destroy_delayed_work_on_stack(&dw);
	wqt_result_set("queues=%u\nlate_seen=%u\n"
		       "late_sum_lo_ns=%llu\nlate_sum_hi_ns=%llu\n"
		       "late_max_lo_ns=%llu\nlate_max_hi_ns=%llu\n",
		       i, seen, sum_lo, sum_hi, max_lo, max_hi);
	return ret;
}

static struct workqueue_struct *wqt_twin[2];

/* Work function of "twins". */
static void wqt_twin_fn(struct work_struct *work)
{
	wqt_item_ran();
}

/*
 * "twins A B": two live workqueues, both named wqtest_twin, run A and B
 * items; they stay until "twins 0 0", which destroys them.
 */
int wqt_scn_twins(unsigned int a, unsigned int b)
{
	int i, ret = 0, executed = 0;

	if (!a && !b) {
		for (i = 0; i < 2; i++) {
			if (wqt_twin[i])
				destroy_workqueue(wqt_twin[i]);
			wqt_twin[i] = NULL;
		}
		wqt_result_set("destroyed=2\n");
		return 0;
	}
	if (a > 100000 || b > 100000)
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		if (!wqt_twin[i])
			wqt_twin[i] = alloc_workqueue("wqtest_twin", 0, 0);
		if (!wqt_twin[i])
			return -ENOMEM;
	}
	if (a) {
		ret = wqt_run_many(wqt_twin[0], wqt_twin_fn, a);
		executed = wqt_items_ran();
	}
	if (!ret && b) {
		ret = wqt_run_many(wqt_twin[1], wqt_twin_fn, b);
		executed += wqt_items_ran();
	}
	wqt_result_set("first=%u\nsecond=%u\nexecuted=%d\n", a, b, executed);
	return ret;
}

/* Module exit: the twins, if a test left them. */
void wqt_life_exit(void)
{
	wqt_scn_twins(0, 0);
}
