#!/bin/bash
# Unbound work on 2 vCPUs (workers migrate) is counted exactly, and the
# rows of its workqueue stay readable after destroy_workqueue(); its times
# lie in the windows the test module measured around the tracer's probes.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
expect_ge "online cpus" "$(nproc)" 2
stat_reset_on
wqt_run unbound 400 300
stat_off
grep -e wqt_ -e QUEUED "$STAT"
expect_eq "EXECUTED on the destroyed unbound queue" "$(stat_get EXECUTED 'wqtest_unbound(destroyed)' wqt_unbound_fn)" 400
expect_eq "QUEUED" "$(stat_get QUEUED 'wqtest_unbound(destroyed)' wqt_unbound_fn)" 400
expect_ge "MIN_RUN_us of a 300 us spin" "$(stat_get MIN_RUN_us 'wqtest_unbound(destroyed)' wqt_unbound_fn)" 300
expect_row_wins 'wqtest_unbound(destroyed)' wqt_unbound_fn 400
