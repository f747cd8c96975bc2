#!/bin/bash
# Switching on and off under load: for 30 s, and for 8 rounds at least (on
# a busy host one round of four switches took 5 s: each rewrite waits for
# every vCPU to take an IPI), the stat tracer and every stock
# workqueue event are turned on and off while both CPUs run work items, so
# the call sites of their tracepoints are rewritten thousands of times
# (text_poke_bp()) while they run.  Then each must count exactly once:
# 100 items, 100 rows' worth, 100 events of each kind.  (Under QEMU's TCG
# before 8.1 this is what makes a vCPU run an INT3 that memory no longer
# holds; ci/tcg has the workaround the guest kernels are built with, and
# without it 6.12 oopsed within 20 s in each of three boots.)
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
[ -d /sys/kernel/debug/wqbench ] || insmod "$MODDIR/wqbench.ko" || fail "insmod wqbench.ko"
secs=${STORM_SECS:-30}
stop=/tmp/storm.stop
rm -f "$stop"
( while [ ! -e "$stop" ]; do echo "many 600 1" > /sys/kernel/debug/wqbench/run; done ) &
( while [ ! -e "$stop" ]; do echo "spin 20 50" > "$WQT/run"; done ) &
trace_clear
end=$(( $(date +%s) + secs )) rounds=0
while [ "$rounds" -lt 8 ] || [ "$(date +%s)" -lt "$end" ]; do
	echo 1 > "$T/workqueue_stat_enabled" || fail "enable the tracer"
	echo 1 > "$T/events/workqueue/enable" || fail "enable the events"
	echo 0 > "$T/workqueue_stat_enabled" || fail "disable the tracer"
	echo 0 > "$T/events/workqueue/enable" || fail "disable the events"
	rounds=$((rounds + 1))
done
: > "$stop"
wait
echo "rounds of four switches: $rounds in $(( $(date +%s) - end + secs )) s"

# afterwards every probe is there once: exact counts from both
trace_events workqueue_execute_start workqueue_execute_end worklet_enqueue worklet_execute worklet_complete
stat_reset_on
wqt_run spin 100 100
stat_off
echo 0 > "$T/tracing_on"
expect_eq "EXECUTED of wqt_spin_fn" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 100
expect_eq "QUEUED of wqt_spin_fn" "$(stat_get QUEUED wqtest wqt_spin_fn)" 100
for e in workqueue_execute_start workqueue_execute_end worklet_enqueue worklet_execute worklet_complete; do
	expect_eq "$e events of wqt_spin_fn" "$(trace_lines "$e" 'wqt_spin_fn' | grep -c .)" 100
done
trace_clear
