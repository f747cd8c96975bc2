// SPDX-License-Identifier: GPL-2.0
/*
 * wqbench - workqueue workloads timed in the kernel, for "make bench"
 *
 * One scenario per write to /sys/kernel/debug/wqbench/run; the result,
 * "items=N ns=T ns_per_item=X", is read back from .../result.  Time is
 * measured here, around the workload only, so the setup of whatever is
 * watching (a perf process, triggers) is not counted.
 *
 *   chain N          one item re-queuing itself N times on CPU 0
 *   burst M R        M distinct items queued, then flushed; R rounds
 *   many F R         F distinct work functions (F <= 1024), one item each,
 *                    queued then flushed; R rounds
 *   table F W        F functions on each of W new workqueues: F x W rows
 *   spin M U R       M items of one function that spins U us, queued then
 *                    flushed; R rounds (work long enough to time the same
 *                    way with any tracer)
 *   scale F W R      F functions on each of W workqueues kept from one
 *                    call to the next (W <= 128): F x W distinct rows, one
 *                    item each, queued then flushed; R rounds
 *   same N           on every online CPU at once, N items of one function
 *                    queued on that CPU, then flushed: every CPU counts
 *                    the same row (N x CPUs items)
 *   destroy N        N new workqueues, each given one item to run, then
 *                    destroyed; the result is the time of destroy_workqueue()
 *                    alone: "items=N ns=T ns_per_item=X"
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#define WQB_FUNCS	1024
#define WQB_SCALE_WQS	128
#define WQB_DESTROY_MAX	4096

static struct workqueue_struct *wqb_wq;
static struct dentry *wqb_dir;
static DEFINE_MUTEX(wqb_lock);
static char wqb_result[128];
static atomic_long_t wqb_sum;
static unsigned int wqb_spin_us;

/*
 * 1024 distinct work functions.  Each adds its own constant, so that the
 * compiler cannot fold them into one (GCC's -fipa-icf would merge identical
 * bodies, and the table would then have one row).
 */
