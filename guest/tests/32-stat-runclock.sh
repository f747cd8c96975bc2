#!/bin/bash
# The run clock is the call's, whatever else is attached to the stock
# sites: with the stock workqueue events recording into the ring buffer at
# the same time (on the stat tracer's clock, trace_clock=mono), for each
# wqtest function EXECUTED equals its number of workqueue_execute_start ->
# workqueue_execute_end pairs (per worker), and AVG_RUN_us is never longer
# than their average: the stat tracer's clock starts after the events'
# probes and stops before them.  Before the fix it ran from worklet_execute
# to worklet_complete, around both events, and came out longer (16.7 us
# against 13.4 for wqt_spin_fn).  It is shorter by what recording an event
# costs, a few us under TCG, so the lower bounds are the items' own: each
# spins 10 us, or sleeps 1 ms.  Both averages lie in the windows of the
# test module's probes around the tracer's own (win.c): exact, whatever the
# host did.  (The stock events' latency, from workqueue_queue_work to
# workqueue_execute_start, is another window: both its ends come before the
# tracer's, so it is not compared.)
# requires: trace_stat/workqueues events/workqueue/workqueue_execute_start
# requires: events/workqueue/workqueue_execute_end events/workqueue/workqueue_queue_work
. /usr/lib/wqtest/tests/lib.sh
wqt_load
keep_buffer
echo 8192 > "$T/buffer_size_kb" || fail "grow the ring buffer"
# the clock of the stat tracer (ktime_get_mono_fast_ns), so that the two agree
echo mono > "$T/trace_clock" || fail "set trace_clock to mono"
trace_events workqueue_queue_work workqueue_execute_start workqueue_execute_end
stat_reset_on
wqt_run spin 300 10
cp "$WQT/result" /tmp/runclock.wqt_spin_fn
wqt_run sleep 20 1
cp "$WQT/result" /tmp/runclock.wqt_sleep_fn
stat_off
echo 0 > "$T/tracing_on"
grep -e wqt_ -e QUEUED "$STAT"
overrun=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$T"/per_cpu/cpu*/stats)
expect_eq "events lost by the ring buffer" "$overrun" 0

# FUNCTION N RUN_AVG_us LAT_AVG_us from the events, one line per function
awk '
	/ workqueue_queue_work: / {
		w = $0; sub(/.*work struct=/, "", w); sub(/ .*/, "", w)
		q[w] = $4 + 0
	}
	/ workqueue_execute_start: / {
		w = $0; sub(/.* work struct /, "", w); sub(/:.*/, "", w)
		f = $0; sub(/.*: function /, "", f); sub(/ .*/, "", f)
		t = $4 + 0
		start[$1] = t; sfn[$1] = f
		if (w in q) { lat[f] += t - q[w]; nlat[f]++; delete q[w] }
	}
	/ workqueue_execute_end: / {
		if (!($1 in start)) next
		f = sfn[$1]; run[f] += $4 - start[$1]; n[f]++
		delete start[$1]
	}
	END {
		for (f in n)
			if (f ~ /^wqt_/)
				printf "%s %d %.3f %.3f\n", f, n[f], run[f] / n[f] * 1e6,
					nlat[f] ? lat[f] / nlat[f] * 1e6 : -1
	}' "$T/trace" > /tmp/pairs
cat /tmp/pairs
for want in "wqt_spin_fn 300 10" "wqt_sleep_fn 20 1000"; do
	read -r fn cnt min_us <<< "$want"
	read -r _ n ev_run ev_lat < <(grep "^$fn " /tmp/pairs)
	expect_eq "start->end pairs of $fn" "$n" "$cnt"
	expect_eq "EXECUTED of $fn" "$(stat_get EXECUTED wqtest "$fn")" "$cnt"
	run=$(stat_get AVG_RUN_us wqtest "$fn")
	lat=$(stat_get AVG_LAT_us wqtest "$fn")
	echo "$fn: AVG_RUN_us $run vs events $ev_run; AVG_LAT_us $lat vs events $ev_lat"
	# the events print whole us: 1 us of rounding
	expect_le "$fn: AVG_RUN_us - events' average" "$(awk -v s="$run" -v e="$ev_run" 'BEGIN { printf "%.3f", s - e }')" 1
	expect_ge "$fn: AVG_RUN_us (the items' own time)" "$run" "$min_us"
	expect_ge "$fn: MIN_RUN_us (the items' own time)" "$(stat_get MIN_RUN_us wqtest "$fn")" "$min_us"
	r=/tmp/runclock.$fn
	expect_eq "$fn: items the module's probes saw whole" "$(win_get win_items "$r")" "$cnt"
	# an average is the sum over the count, cut to the ns
	for w in run lat; do
		avg=$(stat_get AVG_${w^^}_us wqtest "$fn")
		expect_avg_win "$fn: AVG_${w^^}_us x $cnt" "$avg" "$cnt" \
			"$(win_get ${w}_sum_lo_ns "$r")" "$(win_get ${w}_sum_hi_ns "$r")"
	done
done
