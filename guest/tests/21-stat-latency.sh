#!/bin/bash
# Queue latency: on an ordered queue, B waits behind A, which sleeps 20 ms;
# A's run time covers its sleep (wall time).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run ordered 20
stat_off
grep -e wqt_ -e QUEUED "$STAT"
expect_eq "EXECUTED of B" "$(stat_get EXECUTED 'wqtest_ordered(destroyed)' wqt_behind_fn)" 1
expect_ge "MAX_LAT_us of B" "$(stat_get MAX_LAT_us 'wqtest_ordered(destroyed)' wqt_behind_fn)" 20000
expect_ge "P99_LAT_us of B" "$(stat_get P99_LAT_us 'wqtest_ordered(destroyed)' wqt_behind_fn)" 20000
expect_ge "MIN_RUN_us of A (sleeps 20 ms)" "$(stat_get MIN_RUN_us 'wqtest_ordered(destroyed)' wqt_sleep_fn)" 20000
