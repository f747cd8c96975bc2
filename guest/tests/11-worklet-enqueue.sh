#!/bin/bash
# worklet_enqueue: function, workqueue, requested and actual CPU.
# requires: events/workqueue/worklet_enqueue
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events worklet_enqueue
wqt_run on_cpu 1
wqt_run burst 5
wqt_run unbound 3 0
echo 0 > "$T/tracing_on"

l=$(trace_lines worklet_enqueue 'function=wqt_oncpu_fn')
expect_eq "queue_work_on(1) events" "$(echo "$l" | grep -c .)" 1
expect_eq "queue_work_on(1) workqueue" "$(echo "$l" | field workqueue)" wqtest
expect_eq "queue_work_on(1) req_cpu" "$(echo "$l" | field req_cpu)" 1
expect_eq "queue_work_on(1) cpu" "$(echo "$l" | field cpu)" 1

l=$(trace_lines worklet_enqueue 'function=wqt_spin_fn')
expect_eq "queue_work() events" "$(echo "$l" | grep -c .)" 5
expect_eq "queue_work() req_cpu (any CPU reads -1)" "$(echo "$l" | field req_cpu | sort -u)" -1
cpus=$(echo "$l" | field cpu | sort -u | tr '\n' ' ')
case $cpus in
"0 "|"1 "|"0 1 ") echo "queue_work() went to per-CPU pools: $cpus" ;;
*) fail "queue_work() on a per-CPU queue reported cpu=$cpus" ;;
esac

l=$(trace_lines worklet_enqueue 'function=wqt_unbound_fn')
expect_eq "unbound events" "$(echo "$l" | grep -c .)" 3
expect_eq "unbound workqueue" "$(echo "$l" | field workqueue | sort -u)" wqtest_unbound
expect_eq "unbound pool cpu" "$(echo "$l" | field cpu | sort -u)" -1
