#!/bin/bash
# Booted with workqueue_stat=1 workqueue_stat_capacity=16: the tracer is on
# from boot, the table fills, drops are counted, and nothing splats.
# Runs only in the boot that sets those parameters (ci/check.sh).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
grep -qw workqueue_stat_capacity=16 /proc/cmdline || skip "needs workqueue_stat_capacity=16 on the command line"
head -n 8 "$STAT"
expect_eq "enabled from boot" "$(cat "$T/workqueue_stat_enabled")" 1
expect_ge "rows seen during boot" "$(stat_summary rows)" 1
wqt_load
wqt_run burst 20
wqt_run chain 20
wqt_run unbound 20 0
wqt_run ordered 1
wqt_run selffree 20
wqt_run delayed 1
wqt_run cancel
expect_eq "rows" "$(stat_summary rows)" 16
expect_eq "rows in the table body" "$(stat_rows)" 16
grep -q '^# rows: 16 of 16$' "$STAT" || fail "summary does not say 16 of 16"
expect_ge "dropped events" "$(stat_summary dropped)" 1
# reset while on: still on, the drop counter and the table start over
# (other work of the system may add a row or two at once)
echo 1 > "$T/workqueue_stat_reset"
expect_eq "still enabled after reset" "$(cat "$T/workqueue_stat_enabled")" 1
expect_le "rows just after a reset while on" "$(stat_rows)" 8
expect_eq "dropped after reset" "$(stat_summary dropped)" 0
stat_off
echo 1 > "$T/workqueue_stat_reset"
expect_eq "rows after a reset while off" "$(stat_rows)" 0
