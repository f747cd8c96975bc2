#!/bin/bash
# An item queued before the tracer was turned on counts as executed, but
# not in latency, and shows in the "unmatched" summary line.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
echo 0 > "$T/workqueue_stat_enabled"
echo 1 > "$T/workqueue_stat_reset"
wqt_run hold
echo 1 > "$T/workqueue_stat_enabled"
wqt_run release
stat_off
grep -e wqt_ -e QUEUED -e unmatched "$STAT"
expect_eq "module: executed" "$(wqt_get executed)" 2
expect_eq "EXECUTED of the held item" "$(stat_get EXECUTED 'wqtest_held(destroyed)' wqt_held_fn)" 1
expect_eq "QUEUED (before the tracer was on)" "$(stat_get QUEUED 'wqtest_held(destroyed)' wqt_held_fn)" 0
expect_eq "AVG_LAT_us (no latency sample)" "$(stat_get AVG_LAT_us 'wqtest_held(destroyed)' wqt_held_fn)" 0.000
expect_ge "unmatched executions" "$(stat_summary unmatched)" 1
