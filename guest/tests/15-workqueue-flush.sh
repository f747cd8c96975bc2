#!/bin/bash
# workqueue_flush: flush_work() of a queued item, flush_workqueue() and
# drain_workqueue(), each with the module's workqueue name.  flush_work()
# traces only when it waits: exactly as many kind=work events as the
# module's flush_work() calls that returned true (on a busy host the item
# can be done before the flush; the module tries again until one waits).
# requires: events/workqueue/workqueue_flush
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events workqueue_flush
wqt_run flush
echo 0 > "$T/tracing_on"
l=$(trace_lines workqueue_flush 'workqueue=wqtest ')
echo "$l"
w=$(echo "$l" | grep 'kind=work')
calls=$(wqt_get flush_calls) waited=$(wqt_get flush_waited)
echo "flush_work() calls: $calls, of which waited: $waited"
[ "$waited" = 1 ] || fail "none of $calls flush_work() calls found the item queued or running"
expect_eq "flush_work events (calls that waited)" "$(echo "$w" | grep -c .)" "$waited"
expect_eq "flush_work function" "$(echo "$w" | field function)" wqt_flush_fn
expect_ge "flush_workqueue events (one, plus one per drain pass)" "$(echo "$l" | grep -c 'kind=queue')" 2
expect_eq "drain events" "$(echo "$l" | grep -c 'kind=drain')" 1
expect_eq "function of a whole-queue flush" "$(echo "$l" | grep 'kind=drain' | field function)" 0x0
