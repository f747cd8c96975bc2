// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest - controlled workqueue workloads for the guest test suite
 *
 * Every scenario queues work whose count, placement and duration are known
 * here, so that the tests can compare what the tracepoints and the stat
 * tracer report against the truth.  Scenarios run synchronously from a write
 * to /sys/kernel/debug/wqtest/run:
 *
 *	echo "spin 100 1000" > /sys/kernel/debug/wqtest/run
 *
 * The "stress" scenario (stress.c) mixes every kind of enqueue, cancel and
 * flush on every CPU for a fixed time and counts what it did; "pctl"
 * (pctl.c) runs items of known, spread run times for the P99 tests;
 * life.c has the module, timer and barrier scenarios of the churn tests;
 * cmwq.c those of what later kernels added (BH workqueues, max_active per
 * node).
 *
 * and their outcome is read back from /sys/kernel/debug/wqtest/result as
 * key=value lines.  A failed scenario makes the write fail with its -errno.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "wqtest.h"

#define WQT_MAX_ITEMS	100000
#define WQT_RESULT_SIZE	4096

static struct workqueue_struct *wqt_wq;		/* "wqtest", per-CPU */
static struct dentry *wqt_dir;
static DEFINE_MUTEX(wqt_lock);			/* one scenario at a time */
static char wqt_result[WQT_RESULT_SIZE];

static atomic_t wqt_executed;
static unsigned int wqt_spin_us;
static atomic_t wqt_last_cpu = ATOMIC_INIT(-1);

/* Busy-wait for @us microseconds of wall time; returns the ns it took. */
s64 wqt_spin(unsigned int us)
{
	ktime_t start = ktime_get();

	while (ktime_us_delta(ktime_get(), start) < us)
		cpu_relax();
	return ktime_to_ns(ktime_sub(ktime_get(), start));
}

/* Work function of the "spin" and "burst" scenarios. */
static void wqt_spin_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	wqt_spin(READ_ONCE(wqt_spin_us));
	atomic_inc(&wqt_executed);
	wqt_win_fn_end(work);
}

/* Work function of the "on_cpu" scenario: records where it ran. */
static void wqt_oncpu_fn(struct work_struct *work)
{
	atomic_set(&wqt_last_cpu, raw_smp_processor_id());
	atomic_inc(&wqt_executed);
}

static DECLARE_COMPLETION(wqt_delayed_done);

/* Work function of the "delayed" scenarios: signals that it ran. */
static void wqt_delayed_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	atomic_inc(&wqt_executed);
	complete(&wqt_delayed_done);
	wqt_win_fn_end(work);
}

/* Wait for wqt_delayed_fn without flushing, which would cut the delay. */
static int wqt_wait_delayed(struct delayed_work *dwork)
{
	if (!wait_for_completion_timeout(&wqt_delayed_done, 30 * HZ)) {
		cancel_delayed_work_sync(dwork);
		return -ETIMEDOUT;
	}
	flush_delayed_work(dwork);
	return 0;
}

/* Work function that must never run: it is always cancelled. */
static void wqt_cancel_fn(struct work_struct *work)
{
	atomic_inc(&wqt_executed);
}

/* Work function of the "flush" scenario. */
static void wqt_flush_fn(struct work_struct *work)
{
	msleep(2);
	atomic_inc(&wqt_executed);
}

static DECLARE_COMPLETION(wqt_gate);

/* Work function that holds its worker until wqt_gate is completed. */
static void wqt_block_fn(struct work_struct *work)
{
	wait_for_completion(&wqt_gate);
	atomic_inc(&wqt_executed);
}

/* Work function that sleeps for wqt_sleep_ms, then returns. */
static unsigned int wqt_sleep_ms;
static void wqt_sleep_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	msleep(READ_ONCE(wqt_sleep_ms));
	atomic_inc(&wqt_executed);
	wqt_win_fn_end(work);
}

/* Work function queued behind wqt_sleep_fn on an ordered queue. */
static void wqt_behind_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	atomic_inc(&wqt_executed);
	wqt_win_fn_end(work);
}

struct wqt_selffree {
	struct work_struct work;
	unsigned long payload[8];
};

