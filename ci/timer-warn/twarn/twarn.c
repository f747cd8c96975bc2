// SPDX-License-Identifier: GPL-2.0
/*
 * twarn: the experiment of ci/timer-warn.sh "window" (never part of make
 * check).  Sets up the state in which the unlocked stores of
 * timers_prepare_cpu() race with __mod_timer() on another task, then runs
 * __mod_timer() on that CPU's base while the CPU comes online, one tick
 * after timers_prepare_cpu() was entered:
 *
 *   echo arm > /sys/kernel/debug/twarn/ctl   (CPU 1 online)
 *      "late" is queued on CPU 1 and runs there: not pending, its base CPU 1;
 *      "pend" is queued on CPU 1 for 100 ms: CPU 1's next_expiry is that.
 *   echo 0 > /sys/devices/system/cpu/cpu1/online    (at once: pend pending)
 *   sleep 1                                 (jiffies pass pend's expiry)
 *   echo 1 > /sys/devices/system/cpu/cpu1/online
 *      a kprobe on timers_prepare_cpu(1) wakes the "hammer" thread
 *      (SCHED_FIFO), which waits for jiffies to move, then mod_timer(late).
 *
 * If the window between "base->clk = jiffies" and "base->next_expiry = ..."
 * is open when the hammer runs, forward_timer_base() finds next_expiry (pend's
 * expiry, from before the CPU died) below the new clk: the WARN.  Otherwise
 * it forwards the base quietly.  The result says which: "late" fired on CPU 1
 * before the offline, and the hammer ran while the CPU was still coming up.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the CPU that goes offline and online (default 1)");

static struct timer_list late, pend;
static struct task_struct *hammer;
static struct dentry *dir;
static DECLARE_WAIT_QUEUE_HEAD(hammer_wq);
static bool go;
static unsigned long j_prepare;		/* jiffies when timers_prepare_cpu(cpu) began */
static int late_fired_on = -1;		/* the CPU late's function last ran on */
static unsigned long hammer_delay;	/* jiffies from j_prepare to the mod_timer */
static bool hammer_online;		/* cpu_online(cpu) when the hammer ran */
static int hammer_runs;

/* late_fn: note where the timer ran (its base stays that CPU's) */
static void late_fn(struct timer_list *t)
{
	WRITE_ONCE(late_fired_on, raw_smp_processor_id());
}

/* pend_fn: nothing; pend only keeps the base's next_expiry near */
static void pend_fn(struct timer_list *t)
{
}

/* prepare_pre: timers_prepare_cpu(cpu) is about to run: wake the hammer */
static int prepare_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (regs_get_kernel_argument(regs, 0) != cpu)
		return 0;
	WRITE_ONCE(j_prepare, jiffies);
	WRITE_ONCE(go, true);
	wake_up(&hammer_wq);
	return 0;
}

static struct kprobe prepare_kp = {
	.symbol_name = "timers_prepare_cpu",
	.pre_handler = prepare_pre,
};

/* hammer_fn: one tick after the prepare began, re-arm late from this CPU */
static int hammer_fn(void *unused)
{
	while (!kthread_should_stop()) {
		unsigned long j0;

		if (wait_event_interruptible(hammer_wq, READ_ONCE(go) || kthread_should_stop()))
			continue;
		if (kthread_should_stop())
			break;
		WRITE_ONCE(go, false);
		j0 = READ_ONCE(j_prepare);
		while (jiffies == j0)
			usleep_range(50, 100);
		WRITE_ONCE(hammer_online, cpu_online(cpu));
		mod_timer(&late, jiffies + HZ);
		WRITE_ONCE(hammer_delay, jiffies - j0);
		WRITE_ONCE(hammer_runs, hammer_runs + 1);
	}
	return 0;
}

/* ctl_write: "arm" queues late and pend on the CPU */
static ssize_t ctl_write(struct file *f, const char __user *ubuf, size_t len, loff_t *pos)
{
	char buf[8] = "";

	if (copy_from_user(buf, ubuf, min(len, sizeof(buf) - 1)))
		return -EFAULT;
	if (strncmp(buf, "arm", 3))
		return -EINVAL;
	if (!cpu_online(cpu))
		return -ENODEV;
	del_timer_sync(&late);
	del_timer_sync(&pend);
	WRITE_ONCE(late_fired_on, -1);
	late.expires = jiffies + 1;
	add_timer_on(&late, cpu);
	pend.expires = jiffies + msecs_to_jiffies(100);
	add_timer_on(&pend, cpu);
	/* late must have run on the CPU (and pend still be pending) */
	msleep(20);
	if (READ_ONCE(late_fired_on) != cpu || !timer_pending(&pend))
		return -EAGAIN;
	return len;
}

/* result_read: what happened, for the script */
static ssize_t result_read(struct file *f, char __user *ubuf, size_t len, loff_t *pos)
{
	char buf[160];
	int n;

	n = scnprintf(buf, sizeof(buf),
		      "late_fired_on=%d hammer_runs=%d hammer_delay_jiffies=%lu hammer_saw_online=%d\n",
		      READ_ONCE(late_fired_on), READ_ONCE(hammer_runs),
		      READ_ONCE(hammer_delay), READ_ONCE(hammer_online));
	return simple_read_from_buffer(ubuf, len, pos, buf, n);
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.llseek = noop_llseek,
};

static const struct file_operations result_fops = {
	.owner = THIS_MODULE,
	.read = result_read,
	.llseek = default_llseek,
};

static int __init twarn_init(void)
{
	int ret;

	timer_setup(&late, late_fn, 0);
	timer_setup(&pend, pend_fn, 0);
	hammer = kthread_create(hammer_fn, NULL, "twarn-hammer");
	if (IS_ERR(hammer))
		return PTR_ERR(hammer);
	sched_set_fifo(hammer);
	wake_up_process(hammer);
	ret = register_kprobe(&prepare_kp);
	if (ret)
		goto stop_hammer;
	dir = debugfs_create_dir("twarn", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_file("result", 0400, dir, NULL, &result_fops);
	return 0;

stop_hammer:
	kthread_stop(hammer);
	return ret;
}

static void __exit twarn_exit(void)
{
	debugfs_remove_recursive(dir);
	unregister_kprobe(&prepare_kp);
	kthread_stop(hammer);
	del_timer_sync(&late);
	del_timer_sync(&pend);
}

module_init(twarn_init);
module_exit(twarn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ci/timer-warn.sh: the window of timers_prepare_cpu(), on purpose");
