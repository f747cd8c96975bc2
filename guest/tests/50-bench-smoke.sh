#!/bin/bash
# A smoke run of the benchmark module (make bench runs it at full size):
# each workload runs the items it says, the stat tracer counts exactly those
# executions, a serial chain's run time fits in the module's own wall time,
# and the rows of the module's queue stay readable, marked destroyed, after
# it is unloaded.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
[ -d $B ] || insmod $MODDIR/wqbench.ko || fail "insmod wqbench.ko"
on_exit 'rmmod wqbench 2> /dev/null'
for wl in "chain 300" "burst 32 4" "many 512 1"; do
	stat_reset_on
	echo "$wl" > $B/run || fail "wqbench '$wl' failed"
	stat_off
	cat $B/result
	items=$(sed -n 's/^items=\([0-9]*\).*/\1/p' $B/result)
	ns=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' $B/result)
	want=$(echo "$wl" | awk '{ print $1 == "chain" ? $2 : $2 * $3 }')
	expect_eq "items of '$wl'" "$items" "$want"
	# the tracer's count against the module's own (flush_work() adds
	# wq_barrier_func rows, as many as it had to wait)
	expect_eq "EXECUTED of the wqbench rows of its functions after '$wl'" \
		"$(stat_wq_sum EXECUTED wqbench '^wqb_')" "$want"
	if [ "${wl%% *}" = chain ]; then
		# one item at a time: their run time is within the wall time
		run_ns=$(stat_get TOTAL_RUN_us wqbench wqb_chain_fn | awk '{ printf "%d", $1 * 1000 }')
		expect_ge "TOTAL_RUN of the chain, ns" "$run_ns" 1
		expect_le "TOTAL_RUN of the chain, ns (the module's wall time: $ns)" "$run_ns" "$ns"
	fi
done
# the 512 functions are distinct: 512 rows of wqbench
expect_eq "rows of the wqbench queue with distinct functions" "$(grep -c ' wqbench wqb_fn_' "$STAT")" 512
rmmod wqbench || fail "rmmod wqbench"
# the rows of the unloaded module's destroyed queue stay readable, each
# with its one execution: none lost, none merged into another
expect_eq "rows of wqbench(destroyed)" "$(grep -c ' wqbench(destroyed) wqb_fn_' "$STAT")" 512
expect_eq "EXECUTED of the wqbench(destroyed) rows of wqb_fn_*" \
	"$(stat_wq_sum EXECUTED 'wqbench(destroyed)' '^wqb_fn_')" 512
