#!/bin/bash
# A delayed work with a delay of 10 jiffies: the delay is not queue latency;
# it is counted in timer lateness (LATE_N, AVG_LATE_us, MAX_LATE_us).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run delayed 10
stat_off
hz=$(wqt_get HZ)
delay_us=$((10 * 1000000 / hz))
grep -e wqt_delayed -e QUEUED "$STAT"
expect_eq "EXECUTED" "$(stat_get EXECUTED wqtest wqt_delayed_fn)" 1
expect_eq "QUEUED (the timer's enqueue)" "$(stat_get QUEUED wqtest wqt_delayed_fn)" 1
expect_le "MAX_LAT_us, below the delay of ${delay_us} us" "$(stat_get MAX_LAT_us wqtest wqt_delayed_fn)" $((delay_us - 1))
expect_eq "LATE_N" "$(stat_get LATE_N wqtest wqt_delayed_fn)" 1
expect_le "MAX_LATE_us (within 2 ticks)" "$(stat_get MAX_LATE_us wqtest wqt_delayed_fn)" $((2 * 1000000 / hz))
