#!/bin/bash
# Deferrable timers are late by design and are not counted late: 20 items
# on deferrable timers one jiffy out, 20 on ordinary ones.  Every ordinary
# timer that fires is counted late (LATE_N 20, exactly); no deferrable one
# is.  Then two timers armed so far out that delay * TICK_NSEC does not fit
# in 64 bits, each moved to now: never fired, never late.  Before the fix
# the deferrable row had LATE_N 20, and MAX_SCHEDULE_TIMEOUT's product
# wrapped to a due time in the past (late by a tick).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run deferrable 20
cat "$WQT/result"
wqt_run hugedelay
cat "$WQT/result"
stat_off
grep -e wqt_defer_fn -e wqt_timer_fn -e wqt_huge_fn -e QUEUED "$STAT"
expect_eq "EXECUTED of wqt_timer_fn" "$(stat_get EXECUTED events wqt_timer_fn)" 20
expect_eq "LATE_N of wqt_timer_fn (ordinary timers)" "$(stat_get LATE_N events wqt_timer_fn)" 20
expect_eq "EXECUTED of wqt_defer_fn" "$(stat_get EXECUTED events wqt_defer_fn)" 20
expect_eq "LATE_N of wqt_defer_fn (deferrable timers)" "$(stat_get LATE_N events wqt_defer_fn)" 0
expect_eq "MAX_LATE_us of wqt_defer_fn" "$(stat_get MAX_LATE_us events wqt_defer_fn)" 0.000
expect_eq "module: hugedelay items run" "$(wqt_get executed)" 2
expect_eq "EXECUTED of wqt_huge_fn" "$(stat_get EXECUTED events wqt_huge_fn)" 2
expect_eq "LATE_N of wqt_huge_fn (never fired)" "$(stat_get LATE_N events wqt_huge_fn)" 0
expect_eq "MAX_LATE_us of wqt_huge_fn" "$(stat_get MAX_LATE_us events wqt_huge_fn)" 0.000
