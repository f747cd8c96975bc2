// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest: scenarios for what the workqueues of later kernels added
 *
 * "bh N US" (6.9+, BH workqueues): N items of a WQ_BH queue are queued,
 * each with BH disabled and run as BH is enabled again, from inside an item
 * of the per-CPU "wqtest" queue, so that each runs in softirq on top of
 * that worker, between the probes of its own item; N more are queued from
 * process context.  Each spins US microseconds.  The result says how many
 * ran on top of the worker and how long each side measured itself.
 *
 * "maxact N MS": N items on an unbound queue with max_active 2, queued on
 * alternate CPUs, each sleeping MS milliseconds.  Since 6.9 max_active of
 * an unbound queue is counted per NUMA node and an inactive item may be
 * activated by another CPU's pool; the items measure their own wait from
 * just before queue_work_on() to their call, and the most that ran at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include "wqtest.h"

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
/* One "bh" run: its items, what they measured, and its host item. */
struct wqt_bh_run {
	struct workqueue_struct	*wq;
	struct work_struct	*items;		/* 2 * n BH items, then the host */
	unsigned int		n;		/* items queued from the host */
	unsigned int		us;
	struct task_struct	*host_task;
	s64			host_ns;
	atomic_t		ran;
	atomic_t		on_host;	/* in softirq on the host's stack */
	atomic_t		not_softirq;
	atomic64_t		ns;
};

static struct wqt_bh_run *wqt_bh;

/* Work function of the BH items: spin, and say where it ran. */
static void wqt_bh_fn(struct work_struct *work)
{
	struct wqt_bh_run *r = READ_ONCE(wqt_bh);

	wqt_win_fn_start(work);
	if (!in_serving_softirq())
		atomic_inc(&r->not_softirq);
	else if (current == READ_ONCE(r->host_task))
		atomic_inc(&r->on_host);
	atomic64_add(wqt_spin(r->us), &r->ns);
	atomic_inc(&r->ran);
	wqt_win_fn_end(work);
}

/*
 * Work function of the host item: queue each BH item on this CPU with BH
 * off; local_bh_enable() runs it at once, in softirq on this task.
 */
static void wqt_bh_host_fn(struct work_struct *work)
{
	struct wqt_bh_run *r = READ_ONCE(wqt_bh);
	ktime_t start;
	unsigned int i;

	wqt_win_fn_start(work);
	start = ktime_get();
	WRITE_ONCE(r->host_task, current);
	for (i = 0; i < r->n; i++) {
		local_bh_disable();
		queue_work_on(raw_smp_processor_id(), r->wq, &r->items[i]);
		local_bh_enable();
	}
	WRITE_ONCE(r->host_task, NULL);
	r->host_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	wqt_item_ran();
	wqt_win_fn_end(work);
}

/* "bh N US": see the top of the file. */
static int wqt_scn_bh(struct workqueue_struct *host_wq, unsigned int n,
		      unsigned int us)
{
	struct wqt_bh_run *r;
	struct work_struct *host;
	unsigned int i;
	int ret = 0, win;

	if (!n || n > 10000 || us > 10000)
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->items = kcalloc(2 * n + 1, sizeof(*r->items), GFP_KERNEL);
	r->wq = alloc_workqueue("wqtest_bh", WQ_BH, 0);
	if (!r->items || !r->wq) {
		ret = -ENOMEM;
		goto free_run;
	}
	r->n = n;
	r->us = us;
	for (i = 0; i < 2 * n; i++)
		INIT_WORK(&r->items[i], wqt_bh_fn);
	host = &r->items[2 * n];
	INIT_WORK(host, wqt_bh_host_fn);
	WRITE_ONCE(wqt_bh, r);
	win = wqt_win_begin(r->items, sizeof(*r->items), 2 * n + 1);

	queue_work_on(cpumask_first(cpu_online_mask), host_wq, host);
	flush_work(host);
	/* and n from here, run by a softirq wherever it comes */
	for (i = n; i < 2 * n; i++)
		queue_work(r->wq, &r->items[i]);
	for (i = 0; i < 2 * n; i++)
		flush_work(&r->items[i]);
	wqt_win_end();

	wqt_result_set("queued=%u\nexecuted=%d\non_host=%d\nnot_softirq=%d\nbh_ns=%lld\nhost_ns=%lld\n",
		       2 * n, atomic_read(&r->ran), atomic_read(&r->on_host),
		       atomic_read(&r->not_softirq),
		       (long long)atomic64_read(&r->ns), (long long)r->host_ns);
	if (!win) {
		wqt_result_win("", 0, 2 * n, 0);
		wqt_result_win("host_", 2 * n, 1, 0);
	}
	wqt_win_free();
	WRITE_ONCE(wqt_bh, NULL);
free_run:
	if (r->wq)
		destroy_workqueue(r->wq);
	kfree(r->items);
	kfree(r);
	return ret;
}
#else
static int wqt_scn_bh(struct workqueue_struct *host_wq, unsigned int n,
		      unsigned int us)
{
	wqt_result_set("unsupported=BH workqueues came with 6.9\n");
	return 0;
}
#endif

