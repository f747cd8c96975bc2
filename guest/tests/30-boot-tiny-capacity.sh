#!/bin/bash
# Booted with workqueue_stat=1 workqueue_stat_capacity=16: the tracer is on
# from boot, the table fills, drops are counted, and nothing splats.
# Runs only in the boot that sets those parameters (ci/check.sh).
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
grep -qw workqueue_stat_capacity=16 /proc/cmdline || skip "needs workqueue_stat_capacity=16 on the command line"
head -n 8 "$STAT"
expect_eq "enabled from boot" "$(cat "$T/workqueue_stat_enabled")" 1
expect_ge "rows seen during boot" "$(stat_summary rows)" 1
wqt_load
wqt_run burst 20
wqt_run chain 20
wqt_run unbound 20 0
wqt_run ordered 1
wqt_run selffree 20
wqt_run delayed 1
wqt_run cancel
# A full table gives up its oldest kept rows (of destroyed queues: the
# boot's, the module's) to new ones, so a row may have just been freed.
# Items of new functions, until no kept row is left and none is free: each
# drop kicks the janitor, and each freed row goes to the next new function.
B=/sys/kernel/debug/wqbench
[ -d $B ] || insmod $MODDIR/wqbench.ko || fail "insmod wqbench.ko"
on_exit 'rmmod wqbench 2> /dev/null'
for i in $(seq 1 20); do
	kept=$(grep -c -e '(destroyed)' -e '(unloaded)' "$STAT")
	[ "$kept" = 0 ] && [ "$(stat_summary rows)" = 16 ] && break
	echo "many 64 1" > $B/run || fail "wqbench many 64 1"
	sleep 0.2
done
echo "kept rows left: $kept, after $i rounds of 64 functions"
expect_eq "kept rows left" "$kept" 0
expect_eq "rows" "$(stat_summary rows)" 16
expect_eq "rows in the table body" "$(stat_rows)" 16
grep -q '^# rows: 16 of 16$' "$STAT" || fail "summary does not say 16 of 16"
expect_ge "dropped events" "$(stat_summary dropped)" 1
# reset while on: still on, the drop counter and the table start over
# (other work of the system may add a row or two at once)
echo 1 > "$T/workqueue_stat_reset"
expect_eq "still enabled after reset" "$(cat "$T/workqueue_stat_enabled")" 1
expect_le "rows just after a reset while on" "$(stat_rows)" 8
expect_eq "dropped after reset" "$(stat_summary dropped)" 0
stat_off
echo 1 > "$T/workqueue_stat_reset"
expect_eq "rows after a reset while off" "$(stat_rows)" 0
