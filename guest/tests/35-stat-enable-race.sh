#!/bin/bash
# Enable race: for 10 s, wqtest queues an item and flushes it at once, so
# that a flush barrier (wq_barrier_func, on the stack, never queued through
# worklet_enqueue) runs at a reused stack address behind it, while this
# shell switches the stat tracer on and off as fast as it can.  No barrier
# ever gets a latency sample, and no row's MAX_LAT_us exceeds the wall time
# of the run: a sample taken from a record left behind by a switch would
# be stale by up to the whole run.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
secs=10
wqt_load
stat_reset_on
start=$(date +%s%N)
wqt_run barriers $secs &
bg=$!
toggles=0
while kill -0 $bg 2> /dev/null; do
	echo 0 > "$T/workqueue_stat_enabled" || fail "disable"
	echo 1 > "$T/workqueue_stat_enabled" || fail "enable"
	toggles=$((toggles + 1))
done
wait $bg || fail "the barriers scenario failed"
stat_off
wall_us=$(( ($(date +%s%N) - start) / 1000 ))
cat "$WQT/result"
grep -e wq_barrier_func -e wqt_barrier_target_fn -e QUEUED "$STAT"
echo "tracer switched on and off $toggles times in $wall_us us"
expect_ge "switches" "$toggles" 10
expect_ge "flushes that waited (barriers run)" "$(wqt_get waited)" 100
expect_ge "EXECUTED of wq_barrier_func" "$(stat_get EXECUTED wqtest wq_barrier_func)" 1
expect_eq "QUEUED of wq_barrier_func" "$(stat_get QUEUED wqtest wq_barrier_func)" 0
expect_eq "MAX_LAT_us of wq_barrier_func" "$(stat_get MAX_LAT_us wqtest wq_barrier_func)" 0.000
expect_eq "AVG_LAT_us of wq_barrier_func" "$(stat_get AVG_LAT_us wqtest wq_barrier_func)" 0.000
max=$(stat_awk '$(idx["MAX_LAT_us"]) + 0 > m { m = $(idx["MAX_LAT_us"]) + 0 } END { printf "%.3f\n", m }')
expect_le "largest MAX_LAT_us of any row" "$max" "$wall_us"
