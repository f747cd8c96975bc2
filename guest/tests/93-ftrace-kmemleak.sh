#!/bin/bash
# kmemleak after what allocates in the series and in trace_stat: the stat
# tracer switched, reset and read by readers while work runs, the test
# module unloaded and loaded again (its rows retired), the function
# profiler switched with readers, a stat file opened and closed many
# times.  Then two scans: no unreferenced object whose allocation went
# through the series' code (the stat tracer, trace_stat's views).  Objects
# reported before the test (the boot's) are cleared first; any other
# unreferenced object is printed, as information.  On a kernel without the
# series (the reference), the stat tracer's part is not there to run.
# requires: function_profile_enabled trace_stat/function0
. /usr/lib/wqtest/tests/lib.sh
K=/sys/kernel/debug/kmemleak
[ -w "$K" ] || fail "no $K: the kernel has no kmemleak (ftrace.config)"
P=$T/function_profile_enabled
on_exit "echo 0 > $P; echo > $T/set_ftrace_filter"
echo clear > "$K" || fail "kmemleak: clear"

wqt_load
if [ -e "$STAT" ]; then
	for i in 1 2 3; do
		stat_reset_on
		wqt_run spin 200 10
		wqt_run churn 100 100 0
		for b in 1 4096 1048576; do
			wqread -b "$b" -t 1 -n "workqueues/$b" "$STAT" > /dev/null || fail "wqread"
		done
		cat "$T/trace_stat/workqueues_hist" > /dev/null
		stat_off
		echo 1 > "$T/workqueue_stat_reset"
	done
	stat_reset_on
	wqt_run spin 50 10
	rmmod wqtest || fail "rmmod wqtest"
	wqt_load
	wqt_run spin 50 10
	stat_off
	echo "the stat tracer: switched, reset, read and its module unloaded"
else
	echo "no trace_stat/workqueues: a kernel without the series"
fi
echo 'vfs_* ksys_* __x64_sys_*' > "$T/set_ftrace_filter" || fail "set_ftrace_filter"
for i in 1 2 3 4 5; do
	echo 1 > "$P"
	wqsys 500
	for c in 0 1; do
		cat "$T/trace_stat/function$c" > /dev/null
	done
	echo 0 > "$P"
done
for i in $(seq 50); do
	: < "$T/trace_stat/function0"
done
echo "the function profiler: switched and read"
# kmemleak reports an object once it is at least 5 s old and unreferenced
# in a scan
sleep 6
echo scan > "$K"
echo scan > "$K"
cat "$K" > /tmp/leaks
echo "unreferenced objects: $(grep -c '^unreferenced object' /tmp/leaks)"
head -n 40 /tmp/leaks
# an object per block: "unreferenced object ..." up to the next
mine=$(awk '/^unreferenced object/ { if (blk ~ /wqstat|stat_view|add_stat|tracing_stat_open|trace_stat/) n++; blk = "" }
	{ blk = blk "\n" $0 } END { if (blk ~ /wqstat|stat_view|add_stat|tracing_stat_open|trace_stat/) n++; print n + 0 }' /tmp/leaks)
expect_eq "unreferenced objects allocated through the series or trace_stat" "$mine" 0