/* Work function that frees the item it was called for. */
static void wqt_selffree_fn(struct work_struct *work)
{
	struct wqt_selffree *sf = container_of(work, struct wqt_selffree, work);

	memset(sf->payload, 0x5a, sizeof(sf->payload));
	kfree(sf);
	atomic_inc(&wqt_executed);
}

static atomic_t wqt_chain_left;
static DECLARE_COMPLETION(wqt_chain_done);

/* Work function that queues itself again until the chain is used up. */
static void wqt_chain_fn(struct work_struct *work)
{
	atomic_inc(&wqt_executed);
	if (atomic_dec_return(&wqt_chain_left) > 0)
		queue_work(wqt_wq, work);
	else
		complete(&wqt_chain_done);
}

/* Work function of the "unbound" scenario. */
static void wqt_unbound_fn(struct work_struct *work)
{
	wqt_win_fn_start(work);
	wqt_spin(READ_ONCE(wqt_spin_us));
	atomic_inc(&wqt_executed);
	wqt_win_fn_end(work);
}

/* Replace the result text. */
void wqt_result_set(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(wqt_result, sizeof(wqt_result), fmt, args);
	va_end(args);
}

/*
 * Append the tracer's windows of the items [@first, @first + @n) of the last
 * watch (win.c), each key begun by @prefix; with @delay_ns, the lateness of
 * a delayed item too.
 */
void wqt_result_win(const char *prefix, unsigned int first, unsigned int n,
		    u64 delay_ns)
{
	size_t len = strlen(wqt_result);

	if (wqt_win_report(wqt_result + len, sizeof(wqt_result) - len, prefix,
			   first, n, delay_ns) < 0)
		scnprintf(wqt_result + len, sizeof(wqt_result) - len,
			  "%swin_items=none\n", prefix);
}

/* For work functions of the other files: one more item ran. */
void wqt_item_ran(void)
{
	atomic_inc(&wqt_executed);
}

/* How many items ran since the last wqt_run_many() began. */
int wqt_items_ran(void)
{
	return atomic_read(&wqt_executed);
}

/* Queue @n items of @fn on @wq, flush them, and report the count. */
int wqt_run_many(struct workqueue_struct *wq, work_func_t fn, unsigned int n)
{
	struct work_struct *items;
	unsigned int i;
	int win;

	if (!n || n > WQT_MAX_ITEMS)
		return -EINVAL;
	items = kvcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	/* without the series' tracepoints (a vanilla kernel), no windows */
	win = wqt_win_begin(items, sizeof(*items), n);
	atomic_set(&wqt_executed, 0);
	for (i = 0; i < n; i++) {
		INIT_WORK(&items[i], fn);
		queue_work(wq, &items[i]);
	}
	for (i = 0; i < n; i++)
		flush_work(&items[i]);
	wqt_win_end();
	wqt_result_set("queued=%u\nexecuted=%d\n", n, atomic_read(&wqt_executed));
	if (!win)
		wqt_result_win("", 0, n, 0);
	wqt_win_free();
	kvfree(items);
	return 0;
}

/* "spin N US": N items on wqtest, each spinning US microseconds. */
static int wqt_scn_spin(unsigned int n, unsigned int us)
{
	WRITE_ONCE(wqt_spin_us, us);
	return wqt_run_many(wqt_wq, wqt_spin_fn, n);
}

/* "unbound N US": N items on a fresh unbound queue, so workers migrate. */
static int wqt_scn_unbound(unsigned int n, unsigned int us)
{
	struct workqueue_struct *wq;
	int ret;

	wq = alloc_workqueue("wqtest_unbound", WQ_UNBOUND, 0);
	if (!wq)
		return -ENOMEM;
	WRITE_ONCE(wqt_spin_us, us);
	ret = wqt_run_many(wq, wqt_unbound_fn, n);
	destroy_workqueue(wq);
	return ret;
}

/* "on_cpu CPU": one item queued with queue_work_on(). */
static int wqt_scn_on_cpu(unsigned int cpu)
{
	struct work_struct work;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	atomic_set(&wqt_executed, 0);
	atomic_set(&wqt_last_cpu, -1);
	INIT_WORK_ONSTACK(&work, wqt_oncpu_fn);
	queue_work_on(cpu, wqt_wq, &work);
	flush_work(&work);
	destroy_work_on_stack(&work);
	wqt_result_set("requested_cpu=%u\nran_on=%d\nexecuted=%d\n", cpu,
		       atomic_read(&wqt_last_cpu), atomic_read(&wqt_executed));
	return 0;
}

