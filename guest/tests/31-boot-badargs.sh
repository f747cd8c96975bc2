#!/bin/bash
# Booted with garbage, empty, zero and huge values for every parameter of
# the tracer (ci/check.sh): each one is named in dmesg, the defaults hold
# (off, 1,024 rows), and the boot went on: the tracer works.
# requires: trace_stat/workqueues workqueue_stat_enabled
. /usr/lib/wqtest/tests/lib.sh
grep -qw workqueue_stat_capacity=banana /proc/cmdline || skip "needs the bad parameters of ci/check.sh on the command line"
dmesg | grep 'workqueue_stat:' || true
n=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	workqueue_stat=*|workqueue_stat_capacity=*)
		dmesg | grep -qF "workqueue_stat: $arg " || fail "no message names '$arg'"
		n=$((n + 1)) ;;
	esac
done
expect_eq "bad parameters, each named in dmesg" "$n" 8
expect_eq "enabled (the default)" "$(cat "$T/workqueue_stat_enabled")" 0
grep -q '^# rows: 0 of 1024$' "$STAT" || fail "capacity is not the default: $(grep '^# rows' "$STAT")"
echo "capacity: the default, 1024"
wqt_load
stat_reset_on
wqt_run spin 7 0
stat_off
expect_eq "the tracer works: EXECUTED" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 7
