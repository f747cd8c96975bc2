#!/bin/bash
# Timer lateness survives the merging of retired rows: five workqueues of
# one name (wqtest_late), one after the other, each run one delayed item of
# 2 jiffies and are destroyed; the janitor merges their five retired rows
# into one, which must hold the five lateness samples: LATE_N 5, and
# MAX_LATE_us and the lateness sum (AVG_LATE_us x 5) in the windows that the
# test module's probes measured around the tracer's own (win.c), exact
# whatever the host did.
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
q='wqtest_late(destroyed)'
stat_reset_on
wqt_run latechurn 5 2
stat_off
cat "$WQT/result"
expect_eq "queues the module made" "$(wqt_get queues)" 5
expect_eq "delayed items the module's probes saw armed and queued" "$(wqt_get late_seen)" 5
# the janitor merges the retired rows, soon after the destructions
for i in $(seq 100); do
	[ "$(stat_awk -v wq="$q" '$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) == "wqt_late_fn"' | wc -l)" = 1 ] && break
	sleep 0.1
done
grep -e QUEUED -e '# merged' -e wqt_late_fn "$STAT"
expect_eq "rows of wqt_late_fn" "$(grep -c ' wqt_late_fn ' "$STAT")" 1
expect_eq "EXECUTED of the merged row" "$(stat_get EXECUTED "$q" wqt_late_fn)" 5
expect_eq "WQ_ID of the merged row" "$(stat_get WQ_ID "$q" wqt_late_fn)" -
expect_eq "LATE_N of the merged row" "$(stat_get LATE_N "$q" wqt_late_fn)" 5
expect_win "MAX_LATE_us of the merged row" "$(stat_get MAX_LATE_us "$q" wqt_late_fn)" \
	"$(wqt_get late_max_lo_ns)" "$(wqt_get late_max_hi_ns)"
# the average is the sum over 5, cut to the ns
expect_avg_win "AVG_LATE_us x 5 of the merged row" "$(stat_get AVG_LATE_us "$q" wqt_late_fn)" 5 \
	"$(wqt_get late_sum_lo_ns)" "$(wqt_get late_sum_hi_ns)"
