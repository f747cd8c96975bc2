// SPDX-License-Identifier: GPL-2.0
/*
 * wqtest "stress SECONDS LIFE_MAX": every kind of workqueue traffic at once,
 * on every CPU, for SECONDS seconds, counted here so that the stat tracer's
 * figures can be checked against the truth.
 *
 * One kthread per online CPU loops over random operations on its own work
 * items: queue_work(), queue_work_on() a random CPU, queue_delayed_work(),
 * mod_delayed_work(), cancel_work(), cancel_work_sync(),
 * cancel_delayed_work(_sync)(), flush_work(), flush_delayed_work(),
 * flush_workqueue(), drain_workqueue(), items that re-queue themselves,
 * items that free themselves, and workqueues created and destroyed (bound,
 * unbound, ordered, high priority; at most LIFE_MAX per CPU in all, since
 * each one adds a row).  Each thread also has a timer (softirq) and a hard-irq
 * hrtimer queueing and cancelling work.
 *
 * Each work function has its own counters of successful enqueues (as the
 * worklet_enqueue event counts them: onto a pool, so a delayed item counts
 * when its timer fires or it is forced), executions and successful cancels
 * (a cancel that took the item off a timer or a pool, as worklet_cancel
 * reports it).  Delayed items are only cancelled while their timer is long
 * (60 s), and a shortened or immediate one is let run, so every delayed
 * enqueue is known here at the moment it becomes certain.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "wqtest.h"

#define WQS_IMM		16	/* immediate items per thread */
#define WQS_CHAIN	4	/* self-requeuing items per thread */
#define WQS_DELAYED	8	/* delayed items per thread */
#define WQS_DRAIN	4	/* items on the thread's private queue */
#define WQS_LIFE	4	/* items on each short-lived queue */
#define WQS_IRQ		4	/* items queued from the timers */
#define WQS_LONG	(60 * HZ)	/* a delay that never expires in a run */

enum wqs_kind { WQS_K_IMM, WQS_K_CHAIN, WQS_K_FREE, WQS_K_DELAYED,
		WQS_K_LIFE, WQS_K_IRQ, WQS_K_NR };

static const char * const wqs_kind_name[WQS_K_NR] = {
	"wqs_imm_fn", "wqs_chain_fn", "wqs_free_fn", "wqs_delayed_fn",
	"wqs_life_fn", "wqs_irq_fn",
};

struct wqs_count {
	atomic64_t	enq;
	atomic64_t	exec;
	atomic64_t	cancel;
};

static struct wqs_count wqs_count[WQS_K_NR];
static struct workqueue_struct *wqs_wq;		/* "wqs", per-CPU */
static struct workqueue_struct *wqs_unbound_wq;	/* "wqs_unbound" */
static bool wqs_stop;
static atomic64_t wqs_ops;
static atomic_t wqs_lives;

enum wqs_dstate { WQS_IDLE, WQS_ARMED_LONG, WQS_SHORT };

struct wqs_chain {
	struct work_struct	work;
	atomic_t		left;
	struct workqueue_struct	*wq;
};

struct wqs_thread {
	struct task_struct	*task;
	unsigned int		cpu;
	unsigned int		life_max;
	unsigned long		deadline;
	struct completion	done;
	struct workqueue_struct	*drain_wq;
	struct work_struct	imm[WQS_IMM];
	struct wqs_chain	chain[WQS_CHAIN];
	struct delayed_work	dw[WQS_DELAYED];
	enum wqs_dstate		dstate[WQS_DELAYED];
	struct work_struct	drain[WQS_DRAIN];
	struct work_struct	life[WQS_LIFE];
	struct work_struct	irq[WQS_IRQ];
	struct timer_list	timer;
	struct hrtimer		hrtimer;
	unsigned int		hrtimer_next;	/* the hrtimer's next irq item */
};

/* Count a successful enqueue of @kind. */
static inline void wqs_enq(enum wqs_kind kind, bool queued)
{
	if (queued)
		atomic64_inc(&wqs_count[kind].enq);
}

/* Count a cancel of @kind that took an item off a timer or a pool. */
static inline void wqs_cancelled(enum wqs_kind kind, bool cancelled)
{
	if (cancelled)
		atomic64_inc(&wqs_count[kind].cancel);
}

/* A random CPU that was online a moment ago. */
static unsigned int wqs_any_cpu(void)
{
	unsigned int cpu = cpumask_nth(get_random_u32_below(num_online_cpus()),
				       cpu_online_mask);

	return cpu < nr_cpu_ids ? cpu : raw_smp_processor_id();
}

