#!/bin/bash
# The guest itself: 2 vCPUs, tracefs mounted, the test module loads and
# runs a known number of items.
. /usr/lib/wqtest/tests/lib.sh

expect_ge "online cpus" "$(nproc)" 2
[ -f "$T/trace" ] || fail "tracefs is not mounted at $T"
for e in workqueue_queue_work workqueue_activate_work workqueue_execute_start workqueue_execute_end; do
	[ -d "$T/events/workqueue/$e" ] || fail "stock event workqueue:$e is missing"
done
wqt_load
wqt_run burst 50
expect_eq "executed by the module" "$(wqt_get executed)" 50
wqt_run on_cpu 1
expect_eq "queue_work_on(1) ran on" "$(wqt_get ran_on)" 1