/* "delayed J": one delayed item with a delay of J jiffies. */
static int wqt_scn_delayed(unsigned int delay)
{
	struct delayed_work dwork;
	u64 start = get_jiffies_64();
	int ret, win;

	atomic_set(&wqt_executed, 0);
	reinit_completion(&wqt_delayed_done);
	INIT_DELAYED_WORK_ONSTACK(&dwork, wqt_delayed_fn);
	win = wqt_win_begin(&dwork.work, sizeof(dwork), 1);
	queue_delayed_work(wqt_wq, &dwork, delay);
	ret = wqt_wait_delayed(&dwork);
	wqt_win_end();
	destroy_delayed_work_on_stack(&dwork);
	wqt_result_set("delay=%u\nwaited_jiffies=%llu\nexecuted=%d\nHZ=%d\n",
		       delay, get_jiffies_64() - start,
		       atomic_read(&wqt_executed), HZ);
	if (!win)
		wqt_result_win("", 0, 1, (u64)delay * TICK_NSEC);
	wqt_win_free();
	return ret;
}

/* "mod_delayed J": arm a timer far out, then move it to J jiffies. */
static int wqt_scn_mod_delayed(unsigned int delay)
{
	struct delayed_work dwork;

	int ret;

	atomic_set(&wqt_executed, 0);
	reinit_completion(&wqt_delayed_done);
	INIT_DELAYED_WORK_ONSTACK(&dwork, wqt_delayed_fn);
	queue_delayed_work(wqt_wq, &dwork, 10 * HZ);
	mod_delayed_work(wqt_wq, &dwork, delay);
	ret = wqt_wait_delayed(&dwork);
	destroy_delayed_work_on_stack(&dwork);
	wqt_result_set("delay=%u\nexecuted=%d\n", delay,
		       atomic_read(&wqt_executed));
	return ret;
}

/*
 * "cancel": three cancels whose outcome is known.  A queued item that cannot
 * run because an ordered queue's only worker is held; an armed timer; an
 * idle item.  The first two are taken off, the third was never pending.
 */
static int wqt_scn_cancel(void)
{
	struct workqueue_struct *owq;
	struct work_struct blocker, queued, idle;
	struct delayed_work armed;
	bool c_queued, c_armed, c_idle;

	owq = alloc_ordered_workqueue("wqtest_ordered", 0);
	if (!owq)
		return -ENOMEM;
	atomic_set(&wqt_executed, 0);
	reinit_completion(&wqt_gate);
	INIT_WORK_ONSTACK(&blocker, wqt_block_fn);
	INIT_WORK_ONSTACK(&queued, wqt_cancel_fn);
	INIT_WORK_ONSTACK(&idle, wqt_cancel_fn);
	INIT_DELAYED_WORK_ONSTACK(&armed, wqt_cancel_fn);

	queue_work(owq, &blocker);
	queue_work(owq, &queued);
	c_queued = cancel_work_sync(&queued);

	queue_delayed_work(wqt_wq, &armed, 60 * HZ);
	c_armed = cancel_delayed_work_sync(&armed);

	c_idle = cancel_work_sync(&idle);

	complete(&wqt_gate);
	flush_work(&blocker);
	destroy_workqueue(owq);
	destroy_work_on_stack(&blocker);
	destroy_work_on_stack(&queued);
	destroy_work_on_stack(&idle);
	destroy_delayed_work_on_stack(&armed);
	/* only the blocker may have run */
	wqt_result_set("cancel_queued=%d\ncancel_armed=%d\ncancel_idle=%d\nexecuted=%d\n",
		       c_queued, c_armed, c_idle, atomic_read(&wqt_executed));
	return 0;
}

/*
 * "cancel_one": one queued item cancelled before it could run, with the
 * cancels that do not wait; then the same cancels of what is not pending:
 * that item again, and a delayed item never queued.
 */
