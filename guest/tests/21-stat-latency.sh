#!/bin/bash
# Queue latency: on an ordered queue, B waits behind A, which sleeps 20 ms;
# A's run time covers its sleep (wall time).  The oracle is the test
# module's windows (win.c): A's run and B's wait as the tracer's own probes
# saw them lie between the module's probes around them, whatever the host
# did to the guest meanwhile.  A's sleep is msleep(20): at least 20 ms of
# jiffies, which is printed, not assumed, as time on the tracer's clock.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run ordered 20
stat_off
grep -e wqt_ -e QUEUED "$STAT"
cat "$WQT/result"
q='wqtest_ordered(destroyed)'
expect_eq "EXECUTED of A" "$(stat_get EXECUTED "$q" wqt_sleep_fn)" 1
expect_eq "EXECUTED of B" "$(stat_get EXECUTED "$q" wqt_behind_fn)" 1
expect_eq "items of A and B that the module's probes saw queued, called and returned" \
	"$(win_get a_win_items) $(win_get b_win_items)" "1 1"
echo "A slept $(win_get a_run_min_lo_ns) ns by its own clock for msleep(20)"
for col in MIN_RUN_us MAX_RUN_us P99_RUN_us; do
	expect_win "$col of A" "$(stat_get $col "$q" wqt_sleep_fn)" \
		"$(win_get a_run_min_lo_ns)" "$(win_get a_run_min_hi_ns)"
done
for col in MAX_LAT_us P99_LAT_us AVG_LAT_us; do
	expect_win "$col of B" "$(stat_get $col "$q" wqt_behind_fn)" \
		"$(win_get b_lat_min_lo_ns)" "$(win_get b_lat_min_hi_ns)"
done