static void wqs_imm_fn(struct work_struct *work)
{
	/* sometimes long enough for a cancel to find it running */
	if (!get_random_u32_below(4))
		udelay(get_random_u32_below(100));
	atomic64_inc(&wqs_count[WQS_K_IMM].exec);
}

static void wqs_chain_fn(struct work_struct *work)
{
	struct wqs_chain *c = container_of(work, struct wqs_chain, work);

	atomic64_inc(&wqs_count[WQS_K_CHAIN].exec);
	if (atomic_dec_return(&c->left) > 0)
		wqs_enq(WQS_K_CHAIN, queue_work(c->wq, work));
}

static void wqs_free_fn(struct work_struct *work)
{
	atomic64_inc(&wqs_count[WQS_K_FREE].exec);
	kfree(work);
}

static void wqs_delayed_fn(struct work_struct *work)
{
	atomic64_inc(&wqs_count[WQS_K_DELAYED].exec);
}

static void wqs_life_fn(struct work_struct *work)
{
	atomic64_inc(&wqs_count[WQS_K_LIFE].exec);
}

static void wqs_irq_fn(struct work_struct *work)
{
	atomic64_inc(&wqs_count[WQS_K_IRQ].exec);
}

/* Timer (softirq context): queue or cancel an irq item, then re-arm. */
static void wqs_timer_fn(struct timer_list *t)
{
	struct wqs_thread *th = from_timer(th, t, timer);
	struct work_struct *w = &th->irq[get_random_u32_below(WQS_IRQ)];

	if (get_random_u32_below(4))
		wqs_enq(WQS_K_IRQ, queue_work(wqs_wq, w));
	else
		wqs_cancelled(WQS_K_IRQ, cancel_work(w));
	if (!READ_ONCE(wqs_stop))
		mod_timer(t, jiffies + 1);
}

/*
 * hrtimer in hard-irq context: queue the next irq item on the unbound
 * queue, in turn (get_random_u32() takes a local lock, which PREEMPT_RT
 * makes a sleeping one: not in hard-irq context).
 */
static enum hrtimer_restart wqs_hrtimer_fn(struct hrtimer *t)
{
	struct wqs_thread *th = container_of(t, struct wqs_thread, hrtimer);

