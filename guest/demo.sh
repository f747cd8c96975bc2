#!/bin/bash
# The built-in workload of "make demo": a few known work functions from the
# test module, then the stat tracer's table.
. /usr/lib/wqtest/tests/lib.sh
wqt_load
if [ -f "$T/workqueue_stat_enabled" ]; then
	echo 1 > "$T/workqueue_stat_reset"
	echo 1 > "$T/workqueue_stat_enabled"
	wqt_run spin 200 500
	wqt_run sleep 20 5
	wqt_run ordered 20
	wqt_run delayed 10
	wqt_run unbound 100 200
	wqt_run chain 1000
	wqt_run cancel
	sleep 1
	echo 0 > "$T/workqueue_stat_enabled"
	echo "\$ cat /sys/kernel/tracing/trace_stat/workqueues"
	cat "$T/trace_stat/workqueues"
	if command -v wqstat > /dev/null; then
		echo
		echo "\$ wqstat show -n 8"
		wqstat show -n 8
	fi
else
	trace_events $(ls "$T/events/workqueue" | grep -v -e enable -e filter)
	wqt_run burst 3
	wqt_run delayed 5
	wqt_run cancel
	echo 0 > "$T/tracing_on"
	echo "\$ ls /sys/kernel/tracing/events/workqueue"
	ls "$T/events/workqueue"
	echo "\$ cat /sys/kernel/tracing/trace   (workqueue events of the demo workload)"
	grep -v '^#' "$T/trace" | grep wqtest | head -n 60
fi
