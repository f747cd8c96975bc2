#!/bin/bash
# Rows of an unloaded module: after the stress runs, wqtest is unloaded
# while rows of its functions are in the table, some never read, and the
# file is read again.  No KASAN report (the console is scanned), and the
# rows are still there: names read before the unload are kept.
# Runs on the debug kernel (ci/check.sh).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run spin 5 10
cat "$STAT" > /dev/null		# the names of these rows are now kept
wqt_run cancel_one		# a row nobody has read yet
stat_off
rows=$(stat_rows)
rmmod wqtest || fail "rmmod wqtest"
grep -e wqt_ -e QUEUED "$STAT"
expect_eq "rows after the unload" "$(stat_rows)" "$rows"
expect_eq "EXECUTED of the unloaded wqt_spin_fn" "$(stat_get EXECUTED 'wqtest(destroyed)' wqt_spin_fn)" 5
