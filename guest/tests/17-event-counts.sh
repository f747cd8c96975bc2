#!/bin/bash
# Over a busy run, worklet_enqueue fires exactly as often as
# workqueue_queue_work, and worklet_execute as workqueue_execute_start,
# counting every workqueue in the system, not only the module's.
# requires: events/workqueue/worklet_enqueue events/workqueue/worklet_execute
. /usr/lib/wqtest/tests/lib.sh
wqt_load
keep_buffer
echo 8192 > "$T/buffer_size_kb"
trace_events worklet_enqueue workqueue_queue_work worklet_execute workqueue_execute_start
wqt_run burst 2000
wqt_run chain 1000
wqt_run unbound 300 0
wqt_run delayed 2
echo 0 > "$T/tracing_on"
for c in /sys/kernel/tracing/per_cpu/cpu*/stats; do
	o=$(sed -n 's/^overrun: //p' "$c")
	[ "$o" = 0 ] || fail "the ring buffer overran ($c: $o), counts would be wrong"
done
qw=$(grep -c ' workqueue_queue_work: ' "$T/trace")
we=$(grep -c ' worklet_enqueue: ' "$T/trace")
es=$(grep -c ' workqueue_execute_start: ' "$T/trace")
wx=$(grep -c ' worklet_execute: ' "$T/trace")
expect_ge "workqueue_queue_work events" "$qw" 3301
expect_eq "worklet_enqueue events" "$we" "$qw"
expect_ge "workqueue_execute_start events" "$es" 3301
expect_eq "worklet_execute events" "$wx" "$es"
# and exactly what the module queued: 2000 + 1000 + 300 + 1 items of its
# functions (the rest is the system's own work and flush barriers)
expect_eq "workqueue_queue_work events of the module's functions" \
	"$(grep ' workqueue_queue_work: ' "$T/trace" | grep -c 'function=wqt_')" 3301
expect_eq "workqueue_execute_start events of the module's functions" \
	"$(grep ' workqueue_execute_start: ' "$T/trace" | grep -c 'function wqt_')" 3301
