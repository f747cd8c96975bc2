#!/bin/bash
# A smoke run of the benchmark module (make bench runs it at full size):
# each workload completes and reports a number, with the stat tracer on.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
[ -d $B ] || insmod $MODDIR/wqbench.ko || fail "insmod wqbench.ko"
stat_reset_on
for wl in "chain 300" "burst 32 4" "many 512 1"; do
	echo "$wl" > $B/run || fail "wqbench '$wl' failed"
	cat $B/result
	items=$(sed -n 's/^items=\([0-9]*\).*/\1/p' $B/result)
	ns=$(sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result)
	want=$(echo "$wl" | awk '{ print $1 == "chain" ? $2 : $2 * $3 }')
	expect_eq "items of '$wl'" "$items" "$want"
	expect_ge "ns per item of '$wl'" "$ns" 1
done
stat_off
# the 512 functions are distinct: 512 rows of wqbench
expect_eq "rows of the wqbench queue with distinct functions" "$(grep -c ' wqbench wqb_fn_' "$STAT")" 512
rmmod wqbench || fail "rmmod wqbench"
# the rows of an unloaded module stay readable
expect_ge "rows after the module was unloaded" "$(stat_rows)" 512
grep 'wqbench(destroyed)' "$STAT" | head -n 2
