#!/bin/bash
# An item queued before the tracer was turned on counts as executed, but
# not in latency, and shows in the "unmatched" summary line, which counts
# exactly the executions that gave no latency sample since the reset: over
# every row of one read of workqueues_hist, EXECUTED less the latency
# samples in LAT_BUCKETS (with no pair lost; flush barriers, never queued
# through queue_work(), are among them).
# requires: trace_stat/workqueues trace_stat/workqueues_hist
. /usr/lib/wqtest/tests/lib.sh
wqt_load
echo 0 > "$T/workqueue_stat_enabled"
echo 1 > "$T/workqueue_stat_reset"
wqt_run hold
echo 1 > "$T/workqueue_stat_enabled"
wqt_run release
stat_off
grep -e wqt_ -e QUEUED -e unmatched "$STAT"
expect_eq "module: executed" "$(wqt_get executed)" 2
expect_eq "EXECUTED of the held item" "$(stat_get EXECUTED 'wqtest_held(destroyed)' wqt_held_fn)" 1
expect_eq "QUEUED (before the tracer was on)" "$(stat_get QUEUED 'wqtest_held(destroyed)' wqt_held_fn)" 0
expect_eq "AVG_LAT_us (no latency sample)" "$(stat_get AVG_LAT_us 'wqtest_held(destroyed)' wqt_held_fn)" 0.000
expect_ge "unmatched executions" "$(stat_summary unmatched)" 1
cat "$T/trace_stat/workqueues_hist" > /tmp/unmatched.hist
read -r ex samples um lost < <(awk '
	/^# unmatched: / { um = $3 } /^# lost pairs: / { lost = $4 }
	/^#/ { next }
	!hdr { for (i = 1; i <= NF; i++) ix[$i] = i; hdr = 1; next }
	{
		ex += $(ix["EXECUTED"]); v = $(ix["LAT_BUCKETS"])
		if (v != "-") {
			k = split(v, b, ",")
			for (i = 1; i <= k; i++) { split(b[i], kv, ":"); n += kv[2] }
		}
	}
	END { printf "%d %d %s %s\n", ex, n, um, lost }' /tmp/unmatched.hist)
echo "every row: $ex executions, $samples latency samples; unmatched $um, lost pairs $lost"
expect_eq "lost pairs" "$lost" 0
expect_eq "unmatched executions, against EXECUTED - latency samples of every row" "$um" $((ex - samples))
