#!/bin/bash
# worklet_enqueue_delayed: the delay in jiffies as requested, from
# queue_delayed_work() and mod_delayed_work(); a zero delay is a plain
# worklet_enqueue.  The timer's firing gives the worklet_enqueue.
# requires: events/workqueue/worklet_enqueue_delayed events/workqueue/worklet_enqueue
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events worklet_enqueue_delayed worklet_enqueue
wqt_run delayed 10
hz=$(wqt_get HZ)
expect_ge "jiffies the delayed item waited" "$(wqt_get waited_jiffies)" 10
wqt_run delayed 0
wqt_run mod_delayed 7
echo 0 > "$T/tracing_on"

l=$(trace_lines worklet_enqueue_delayed 'function=wqt_delayed_fn')
echo "$l"
expect_eq "delayed arms (10, then 10*HZ and 7 from mod_delayed)" "$(echo "$l" | field delay | tr '\n' ' ')" "10 $((10 * hz)) 7 "
expect_eq "delayed workqueue" "$(echo "$l" | field workqueue | sort -u)" wqtest
expect_eq "delayed requested cpu" "$(echo "$l" | field cpu | sort -u)" -1
# three executions, so three enqueues: two by the timer, one for delay 0
expect_eq "enqueues of the delayed function" "$(trace_lines worklet_enqueue 'function=wqt_delayed_fn' | grep -c .)" 3
