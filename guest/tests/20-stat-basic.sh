#!/bin/bash
# The stat file: header, exact counts for 100 items spinning 1 ms each, their
# times in the windows the test module measured around the tracer's probes,
# and the on/off semantics (off stops counting, on again does not clear).
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
want="QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us"
hdr=$(grep -v '^#' "$STAT" | head -n 1)
case $hdr in
"$want "*" WORKQUEUE FUNCTION") echo "header: $hdr" ;;
*) fail "header is '$hdr'" ;;
esac
expect_eq "enabled after boot" "$(cat "$T/workqueue_stat_enabled")" 0

stat_reset_on
expect_eq "enabled" "$(cat "$T/workqueue_stat_enabled")" 1
wqt_run spin 100 1000
stat_off
cat "$STAT" | head -n 12
expect_eq "EXECUTED of wqt_spin_fn" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 100
expect_eq "QUEUED of wqt_spin_fn" "$(stat_get QUEUED wqtest wqt_spin_fn)" 100
expect_eq "CANCELLED of wqt_spin_fn" "$(stat_get CANCELLED wqtest wqt_spin_fn)" 0
expect_ge "MIN_RUN_us of a 1 ms spin" "$(stat_get MIN_RUN_us wqtest wqt_spin_fn)" 1000
expect_ge "P99_RUN_us" "$(stat_get P99_RUN_us wqtest wqt_spin_fn)" "$(stat_get MIN_RUN_us wqtest wqt_spin_fn)"
expect_le "P99_RUN_us" "$(stat_get P99_RUN_us wqtest wqt_spin_fn)" "$(stat_get MAX_RUN_us wqtest wqt_spin_fn)"
total=$(stat_get TOTAL_RUN_us wqtest wqt_spin_fn)
expect_ge "TOTAL_RUN_us of 100 x 1 ms" "$total" 100000
avg=$(stat_get AVG_RUN_us wqtest wqt_spin_fn)
expect_ge "AVG_RUN_us" "$avg" 1000
# and every time column against the windows of the module's probes
# around the tracer's own (win.c): exact, whatever the host did
expect_row_wins wqtest wqt_spin_fn 100
# sorted by total run time, largest first, then by executions: every row
unsorted=$(awk '/^#/ { next } !hdr { hdr = 1; next }
	{ t = $4 + 0; e = $2 + 0
	  if (n++ && (t > pt || (t == pt && e > pe))) bad++
	  pt = t; pe = e }
	END { print bad + 0 }' "$STAT")
expect_ge "rows in the table" "$(stat_rows)" 2
expect_eq "rows out of order (TOTAL_RUN_us, then EXECUTED, descending)" "$unsorted" 0
first=$(grep -v '^#' "$STAT" | sed -n 2p | awk '{print $4}')
expect_ge "first row's TOTAL_RUN_us (sorted, largest first)" "$first" "$total"

# off: nothing is counted
wqt_run spin 10 100
expect_eq "EXECUTED after more work while off" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 100
# on again: the numbers are kept and counting goes on
echo 1 > "$T/workqueue_stat_enabled"
wqt_run spin 10 100
stat_off
expect_eq "EXECUTED after on again" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 110
# reset: zero rows
echo 1 > "$T/workqueue_stat_reset"
expect_eq "rows after reset" "$(stat_rows)" 0
expect_eq "summary rows after reset" "$(stat_summary rows)" 0