static int wqt_scn_cancel_one(void)
{
	struct workqueue_struct *owq;
	struct work_struct blocker, queued;
	struct delayed_work never;
	bool taken, again, idle_delayed;

	owq = alloc_ordered_workqueue("wqtest_ordered", 0);
	if (!owq)
		return -ENOMEM;
	atomic_set(&wqt_executed, 0);
	reinit_completion(&wqt_gate);
	INIT_WORK_ONSTACK(&blocker, wqt_block_fn);
	INIT_WORK_ONSTACK(&queued, wqt_cancel_fn);
	queue_work(owq, &blocker);
	queue_work(owq, &queued);
	taken = cancel_work(&queued);
	again = cancel_work(&queued);
	INIT_DELAYED_WORK_ONSTACK(&never, wqt_cancel_fn);
	idle_delayed = cancel_delayed_work(&never);
	complete(&wqt_gate);
	flush_workqueue(owq);
	destroy_workqueue(owq);
	destroy_work_on_stack(&blocker);
	destroy_work_on_stack(&queued);
	destroy_delayed_work_on_stack(&never);
	wqt_result_set("cancelled=%d\nagain=%d\nidle_delayed=%d\nexecuted=%d\n",
		       taken, again, idle_delayed, atomic_read(&wqt_executed));
	return 0;
}

/*
 * "flush": flush_work(), flush_workqueue() and drain_workqueue() on wqtest.
 * flush_work() of an item that has already run returns false and traces
 * nothing, which a descheduled vCPU can make happen to a 2 ms item: queue
 * and flush it again until one flush waits (100 times at most), and report
 * how many did.
 */
static int wqt_scn_flush(void)
{
	struct work_struct a, b;
	int calls = 0, waited = 0;

	atomic_set(&wqt_executed, 0);
	INIT_WORK_ONSTACK(&a, wqt_flush_fn);
	INIT_WORK_ONSTACK(&b, wqt_flush_fn);
	while (!waited && calls < 100) {
		queue_work(wqt_wq, &a);
		waited += flush_work(&a);
		calls++;
	}
	queue_work(wqt_wq, &a);
	queue_work(wqt_wq, &b);
	flush_workqueue(wqt_wq);
	queue_work(wqt_wq, &a);
	drain_workqueue(wqt_wq);
	destroy_work_on_stack(&a);
	destroy_work_on_stack(&b);
	wqt_result_set("executed=%d\nflush_calls=%d\nflush_waited=%d\n",
		       atomic_read(&wqt_executed), calls, waited);
	return 0;
}

/* "create": create and destroy a workqueue named wqtest_tmp. */
static int wqt_scn_create(unsigned int max_active)
{
	struct workqueue_struct *wq;

	wq = alloc_workqueue("wqtest_tmp", WQ_UNBOUND | WQ_HIGHPRI, max_active);
	if (!wq)
		return -ENOMEM;
	destroy_workqueue(wq);
	wqt_result_set("created=1\nmax_active=%u\n", max_active);
	return 0;
}

/* "selffree N": N heap items that free themselves in their function. */
static int wqt_scn_selffree(unsigned int n)
{
	struct wqt_selffree *sf;
	unsigned int i;

	if (!n || n > WQT_MAX_ITEMS)
		return -EINVAL;
	atomic_set(&wqt_executed, 0);
	for (i = 0; i < n; i++) {
		sf = kzalloc(sizeof(*sf), GFP_KERNEL);
		if (!sf)
			break;
		INIT_WORK(&sf->work, wqt_selffree_fn);
		queue_work(wqt_wq, &sf->work);
	}
	flush_workqueue(wqt_wq);
	wqt_result_set("queued=%u\nexecuted=%d\n", i, atomic_read(&wqt_executed));
	return i == n ? 0 : -ENOMEM;
}

/* "chain N": one item that re-queues itself until it has run N times. */
static int wqt_scn_chain(unsigned int n)
{
	struct work_struct work;

	if (!n || n > 10 * WQT_MAX_ITEMS)
		return -EINVAL;
	atomic_set(&wqt_executed, 0);
	atomic_set(&wqt_chain_left, n);
	reinit_completion(&wqt_chain_done);
	INIT_WORK_ONSTACK(&work, wqt_chain_fn);
	queue_work(wqt_wq, &work);
	wait_for_completion(&wqt_chain_done);
	flush_work(&work);
	destroy_work_on_stack(&work);
	wqt_result_set("queued=%u\nexecuted=%d\n", n, atomic_read(&wqt_executed));
	return 0;
}

