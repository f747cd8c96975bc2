#!/bin/bash
# BH workqueues (6.9+): their items run in softirq, on the stack of the task
# the softirq interrupted.  The test module queues 40 BH items from inside an
# item of its per-CPU queue, with BH off, so that local_bh_enable() runs each
# at once on top of that worker, between the probes of its own item; and 40
# more from process context.  Each spins 300 us.  Checked against the
# module's own counts and clocks: both rows count every queueing, execution
# and run-time sample, each BH run holds the module's 300 us, the run times
# lie in the windows of the module's probes around the tracer's (win.c),
# and the host item's run is not lost to the BH items (the tracer pairs a
# BH item per CPU, not per task) and holds their time;
# worklet_execute says worker=-1 for a BH item.
# requires: trace_stat/workqueues trace_stat/workqueues_hist workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
keep_buffer
stat_reset_on
trace_events worklet_execute
wqt_run bh 40 300
echo 0 > "$T/tracing_on"
stat_off
cat "$WQT/result"
[ -z "$(wqt_get unsupported)" ] || skip "this kernel has no BH workqueues: $(wqt_get unsupported)"
grep -e wqt_bh -e FUNCTION "$STAT"
bhq='wqtest_bh(destroyed)'
# the module's own counts: the scenario did what it says
expect_eq "BH items the module ran" "$(wqt_get executed)" 80
expect_eq "BH items that ran outside softirq" "$(wqt_get not_softirq)" 0
# without this, the host's item and the BH items would not share a task:
# the test would prove nothing
expect_eq "BH items that ran in softirq on the host worker, as queued" "$(wqt_get on_host)" 40

# the BH items' row: every queueing, execution and run
expect_eq "QUEUED of wqt_bh_fn" "$(stat_get QUEUED "$bhq" wqt_bh_fn)" 80
expect_eq "EXECUTED of wqt_bh_fn" "$(stat_get EXECUTED "$bhq" wqt_bh_fn)" 80
expect_eq "run-time samples of wqt_bh_fn" "$(hist_get RUN_BUCKETS "$bhq" wqt_bh_fn)" 80
expect_eq "latency samples of wqt_bh_fn" "$(hist_get LAT_BUCKETS "$bhq" wqt_bh_fn)" 80
expect_ge "MIN_RUN_us of a 300 us spin" "$(stat_get MIN_RUN_us "$bhq" wqt_bh_fn)" 300
# the tracer's runs enclose the module's own clock, and lie in the windows
expect_eq "BH items and host item that the module's probes saw whole" \
	"$(win_get win_items) $(win_get host_win_items)" "80 1"
bh_us=$(awk -v ns="$(wqt_get bh_ns)" 'BEGIN { printf "%.3f", ns / 1000 }')
total=$(stat_get TOTAL_RUN_us "$bhq" wqt_bh_fn)
expect_ge "TOTAL_RUN_us of wqt_bh_fn, against the module's $bh_us us" "$total" "$bh_us"
expect_win "TOTAL_RUN_us of wqt_bh_fn" "$total" "$(win_get run_sum_lo_ns)" "$(win_get run_sum_hi_ns)"
expect_win "MAX_RUN_us of wqt_bh_fn" "$(stat_get MAX_RUN_us "$bhq" wqt_bh_fn)" \
	"$(win_get run_max_lo_ns)" "$(win_get run_max_hi_ns)"

# the host item: one execution, its run paired, and it holds its 40 BH
# items (they ran on its stack, inside its call)
expect_eq "EXECUTED of wqt_bh_host_fn" "$(stat_get EXECUTED wqtest wqt_bh_host_fn)" 1
expect_eq "run-time samples of wqt_bh_host_fn" "$(hist_get RUN_BUCKETS wqtest wqt_bh_host_fn)" 1
host_us=$(awk -v ns="$(wqt_get host_ns)" 'BEGIN { printf "%.3f", ns / 1000 }')
expect_ge "host's own clock, against its 40 BH items of 300 us" "$host_us" 12000
host=$(stat_get TOTAL_RUN_us wqtest wqt_bh_host_fn)
expect_ge "TOTAL_RUN_us of wqt_bh_host_fn, against its own $host_us us" "$host" "$host_us"
expect_win "TOTAL_RUN_us of wqt_bh_host_fn" "$host" "$(win_get host_run_sum_lo_ns)" "$(win_get host_run_sum_hi_ns)"
expect_eq "lost pairs" "$(stat_summary 'lost pairs')" 0

# worklet_execute names no worker for a BH item (it runs on whichever task
# was interrupted), and the host's worker for the host's item
expect_eq "worklet_execute of wqt_bh_fn with worker=-1" \
	"$(trace_lines worklet_execute 'function=wqt_bh_fn ' | grep -c ' worker=-1$')" 80
host_pid=$(trace_lines worklet_execute 'function=wqt_bh_host_fn ' | field worker)
echo "the host item's worker: $host_pid"
expect_ge "worklet_execute of wqt_bh_host_fn: its worker's pid" "$host_pid" 1