#define WQB_FN(n) \
static void wqb_fn_##n(struct work_struct *w) { atomic_long_add(n + 1, &wqb_sum); }
#define WQB_R8(M, p) M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7)
#define WQB_R64(M, p) WQB_R8(M, p##0) WQB_R8(M, p##1) WQB_R8(M, p##2) WQB_R8(M, p##3) \
	WQB_R8(M, p##4) WQB_R8(M, p##5) WQB_R8(M, p##6) WQB_R8(M, p##7)
#define WQB_R1024(M) WQB_R64(M, 1) WQB_R64(M, 2) WQB_R64(M, 3) WQB_R64(M, 4) \
	WQB_R64(M, 5) WQB_R64(M, 6) WQB_R64(M, 7) WQB_R64(M, 8) WQB_R64(M, 9) \
	WQB_R64(M, 10) WQB_R64(M, 11) WQB_R64(M, 12) WQB_R64(M, 13) WQB_R64(M, 14) \
	WQB_R64(M, 15) WQB_R64(M, 16)
WQB_R1024(WQB_FN)
#define WQB_PTR(n) wqb_fn_##n,
static const work_func_t wqb_fns[WQB_FUNCS] = { WQB_R1024(WQB_PTR) };

static void wqb_result_set(u64 items, u64 ns)
{
	scnprintf(wqb_result, sizeof(wqb_result), "items=%llu ns=%llu ns_per_item=%llu\n",
		  items, ns, items ? div64_u64(ns, items) : 0);
}

static atomic_t wqb_chain_left;
static DECLARE_COMPLETION(wqb_chain_done);

/* The chain: queue itself again on CPU 0 until done. */
static void wqb_chain_fn(struct work_struct *work)
{
	if (atomic_dec_return(&wqb_chain_left) > 0)
		queue_work_on(0, wqb_wq, work);
	else
		complete(&wqb_chain_done);
}

static int wqb_chain(unsigned int n)
{
	struct work_struct work;
	ktime_t t0;

	if (!n)
		return -EINVAL;
	atomic_set(&wqb_chain_left, n);
	reinit_completion(&wqb_chain_done);
	INIT_WORK_ONSTACK(&work, wqb_chain_fn);
	t0 = ktime_get();
	queue_work_on(0, wqb_wq, &work);
	wait_for_completion(&wqb_chain_done);
	flush_work(&work);
	wqb_result_set(n, ktime_to_ns(ktime_sub(ktime_get(), t0)));
	destroy_work_on_stack(&work);
	return 0;
}

/* @m items, item i of function @fns[i % @nfns]; NULL without memory. */
static struct work_struct *wqb_items(unsigned int m, const work_func_t *fns,
				     unsigned int nfns)
{
	struct work_struct *items;
	unsigned int i;

	items = kvcalloc(m, sizeof(*items), GFP_KERNEL);
	if (!items)
		return NULL;
	for (i = 0; i < m; i++)
		INIT_WORK(&items[i], fns[i % nfns]);
	return items;
}

/*
 * @r rounds of: queue the @m @items, item i on @wqs[i / @per_wq], then
 * flush them all.  With @report, the items run and the time they took are
 * the result.  Frees @items.
 */
static void wqb_rounds(struct workqueue_struct *const *wqs, unsigned int per_wq,
		       struct work_struct *items, unsigned int m,
		       unsigned int r, bool report)
{
	unsigned int i, k;
	ktime_t t0 = ktime_get();

	for (k = 0; k < r; k++) {
		for (i = 0; i < m; i++)
			queue_work(wqs[i / per_wq], &items[i]);
		for (i = 0; i < m; i++)
			flush_work(&items[i]);
	}
	if (report)
		wqb_result_set((u64)m * r, ktime_to_ns(ktime_sub(ktime_get(), t0)));
	kvfree(items);
}

/* Queue @m items whose functions cycle through the first @f, flush; @r rounds. */
static int wqb_burst(struct workqueue_struct *wq, unsigned int m,
		     unsigned int f, unsigned int r, bool report)
{
	struct work_struct *items;

	if (!m || !r || !f || f > WQB_FUNCS || m > 65536)
		return -EINVAL;
	items = wqb_items(m, wqb_fns, f);
	if (!items)
		return -ENOMEM;
	wqb_rounds(&wq, m, items, m, r, report);
	return 0;
}

static void wqb_spin_fn(struct work_struct *work)
{
	ktime_t end = ktime_add_us(ktime_get(), READ_ONCE(wqb_spin_us));

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

/* @m items of wqb_spin_fn spinning @us each, queued then flushed; @r rounds. */
static int wqb_spin(unsigned int m, unsigned int us, unsigned int r)
{
	static const work_func_t fn[] = { wqb_spin_fn };
	struct work_struct *items;

	if (!m || !r || m > 4096 || us > 10000)
		return -EINVAL;
	items = wqb_items(m, fn, 1);
	if (!items)
		return -ENOMEM;
	WRITE_ONCE(wqb_spin_us, us);
	wqb_rounds(&wqb_wq, m, items, m, r, true);
	return 0;
}

/* "same": the items, N for each CPU, N, and a driver item per CPU */
static struct work_struct *wqb_same_items;
static struct work_struct *wqb_same_drivers;
static unsigned int wqb_same_n;

/* One CPU's part of "same": its driver item runs on that CPU. */
static void wqb_same_cpu(struct work_struct *work)
{
	size_t cpu = work - wqb_same_drivers;
	struct work_struct *mine = wqb_same_items + cpu * wqb_same_n;
	unsigned int i;

	for (i = 0; i < wqb_same_n; i++)
		queue_work(wqb_wq, &mine[i]);
	for (i = 0; i < wqb_same_n; i++)
		flush_work(&mine[i]);
}

/* @n items of one function queued on each online CPU, all CPUs at once. */
static int wqb_same(unsigned int n)
{
	unsigned int cpu, cpus = 0;
	size_t i;
	ktime_t t0;

	if (!n || n > 65536)
		return -EINVAL;
	wqb_same_items = kvcalloc((size_t)n * nr_cpu_ids, sizeof(*wqb_same_items),
				  GFP_KERNEL);
	wqb_same_drivers = kcalloc(nr_cpu_ids, sizeof(*wqb_same_drivers),
				   GFP_KERNEL);
	if (!wqb_same_items || !wqb_same_drivers) {
		kvfree(wqb_same_items);
		kfree(wqb_same_drivers);
		return -ENOMEM;
	}
	for (i = 0; i < (size_t)n * nr_cpu_ids; i++)
		INIT_WORK(&wqb_same_items[i], wqb_fns[0]);
	wqb_same_n = n;
	cpus_read_lock();
	t0 = ktime_get();
	for_each_online_cpu(cpu) {
		INIT_WORK(&wqb_same_drivers[cpu], wqb_same_cpu);
		queue_work_on(cpu, system_highpri_wq, &wqb_same_drivers[cpu]);
		cpus++;
	}
	for_each_online_cpu(cpu)
		flush_work(&wqb_same_drivers[cpu]);
	wqb_result_set((u64)n * cpus, ktime_to_ns(ktime_sub(ktime_get(), t0)));
	cpus_read_unlock();
	kvfree(wqb_same_items);
	kfree(wqb_same_drivers);
	wqb_same_items = NULL;
	wqb_same_drivers = NULL;
	return 0;
}

/* The workqueues of "scale", kept between calls so that their rows stay live. */
static struct workqueue_struct *wqb_scale_wqs[WQB_SCALE_WQS];
static unsigned int wqb_scale_nr;

/* Keep exactly @w scale workqueues. */
static int wqb_scale_resize(unsigned int w)
{
	while (wqb_scale_nr > w)
		destroy_workqueue(wqb_scale_wqs[--wqb_scale_nr]);
	while (wqb_scale_nr < w) {
		struct workqueue_struct *wq;

		wq = alloc_workqueue("wqbs_%u", 0, 0, wqb_scale_nr);
		if (!wq)
			return -ENOMEM;
		wqb_scale_wqs[wqb_scale_nr++] = wq;
	}
	return 0;
}

/* F functions on each of W kept workqueues, one item each; R rounds. */
static int wqb_scale(unsigned int f, unsigned int w, unsigned int r)
{
	struct work_struct *items;
	int ret;

	if (!f || f > WQB_FUNCS || w > WQB_SCALE_WQS || (!r && w))
		return -EINVAL;
	ret = wqb_scale_resize(w);
	if (ret || !w)
		return ret;
	items = wqb_items(f * w, wqb_fns, f);
	if (!items)
		return -ENOMEM;
	wqb_rounds(wqb_scale_wqs, f, items, f * w, r, true);
	return 0;
}

/* @n fresh workqueues, each with one item run; then destroy_workqueue() timed. */
static int wqb_destroy(unsigned int n)
{
	struct workqueue_struct **wqs;
	struct work_struct work;
	unsigned int i, made;
	u64 ns = 0;
	ktime_t t0;
	int ret = 0;

	if (!n || n > WQB_DESTROY_MAX)
		return -EINVAL;
	wqs = kvcalloc(n, sizeof(*wqs), GFP_KERNEL);
	if (!wqs)
		return -ENOMEM;
	INIT_WORK_ONSTACK(&work, wqb_fns[0]);
	for (made = 0; made < n; made++) {
		wqs[made] = alloc_workqueue("wqbd_%u", 0, 0, made);
		if (!wqs[made]) {
			ret = -ENOMEM;
			break;
		}
		queue_work(wqs[made], &work);
		flush_work(&work);
	}
	for (i = 0; i < made; i++) {
		t0 = ktime_get();
		destroy_workqueue(wqs[i]);
		ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	}
	destroy_work_on_stack(&work);
	kvfree(wqs);
	if (!ret)
		wqb_result_set(n, ns);
	return ret;
}

/* F functions on each of W fresh workqueues, to fill F x W rows. */
static int wqb_table(unsigned int f, unsigned int w)
{
	struct workqueue_struct *wq;
	unsigned int i;
	int ret = 0;

	if (!w || w > 64)
		return -EINVAL;
	for (i = 0; i < w && !ret; i++) {
		wq = alloc_workqueue("wqbench_%u", 0, 0, i);
		if (!wq)
			return -ENOMEM;
		ret = wqb_burst(wq, f, f, 1, false);
		destroy_workqueue(wq);
	}
	scnprintf(wqb_result, sizeof(wqb_result), "rows=%u\n", f * w);
	return ret;
}

static int wqb_dispatch(const char *line)
{
	char name[16];
	unsigned int a = 0, b = 0, c = 0;
	int n = sscanf(line, "%15s %u %u %u", name, &a, &b, &c);

	if (n < 2)
		return -EINVAL;
	if (!strcmp(name, "chain") && n == 2)
		return wqb_chain(a);
	if (!strcmp(name, "burst") && n == 3)
		return wqb_burst(wqb_wq, a, 1, b, true);
	if (!strcmp(name, "many") && n == 3)
		return wqb_burst(wqb_wq, a, a, b, true);
	if (!strcmp(name, "table") && n == 3)
		return wqb_table(a, b);
	if (!strcmp(name, "spin") && n == 4)
		return wqb_spin(a, b, c);
	if (!strcmp(name, "scale") && n == 4)
		return wqb_scale(a, b, c);
	if (!strcmp(name, "same") && n == 2)
		return wqb_same(a);
	if (!strcmp(name, "destroy") && n == 2)
		return wqb_destroy(a);
	return -EINVAL;
}

static ssize_t wqb_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[48];
	int ret;

	if (*ppos || !count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&wqb_lock);
	wqb_result[0] = '\0';
	ret = wqb_dispatch(buf);
	mutex_unlock(&wqb_lock);
	return ret ? ret : count;
}

static ssize_t wqb_result_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&wqb_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, wqb_result, strlen(wqb_result));
	mutex_unlock(&wqb_lock);
	return ret;
}

static const struct file_operations wqb_run_fops = {
	.owner = THIS_MODULE, .write = wqb_run_write, .llseek = noop_llseek,
};

static const struct file_operations wqb_result_fops = {
	.owner = THIS_MODULE, .read = wqb_result_read, .llseek = default_llseek,
};

static int __init wqb_init(void)
{
	wqb_wq = alloc_workqueue("wqbench", 0, 0);
	if (!wqb_wq)
		return -ENOMEM;
	wqb_dir = debugfs_create_dir("wqbench", NULL);
	debugfs_create_file("run", 0200, wqb_dir, NULL, &wqb_run_fops);
	debugfs_create_file("result", 0400, wqb_dir, NULL, &wqb_result_fops);
	return 0;
}

static void __exit wqb_exit(void)
{
	debugfs_remove_recursive(wqb_dir);
	wqb_scale_resize(0);
	destroy_workqueue(wqb_wq);
}

module_init(wqb_init);
module_exit(wqb_exit);
MODULE_DESCRIPTION("Timed workqueue workloads for the wqstat benchmark");
MODULE_LICENSE("GPL");