/*
 * "ordered MS": on an ordered queue, item A sleeps MS milliseconds and item B
 * is queued right behind it, so B waits at least MS in the queue.
 */
static int wqt_scn_ordered(unsigned int ms)
{
	struct workqueue_struct *owq;
	struct work_struct ab[2];	/* A, then B */
	int win;

	owq = alloc_ordered_workqueue("wqtest_ordered", 0);
	if (!owq)
		return -ENOMEM;
	atomic_set(&wqt_executed, 0);
	WRITE_ONCE(wqt_sleep_ms, ms);
	INIT_WORK_ONSTACK(&ab[0], wqt_sleep_fn);
	INIT_WORK_ONSTACK(&ab[1], wqt_behind_fn);
	win = wqt_win_begin(ab, sizeof(ab[0]), 2);
	queue_work(owq, &ab[0]);
	queue_work(owq, &ab[1]);
	flush_workqueue(owq);
	wqt_win_end();
	destroy_workqueue(owq);
	destroy_work_on_stack(&ab[0]);
	destroy_work_on_stack(&ab[1]);
	wqt_result_set("sleep_ms=%u\nexecuted=%d\n", ms,
		       atomic_read(&wqt_executed));
	if (!win) {
		wqt_result_win("a_", 0, 1, 0);
		wqt_result_win("b_", 1, 1, 0);
	}
	wqt_win_free();
	return 0;
}

/* "sleep N MS": N items on wqtest, each sleeping MS milliseconds. */
static int wqt_scn_sleep(unsigned int n, unsigned int ms)
{
	WRITE_ONCE(wqt_sleep_ms, ms);
	return wqt_run_many(wqt_wq, wqt_sleep_fn, n);
}

static struct workqueue_struct *wqt_held_wq;
static struct work_struct wqt_held_blocker, wqt_held_item;

/* Work function queued by "hold" behind a blocked item. */
static void wqt_held_fn(struct work_struct *work)
{
	atomic_inc(&wqt_executed);
}

/* "hold": queue an item that cannot run until "release". */
static int wqt_scn_hold(void)
{
	if (wqt_held_wq)
		return -EBUSY;
	wqt_held_wq = alloc_ordered_workqueue("wqtest_held", 0);
	if (!wqt_held_wq)
		return -ENOMEM;
	atomic_set(&wqt_executed, 0);
	reinit_completion(&wqt_gate);
	INIT_WORK(&wqt_held_blocker, wqt_block_fn);
	INIT_WORK(&wqt_held_item, wqt_held_fn);
	queue_work(wqt_held_wq, &wqt_held_blocker);
	queue_work(wqt_held_wq, &wqt_held_item);
	wqt_result_set("held=1\n");
	return 0;
}

/* "release": let the items of "hold" run, and wait for them. */
static int wqt_scn_release(void)
{
	if (!wqt_held_wq)
		return -EINVAL;
	complete(&wqt_gate);
	destroy_workqueue(wqt_held_wq);
	wqt_held_wq = NULL;
	wqt_result_set("executed=%d\n", atomic_read(&wqt_executed));
	return 0;
}

