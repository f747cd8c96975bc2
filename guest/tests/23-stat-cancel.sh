#!/bin/bash
# A cancelled pending item: CANCELLED 1, and it never runs.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run cancel_one
stat_off
expect_eq "module: cancel_work() took it off" "$(wqt_get cancelled)" 1
grep -e wqt_ -e QUEUED "$STAT"
expect_eq "QUEUED" "$(stat_get QUEUED 'wqtest_ordered(destroyed)' wqt_cancel_fn)" 1
expect_eq "CANCELLED" "$(stat_get CANCELLED 'wqtest_ordered(destroyed)' wqt_cancel_fn)" 1
expect_eq "EXECUTED" "$(stat_get EXECUTED 'wqtest_ordered(destroyed)' wqt_cancel_fn)" 0
