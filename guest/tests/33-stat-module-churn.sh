#!/bin/bash
# Module churn: wqtest queues 7 items of wqt_sys_fn on system_wq ("events"),
# is unloaded before anyone reads the table, loaded again (most often at the
# same address) and queues 5 more.  Two rows: the first module's, retired
# with its name and marked "(unloaded)", with 7 executions; the second
# module's, live, with 5.  Before the fix the second module's items were
# counted in the first module's row (one row, 12), or the first row showed
# a bare address.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run system 7
expect_eq "module: executed (first load)" "$(wqt_get executed)" 7
rmmod wqtest || fail "rmmod wqtest"
wqt_load
wqt_run system 5
expect_eq "module: executed (second load)" "$(wqt_get executed)" 5
stat_off
grep -e wqt_sys_fn -e QUEUED "$STAT"
expect_eq "EXECUTED of the unloaded module's row" \
	"$(stat_get_full EXECUTED events 'wqt_sys_fn [wqtest](unloaded)')" 7
expect_eq "QUEUED of the unloaded module's row" \
	"$(stat_get_full QUEUED events 'wqt_sys_fn [wqtest](unloaded)')" 7
expect_eq "EXECUTED of the loaded module's row" \
	"$(stat_get_full EXECUTED events 'wqt_sys_fn [wqtest]')" 5
expect_eq "QUEUED of the loaded module's row" \
	"$(stat_get_full QUEUED events 'wqt_sys_fn [wqtest]')" 5
expect_eq "rows of wqt_sys_fn" "$(grep -c ' wqt_sys_fn ' "$STAT")" 2
expect_eq "rows named by a bare address" "$(grep -c ' 0x[0-9a-f]*$' "$STAT")" 0
# the same while the tracer is off: an unload still retires the rows
stat_reset_on
wqt_run system 3
stat_off
rmmod wqtest || fail "rmmod wqtest"
wqt_load
echo 1 > "$T/workqueue_stat_enabled" || fail "enable"
wqt_run system 4
stat_off
expect_eq "EXECUTED of the row unloaded while off" \
	"$(stat_get_full EXECUTED events 'wqt_sys_fn [wqtest](unloaded)')" 3
expect_eq "EXECUTED of the row of the third load" \
	"$(stat_get_full EXECUTED events 'wqt_sys_fn [wqtest]')" 4
