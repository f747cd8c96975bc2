#!/bin/bash
# Unbound queues on 6.12: pools by affinity scope, max_active per node,
# and the time an item waits inactive.  For each affinity scope (cpu, smt,
# cache, numa, system: workqueue.default_affinity_scope, which moves every
# unbound queue to new pools) the test module queues 8 items that sleep
# 10 ms on an unbound queue with max_active 2, on alternate CPUs, so that
# items wait inactive and are activated by other items' completion, maybe
# from another CPU's pool.  Checked: the rows of the five queues (one name
# of 31 characters, whole in the row; five queues made and destroyed) count
# every queueing, execution and sample;
# the latency is counted from the queueing, so it holds the inactive wait
# as the items measured it themselves, and it lies in the windows of the
# test module's probes around the tracer's (win.c), as does the run time;
# the stock workqueue_activate_work event saw each item activated once,
# and most of the wait came before the activation, which is why it counts.
# requires: trace_stat/workqueues trace_stat/workqueues_hist workqueue_stat_enabled workqueue_stat_reset events/workqueue/workqueue_activate_work
. /usr/lib/wqtest/tests/lib.sh
wqt_load
P=/sys/module/workqueue/parameters/default_affinity_scope
[ -w "$P" ] || skip "no $P: this kernel has no affinity scopes (6.5+)"
keep_buffer
old=$(cat "$P")
on_exit "echo $old > $P"
echo "default affinity scope: $old"

stat_reset_on
trace_events workqueue_queue_work workqueue_activate_work workqueue_execute_start
wait_ns=0 run_ns=0 n=0 wlat_lo=0 wlat_hi=0 wrun_lo=0 wrun_hi=0
for scope in cpu smt cache numa system; do
	echo "$scope" > "$P" || fail "set the affinity scope to $scope"
	expect_eq "affinity scope" "$(cat "$P")" "$scope"
	wqt_run maxact 8 10
	expect_eq "$scope: items the module ran" "$(wqt_get executed)" 8
	expect_le "$scope: most items at once, with max_active 2" "$(wqt_get most_at_once)" 2
	expect_eq "$scope: items the module's probes saw whole" "$(win_get win_items)" 8
	wait_ns=$((wait_ns + $(wqt_get wait_ns)))
	run_ns=$((run_ns + $(wqt_get run_ns)))
	wlat_lo=$((wlat_lo + $(win_get lat_sum_lo_ns))) wlat_hi=$((wlat_hi + $(win_get lat_sum_hi_ns)))
	wrun_lo=$((wrun_lo + $(win_get run_sum_lo_ns))) wrun_hi=$((wrun_hi + $(win_get run_sum_hi_ns)))
	n=$((n + 8))
done
echo 0 > "$T/tracing_on"
stat_off
grep -e wqt_maxact_fn -e FUNCTION "$STAT"
# the queue's name has 31 characters, the most 6.12 keeps (WQ_NAME_LEN)
q='wqtest_maxactive_node_scopes_31(destroyed)'
expect_eq "QUEUED of wqt_maxact_fn" "$(stat_get QUEUED "$q" wqt_maxact_fn)" "$n"
expect_eq "EXECUTED of wqt_maxact_fn" "$(stat_get EXECUTED "$q" wqt_maxact_fn)" "$n"
expect_eq "run-time samples" "$(hist_get RUN_BUCKETS "$q" wqt_maxact_fn)" "$n"
expect_eq "latency samples" "$(hist_get LAT_BUCKETS "$q" wqt_maxact_fn)" "$n"
# the stock events: each item activated once, whether at once or later
acts=$(trace_lines workqueue_activate_work wqt_maxact_fn | wc -l)
expect_eq "workqueue_activate_work events of wqt_maxact_fn" "$acts" "$n"
# and from them, per item (by work pointer, in order): the wait from the
# queueing to the call, and from the activation to the call, summed (us)
grep -e ' workqueue_queue_work: ' -e ' workqueue_activate_work: ' -e ' workqueue_execute_start: ' "$T/trace" |
	grep wqt_maxact_fn | awk '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1) * 1e6; ev = $(i + 1); break }
	  match($0, /work struct[= ][0-9a-f]+/); w = substr($0, RSTART + 12, RLENGTH - 12) }
	ev == "workqueue_queue_work:" { q[w] = ts }
	ev == "workqueue_activate_work:" { a[w] = ts }
	ev == "workqueue_execute_start:" { if (w in q && w in a) { lq += ts - q[w]; la += ts - a[w]; n++ }; delete q[w]; delete a[w] }
	END { printf "%d %.3f %.3f\n", n, lq, la }' > /tmp/scopes.ev
read -r ev_n ev_q ev_a < /tmp/scopes.ev
echo "from the stock events: $ev_n items, $ev_q us from queueing to call, $ev_a us from activation to call"
expect_eq "items paired in the stock events" "$ev_n" "$n"
# with 2 at a time, 8 items of 10 ms wait 0, 0, 10, 10, 20, 20, 30, 30 ms:
# the module's own sum is about 120 ms a scope
wait_us=$(awk -v ns="$wait_ns" 'BEGIN { printf "%.3f", ns / 1000 }')
expect_ge "the module's own wait, all scopes (us)" "$wait_us" $((5 * 100000))
lat=$(hist_get TOTAL_LAT_us "$q" wqt_maxact_fn)
# the tracer's wait starts after the module's clock and ends before it
expect_le "TOTAL_LAT_us, against the module's $wait_us us" "$lat" "$wait_us"
# and it is the sum of the samples in the windows of the module's probes:
# from the queueing (worklet_enqueue), not from the activation
expect_win "TOTAL_LAT_us" "$lat" "$wlat_lo" "$wlat_hi"
# the stock events: most of the wait came before the activation
expect_le "the wait from activation to call (us), at most half that from queueing" "$ev_a" "$(awk -v e="$ev_q" 'BEGIN { printf "%.3f", e / 2 }')"
run_us=$(awk -v ns="$run_ns" 'BEGIN { printf "%.3f", ns / 1000 }')
run=$(stat_get TOTAL_RUN_us "$q" wqt_maxact_fn)
expect_ge "TOTAL_RUN_us, against the module's $run_us us" "$run" "$run_us"
expect_win "TOTAL_RUN_us" "$run" "$wrun_lo" "$wrun_hi"