/* One item of "maxact": when it was queued, and what it measured. */
struct wqt_maxact_item {
	struct work_struct	work;
	ktime_t			queued;
};

static atomic_t wqt_maxact_running, wqt_maxact_most;
static atomic64_t wqt_maxact_wait_ns, wqt_maxact_run_ns;
static unsigned int wqt_maxact_ms;

/* Work function of "maxact": sleep, counting how many run at once. */
static void wqt_maxact_fn(struct work_struct *work)
{
	struct wqt_maxact_item *it = container_of(work, struct wqt_maxact_item, work);
	ktime_t start;
	int now, most;

	wqt_win_fn_start(work);
	start = ktime_get();
	now = atomic_inc_return(&wqt_maxact_running);
	most = atomic_read(&wqt_maxact_most);

	while (now > most && atomic_cmpxchg(&wqt_maxact_most, most, now) != most)
		most = atomic_read(&wqt_maxact_most);
	atomic64_add(ktime_to_ns(ktime_sub(start, it->queued)), &wqt_maxact_wait_ns);
	msleep(READ_ONCE(wqt_maxact_ms));
	atomic_dec(&wqt_maxact_running);
	wqt_item_ran();
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), start)), &wqt_maxact_run_ns);
	wqt_win_fn_end(work);
}

/* "maxact N MS": see the top of the file. */
static int wqt_scn_maxact(unsigned int n, unsigned int ms)
{
	struct workqueue_struct *wq;
	struct wqt_maxact_item *items;
	unsigned int i, cpu = nr_cpu_ids;
	int ran = 0, win;

	if (!n || n > 1000 || ms > 1000)
		return -EINVAL;
	items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	wq = alloc_workqueue("wqtest_maxactive_node_scopes_31", WQ_UNBOUND, 2);
	if (!wq) {
		kfree(items);
		return -ENOMEM;
	}
	atomic_set(&wqt_maxact_running, 0);
	atomic_set(&wqt_maxact_most, 0);
	atomic64_set(&wqt_maxact_wait_ns, 0);
	atomic64_set(&wqt_maxact_run_ns, 0);
	WRITE_ONCE(wqt_maxact_ms, ms);
	ran -= wqt_items_ran();
	for (i = 0; i < n; i++)
		INIT_WORK(&items[i].work, wqt_maxact_fn);
	win = wqt_win_begin(&items[0].work, sizeof(items[0]), n);
	cpus_read_lock();
	for (i = 0; i < n; i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		items[i].queued = ktime_get();
		queue_work_on(cpu, wq, &items[i].work);
	}
	cpus_read_unlock();
	for (i = 0; i < n; i++)
		flush_work(&items[i].work);
	ran += wqt_items_ran();
	wqt_win_end();
	destroy_workqueue(wq);
	kfree(items);
	wqt_result_set("queued=%u\nexecuted=%d\nmost_at_once=%d\nwait_ns=%lld\nrun_ns=%lld\n",
		       n, ran, atomic_read(&wqt_maxact_most),
		       (long long)atomic64_read(&wqt_maxact_wait_ns),
		       (long long)atomic64_read(&wqt_maxact_run_ns));
	if (!win)
		wqt_result_win("", 0, n, 0);
	wqt_win_free();
	return 0;
}

/* Parse "bh N US" and "maxact N MS"; -ENOENT for another scenario. */
int wqt_scn_cmwq(struct workqueue_struct *host_wq, const char *name,
		 unsigned int a, unsigned int b)
{
	if (!strcmp(name, "bh"))
		return wqt_scn_bh(host_wq, a, b);
	if (!strcmp(name, "maxact"))
		return wqt_scn_maxact(a, b);
	return -ENOENT;
}
