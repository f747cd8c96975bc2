#!/bin/bash
# workqueue_creation / workqueue_destruction: name, flags, max_active.
# requires: events/workqueue/workqueue_creation events/workqueue/workqueue_destruction
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events workqueue_creation workqueue_destruction
wqt_run create 4
echo 0 > "$T/tracing_on"
c=$(trace_lines workqueue_creation 'workqueue=wqtest_tmp ')
echo "$c"
expect_eq "creations" "$(echo "$c" | grep -c .)" 1
expect_eq "flags" "$(echo "$c" | field flags)" "UNBOUND|HIGHPRI"
expect_eq "max_active" "$(echo "$c" | field max_active)" 4
d=$(trace_lines workqueue_destruction 'workqueue=wqtest_tmp$')
expect_eq "destructions" "$(echo "$d" | grep -c .)" 1
