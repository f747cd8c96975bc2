#!/bin/bash
# P99, MIN, MAX and the sums of run time and latency against the samples the
# tracer took.  The test module runs items of known, spread run times on an
# ordered queue (so that each also waits behind all those queued before
# it), and its probes (win.c) bracket each of the tracer's samples: the
# k-th smallest sample lies between the k-th smallest lower bound and the
# k-th smallest upper bound.  The printed P99 is the middle of the bucket of
# the sample of rank ceil(0.99 * N), kept within MIN and MAX: it must be
# the estimate of a value in that window, exactly, which an estimate a
# bucket off or of another rank is not.  Three sets: "spread" (100 us .. 20
# ms, shuffled) and "bimodal" (most at 300 us, 2% at 8 ms: a log2
# histogram put its P99 at 6.7 ms), and "tail" (1 ms, but 1% at 20 ms: the
# P99 is far below the largest sample, so that an estimate one bucket off
# shows; in the others the clamp to MAX hid it).  Nothing is compared with
# a tolerance: on a busy host a window grows by exactly what the host took
# from the guest between the module's probe and the tracer's.
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
row='wqtest_pctl(destroyed)'
for mode in spread bimodal tail; do
	echo "# the $mode set"
	stat_reset_on
	wqt_run pctl "$mode" 200
	stat_off
	cat "$WQT/result"
	grep -e QUEUED -e wqt_pctl_fn "$STAT"
	expect_eq "$mode: EXECUTED" "$(stat_get EXECUTED "$row" wqt_pctl_fn)" 200
	expect_row_wins "$row" wqt_pctl_fn 200
	# the module's own stamps, the second opinion: each item spun at least
	# its time, so the P99 of the run is at least the nominal one's bucket
	case $mode in
	spread) nominal=19800 ;; bimodal) nominal=8000 ;; tail) nominal=1000 ;;
	esac
	expect_ge "$mode: run_p99_ns by the items' own stamps, against the nominal ${nominal} us" \
		"$(wqt_get run_p99_ns)" $((nominal * 1000))
done