/* Parse and run one scenario line. */
static int wqt_dispatch(char *line)
{
	char name[32], word[16];
	unsigned int a = 0, b = 0, c = 0, d = 0;
	int n;

	if (sscanf(line, "pctl %15s %u", word, &a) == 2)
		return wqt_scn_pctl(word, a);
	n = sscanf(line, "%31s %u %u", name, &a, &b);
	if (n < 1)
		return -EINVAL;
	if (!strcmp(name, "spin") && n == 3)
		return wqt_scn_spin(a, b);
	if (!strcmp(name, "burst") && n == 2)
		return wqt_scn_spin(a, 0);
	if (!strcmp(name, "unbound") && n == 3)
		return wqt_scn_unbound(a, b);
	if (!strcmp(name, "sleep") && n == 3)
		return wqt_scn_sleep(a, b);
	if (!strcmp(name, "on_cpu") && n == 2)
		return wqt_scn_on_cpu(a);
	if (!strcmp(name, "delayed") && n == 2)
		return wqt_scn_delayed(a);
	if (!strcmp(name, "mod_delayed") && n == 2)
		return wqt_scn_mod_delayed(a);
	if (!strcmp(name, "cancel") && n == 1)
		return wqt_scn_cancel();
	if (!strcmp(name, "cancel_one") && n == 1)
		return wqt_scn_cancel_one();
	if (!strcmp(name, "flush") && n == 1)
		return wqt_scn_flush();
	if (!strcmp(name, "create") && n == 2)
		return wqt_scn_create(a);
	if (!strcmp(name, "selffree") && n == 2)
		return wqt_scn_selffree(a);
	if (!strcmp(name, "chain") && n == 2)
		return wqt_scn_chain(a);
	if (!strcmp(name, "hold") && n == 1)
		return wqt_scn_hold();
	if (!strcmp(name, "release") && n == 1)
		return wqt_scn_release();
	if (!strcmp(name, "ordered") && n == 2)
		return wqt_scn_ordered(a);
	if (!strcmp(name, "system") && n == 2)
		return wqt_scn_system(a);
	if (!strcmp(name, "deferrable") && n == 2)
		return wqt_scn_deferrable(a);
	if (!strcmp(name, "hugedelay") && n == 1)
		return wqt_scn_hugedelay();
	if (!strcmp(name, "latechurn") && n == 3)
		return wqt_scn_latechurn(a, b);
	if (sscanf(line, "churn %u %u %u %u", &a, &b, &c, &d) == 4)
		return wqt_scn_churn(a, b, c, d);
	if (sscanf(line, "churn %u %u %u", &a, &b, &c) == 3)
		return wqt_scn_churn(a, b, c, 0);
	if (!strcmp(name, "twins") && n == 3)
		return wqt_scn_twins(a, b);
	if (!strcmp(name, "barriers") && n == 2)
		return wqt_scn_barriers(wqt_wq, a);
	if (!strcmp(name, "stress") && n == 3)
		return wqt_scn_stress(a, b);
	if (n == 3) {
		int ret = wqt_scn_cmwq(wqt_wq, name, a, b);

		if (ret != -ENOENT)
			return ret;
	}
	return -EINVAL;
}

/* Write handler of debugfs "run": one scenario per write. */
static ssize_t wqt_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[64];
	int ret;

	if (*ppos || count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&wqt_lock);
	wqt_result[0] = '\0';
	ret = wqt_dispatch(buf);
	mutex_unlock(&wqt_lock);
	return ret ? ret : count;
}

/* Read handler of debugfs "result". */
static ssize_t wqt_result_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&wqt_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, wqt_result,
				      strlen(wqt_result));
	mutex_unlock(&wqt_lock);
	return ret;
}

static const struct file_operations wqt_run_fops = {
	.owner	= THIS_MODULE,
	.write	= wqt_run_write,
	.llseek	= noop_llseek,
};

static const struct file_operations wqt_result_fops = {
	.owner	= THIS_MODULE,
	.read	= wqt_result_read,
	.llseek	= default_llseek,
};

/* Create the module's workqueue and its debugfs files. */
static int __init wqt_init(void)
{
	wqt_wq = alloc_workqueue("wqtest", 0, 0);
	if (!wqt_wq)
		return -ENOMEM;
	wqt_dir = debugfs_create_dir("wqtest", NULL);
	debugfs_create_file("run", 0200, wqt_dir, NULL, &wqt_run_fops);
	debugfs_create_file("result", 0400, wqt_dir, NULL, &wqt_result_fops);
	return 0;
}

/* Remove the debugfs files, then the workqueue. */
static void __exit wqt_exit(void)
{
	debugfs_remove_recursive(wqt_dir);
	if (wqt_held_wq)
		wqt_scn_release();
	wqt_life_exit();
	wqt_win_free();
	destroy_workqueue(wqt_wq);
}

module_init(wqt_init);
module_exit(wqt_exit);
MODULE_DESCRIPTION("Controlled workqueue workloads for the wqstat test suite");
MODULE_LICENSE("GPL");
