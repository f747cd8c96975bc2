#!/bin/bash
# worklet_cancel: pending=1 for a queued item and for an armed timer,
# pending=0 for an idle item; the workqueue it was taken off.  The same for
# the cancels that do not wait (cancel_work, cancel_delayed_work).
# requires: events/workqueue/worklet_cancel
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events worklet_cancel worklet_execute
wqt_run cancel
echo 0 > "$T/tracing_on"
expect_eq "module: cancel of a queued item" "$(wqt_get cancel_queued)" 1
expect_eq "module: cancel of an armed timer" "$(wqt_get cancel_armed)" 1
expect_eq "module: cancel of an idle item" "$(wqt_get cancel_idle)" 0

l=$(trace_lines worklet_cancel 'function=wqt_cancel_fn')
echo "$l"
expect_eq "cancel events" "$(echo "$l" | grep -c .)" 3
expect_eq "pending flags in order (queued, armed, idle)" "$(echo "$l" | field pending | tr '\n' ' ')" "1 1 0 "
expect_eq "workqueues in order" "$(echo "$l" | field workqueue | tr '\n' ' ')" "wqtest_ordered wqtest - "
expect_eq "executions of the cancelled function" "$(trace_lines worklet_execute 'function=wqt_cancel_fn' | grep -c .)" 0

# the cancels that do not wait: a queued item, then it again and a delayed
# item never queued, both idle
trace_events worklet_cancel
wqt_run cancel_one
echo 0 > "$T/tracing_on"
expect_eq "module: cancel_work() of a queued item" "$(wqt_get cancelled)" 1
expect_eq "module: cancel_work() of it again" "$(wqt_get again)" 0
expect_eq "module: cancel_delayed_work() of an idle item" "$(wqt_get idle_delayed)" 0
l=$(trace_lines worklet_cancel 'function=wqt_cancel_fn')
echo "$l"
expect_eq "pending flags in order (queued, again, idle delayed)" "$(echo "$l" | field pending | tr '\n' ' ')" "1 0 0 "
expect_eq "workqueues in order" "$(echo "$l" | field workqueue | tr '\n' ' ')" "wqtest_ordered - - "
