#!/bin/bash
# Enable race: for 10 s at least, wqtest queues an item and flushes it at once, so
# that a flush barrier (wq_barrier_func, on the stack, never queued through
# worklet_enqueue) runs at a reused stack address behind it, while this
# shell switches the stat tracer on and off as fast as it can.  No barrier
# ever gets a latency sample, and no row's MAX_LAT_us exceeds the wall time
# of the run: a sample taken from a record left behind by a switch would
# be stale by up to the whole run.  The run goes on, 10 s at a time, until
# it has 10 switches and 100 flushes that waited (a busy host can leave
# fewer in 10 s: each switch rewrites code and waits for both vCPUs), 10
# times at most.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
secs=10
wqt_load
start=$(date +%s%N)
stat_reset_on
toggles=0 waited=0 runs=0
while [ $runs -lt 10 ] && { [ $toggles -lt 10 ] || [ $waited -lt 100 ]; }; do
	wqt_run barriers $secs &
	bg=$!
	while kill -0 $bg 2> /dev/null; do
		echo 0 > "$T/workqueue_stat_enabled" || fail "disable"
		echo 1 > "$T/workqueue_stat_enabled" || fail "enable"
		toggles=$((toggles + 1))
	done
	wait $bg || fail "the barriers scenario failed"
	cat "$WQT/result"
	waited=$((waited + $(wqt_get waited)))
	runs=$((runs + 1))
done
stat_off
wall_us=$(( ($(date +%s%N) - start) / 1000 ))
grep -e wq_barrier_func -e wqt_barrier_target_fn -e QUEUED "$STAT"
echo "tracer switched on and off $toggles times, $waited flushes waited, in $runs runs of $secs s, $wall_us us"
[ $toggles -ge 10 ] && [ $waited -ge 100 ] ||
	fail "after $runs runs of $secs s: $toggles switches, $waited flushes that waited (want 10 and 100)"
expect_ge "EXECUTED of wq_barrier_func" "$(stat_get EXECUTED wqtest wq_barrier_func)" 1
expect_eq "QUEUED of wq_barrier_func" "$(stat_get QUEUED wqtest wq_barrier_func)" 0
expect_eq "MAX_LAT_us of wq_barrier_func" "$(stat_get MAX_LAT_us wqtest wq_barrier_func)" 0.000
expect_eq "AVG_LAT_us of wq_barrier_func" "$(stat_get AVG_LAT_us wqtest wq_barrier_func)" 0.000
max=$(stat_awk '$(idx["MAX_LAT_us"]) + 0 > m { m = $(idx["MAX_LAT_us"]) + 0 } END { printf "%.3f\n", m }')
expect_le "largest MAX_LAT_us of any row" "$max" "$wall_us"
