#!/bin/bash
# worklet_cancel: pending=1 for a queued item and for an armed timer,
# pending=0 for an idle item; the workqueue it was taken off.
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