	th->hrtimer_next = (th->hrtimer_next + 1) % WQS_IRQ;
	wqs_enq(WQS_K_IRQ, queue_work(wqs_unbound_wq,
				      &th->irq[th->hrtimer_next]));
	if (READ_ONCE(wqs_stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

/* One operation on a delayed item, keeping its state known. */
static void wqs_delayed_op(struct wqs_thread *th, unsigned int i)
{
	struct delayed_work *dw = &th->dw[i];

	switch (th->dstate[i]) {
	case WQS_IDLE:
		if (get_random_u32_below(4)) {
			queue_delayed_work(wqs_wq, dw, WQS_LONG);
			th->dstate[i] = WQS_ARMED_LONG;
		} else {
			/* a zero delay queues at once */
			wqs_enq(WQS_K_DELAYED, queue_delayed_work(wqs_wq, dw, 0));
			th->dstate[i] = WQS_SHORT;
		}
		break;
	case WQS_ARMED_LONG:
		switch (get_random_u32_below(3)) {
		case 0:
			wqs_cancelled(WQS_K_DELAYED, cancel_delayed_work(dw));
			th->dstate[i] = WQS_IDLE;
			break;
		case 1:
			wqs_cancelled(WQS_K_DELAYED, cancel_delayed_work_sync(dw));
			th->dstate[i] = WQS_IDLE;
			break;
		default:
			/* pending or not, it now goes on a pool exactly once */
			mod_delayed_work(wqs_wq, dw, get_random_u32_below(3));
			atomic64_inc(&wqs_count[WQS_K_DELAYED].enq);
			th->dstate[i] = WQS_SHORT;
			break;
		}
		break;
	case WQS_SHORT:
		flush_delayed_work(dw);
		th->dstate[i] = WQS_IDLE;
		break;
	}
}

/* A workqueue created, used and destroyed, of a random kind. */
static void wqs_life_op(struct wqs_thread *th)
{
	static const unsigned int flags[] = {
		0, WQ_UNBOUND, WQ_HIGHPRI, WQ_UNBOUND | WQ_HIGHPRI, WQ_MEM_RECLAIM,
	};
	struct workqueue_struct *wq;
	unsigned int k = get_random_u32_below(ARRAY_SIZE(flags) + 1), i;

	if (atomic_inc_return(&wqs_lives) > th->life_max * num_possible_cpus()) {
		atomic_dec(&wqs_lives);
		return;
	}
	if (k == ARRAY_SIZE(flags))
		wq = alloc_ordered_workqueue("wqs_life", 0);
	else
		wq = alloc_workqueue("wqs_life", flags[k], 0);
	if (!wq) {
		atomic_dec(&wqs_lives);
		return;
	}
	for (i = 0; i < WQS_LIFE; i++)
		wqs_enq(WQS_K_LIFE, queue_work(wq, &th->life[i]));
	destroy_workqueue(wq);		/* drains it first */
}

/* One random operation. */
static void wqs_op(struct wqs_thread *th)
{
	unsigned int r = get_random_u32_below(100);
	struct work_struct *w = &th->imm[get_random_u32_below(WQS_IMM)];
	struct wqs_chain *c = &th->chain[get_random_u32_below(WQS_CHAIN)];
	struct work_struct *f;
	unsigned int i;

	if (r < 25) {
		wqs_enq(WQS_K_IMM, queue_work(r & 1 ? wqs_unbound_wq : wqs_wq, w));
	} else if (r < 40) {
		wqs_enq(WQS_K_IMM, queue_work_on(wqs_any_cpu(), wqs_wq, w));
	} else if (r < 47) {
		wqs_cancelled(WQS_K_IMM, cancel_work(w));
	} else if (r < 54) {
		wqs_cancelled(WQS_K_IMM, cancel_work_sync(w));
	} else if (r < 58) {
		flush_work(w);
	} else if (r < 63) {
		if (!work_pending(&c->work)) {
			atomic_set(&c->left, 2 + get_random_u32_below(20));
			wqs_enq(WQS_K_CHAIN, queue_work(c->wq, &c->work));
		}
	} else if (r < 66) {
		wqs_cancelled(WQS_K_CHAIN, cancel_work_sync(&c->work));
	} else if (r < 74) {
		f = kmalloc(sizeof(*f), GFP_KERNEL);
		if (f) {
			INIT_WORK(f, wqs_free_fn);
			wqs_enq(WQS_K_FREE, queue_work_on(wqs_any_cpu(), wqs_wq, f));
		}
	} else if (r < 90) {
		wqs_delayed_op(th, get_random_u32_below(WQS_DELAYED));
	} else if (r < 93) {
		flush_workqueue(r & 1 ? wqs_unbound_wq : wqs_wq);
	} else if (r < 95) {
		/* only this thread queues on drain_wq, as draining requires */
		for (i = 0; i < WQS_DRAIN; i++)
			wqs_enq(WQS_K_IMM, queue_work(th->drain_wq, &th->drain[i]));
		drain_workqueue(th->drain_wq);
	} else {
		wqs_life_op(th);
	}
	atomic64_inc(&wqs_ops);
}

/* Leave nothing queued, armed or running. */
static void wqs_settle(struct wqs_thread *th)
{
	unsigned int i;

	for (i = 0; i < WQS_DELAYED; i++) {
		if (th->dstate[i] == WQS_ARMED_LONG)
			wqs_cancelled(WQS_K_DELAYED, cancel_delayed_work_sync(&th->dw[i]));
		else
			flush_delayed_work(&th->dw[i]);
	}
	for (i = 0; i < WQS_IMM; i++)
		flush_work(&th->imm[i]);
	for (i = 0; i < WQS_CHAIN; i++)
		flush_work(&th->chain[i].work);
}

static int wqs_thread_fn(void *arg)
{
	struct wqs_thread *th = arg;

	mod_timer(&th->timer, jiffies + 1);
	hrtimer_start(&th->hrtimer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	while (time_before(jiffies, th->deadline)) {
		wqs_op(th);
		cond_resched();
	}
	complete(&th->done);
	return 0;
}

/* Set up one thread's items, timers and private queue; 0 or -errno. */
static int wqs_thread_init(struct wqs_thread *th, unsigned int cpu)
{
	unsigned int i;

	th->cpu = cpu;
	init_completion(&th->done);
	th->drain_wq = alloc_workqueue("wqs_drain", 0, 0);
	if (!th->drain_wq)
		return -ENOMEM;
	for (i = 0; i < WQS_IMM; i++)
		INIT_WORK(&th->imm[i], wqs_imm_fn);
	for (i = 0; i < WQS_CHAIN; i++) {
		INIT_WORK(&th->chain[i].work, wqs_chain_fn);
		th->chain[i].wq = i & 1 ? wqs_unbound_wq : wqs_wq;
	}
	for (i = 0; i < WQS_DELAYED; i++)
		INIT_DELAYED_WORK(&th->dw[i], wqs_delayed_fn);
	for (i = 0; i < WQS_DRAIN; i++)
		INIT_WORK(&th->drain[i], wqs_imm_fn);
	for (i = 0; i < WQS_LIFE; i++)
		INIT_WORK(&th->life[i], wqs_life_fn);
	for (i = 0; i < WQS_IRQ; i++)
		INIT_WORK(&th->irq[i], wqs_irq_fn);
	timer_setup(&th->timer, wqs_timer_fn, 0);
	hrtimer_init(&th->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	th->hrtimer.function = wqs_hrtimer_fn;
	return 0;
}

/* Undo wqs_thread_init() once the thread and its timers have stopped. */
static void wqs_thread_fini(struct wqs_thread *th)
{
	unsigned int i;

	wqs_settle(th);
	for (i = 0; i < WQS_IRQ; i++)
		flush_work(&th->irq[i]);
	destroy_workqueue(th->drain_wq);
}

/* Print the counts into the result file. */
static void wqs_report(unsigned int seconds, unsigned int threads)
{
	char line[96 * WQS_K_NR];
	int len = 0, k;

	for (k = 0; k < WQS_K_NR; k++)
		len += scnprintf(line + len, sizeof(line) - len,
				 "fn=%s enq=%lld exec=%lld cancel=%lld\n",
				 wqs_kind_name[k],
				 atomic64_read(&wqs_count[k].enq),
				 atomic64_read(&wqs_count[k].exec),
				 atomic64_read(&wqs_count[k].cancel));
	wqt_result_set("seconds=%u\nthreads=%u\nops=%lld\nlives=%d\n%s", seconds,
		       threads, atomic64_read(&wqs_ops), atomic_read(&wqs_lives),
		       line);
}

/* The scenario: run, settle, count; 0 or -errno. */
int wqt_scn_stress(unsigned int seconds, unsigned int life_max)
{
	struct wqs_thread *threads;
	unsigned int nr = 0, cpu, i, k;
	int ret = 0;

	if (!seconds || seconds > 3600)
		return -EINVAL;
	for (k = 0; k < WQS_K_NR; k++) {
		atomic64_set(&wqs_count[k].enq, 0);
		atomic64_set(&wqs_count[k].exec, 0);
		atomic64_set(&wqs_count[k].cancel, 0);
	}
	atomic64_set(&wqs_ops, 0);
	atomic_set(&wqs_lives, 0);
	WRITE_ONCE(wqs_stop, false);

	threads = kcalloc(num_possible_cpus(), sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	wqs_wq = alloc_workqueue("wqs", 0, 0);
	if (!wqs_wq) {
		ret = -ENOMEM;
		goto free_threads;
	}
	wqs_unbound_wq = alloc_workqueue("wqs_unbound", WQ_UNBOUND, 0);
	if (!wqs_unbound_wq) {
		ret = -ENOMEM;
		goto destroy_wq;
	}

	for_each_online_cpu(cpu) {
		struct wqs_thread *th = &threads[nr];

		ret = wqs_thread_init(th, cpu);
		if (ret)
			goto stop_threads;
		th->life_max = life_max;
		th->deadline = jiffies + seconds * HZ;
		th->task = kthread_create(wqs_thread_fn, th, "wqs/%u", cpu);
		if (IS_ERR(th->task)) {
			ret = PTR_ERR(th->task);
			destroy_workqueue(th->drain_wq);
			goto stop_threads;
		}
		/* a preference, not kthread_bind(): CPUs go off and on */
		set_cpus_allowed_ptr(th->task, cpumask_of(cpu));
		wake_up_process(th->task);
		nr++;
	}

stop_threads:
	for (i = 0; i < nr; i++)
		wait_for_completion(&threads[i].done);
	WRITE_ONCE(wqs_stop, true);
	for (i = 0; i < nr; i++) {
		del_timer_sync(&threads[i].timer);
		hrtimer_cancel(&threads[i].hrtimer);
	}
	for (i = 0; i < nr; i++)
		wqs_thread_fini(&threads[i]);
	/* destroying drains: the chains run out before the counts are read */
	destroy_workqueue(wqs_unbound_wq);
	destroy_workqueue(wqs_wq);
	if (!ret)
		wqs_report(seconds, nr);
	kfree(threads);
	return ret;

destroy_wq:
	destroy_workqueue(wqs_wq);
free_threads:
	kfree(threads);
	return ret;
}
