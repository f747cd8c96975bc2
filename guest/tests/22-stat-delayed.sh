#!/bin/bash
# A delayed work with a delay of 10 jiffies: the delay is not queue latency;
# it is counted in timer lateness (LATE_N, AVG_LATE_us, MAX_LATE_us), and
# the lateness is the one the events show: with worklet_enqueue_delayed
# and worklet_enqueue recording on the stat tracer's clock (trace_clock=
# mono), MAX_LATE_us = (enqueue - arm) - delay (0 if that is negative: a
# timer fires on a jiffy), to within 0.5 ms (the two
# probes of each site read the clock a few us apart; under TCG a timer can
# fire more than a tick late, so no fixed bound would hold).
# requires: trace_stat/workqueues events/workqueue/worklet_enqueue_delayed
# requires: events/workqueue/worklet_enqueue
. /usr/lib/wqtest/tests/lib.sh
wqt_load
keep_buffer
echo mono > "$T/trace_clock" || fail "set trace_clock to mono"
trace_events worklet_enqueue_delayed worklet_enqueue
stat_reset_on
wqt_run delayed 10
stat_off
echo 0 > "$T/tracing_on"
hz=$(wqt_get HZ)
delay_us=$((10 * 1000000 / hz))
grep -e wqt_delayed -e QUEUED "$STAT"
expect_eq "EXECUTED" "$(stat_get EXECUTED wqtest wqt_delayed_fn)" 1
expect_eq "QUEUED (the timer's enqueue)" "$(stat_get QUEUED wqtest wqt_delayed_fn)" 1
expect_le "MAX_LAT_us, below the delay of ${delay_us} us" "$(stat_get MAX_LAT_us wqtest wqt_delayed_fn)" $((delay_us - 1))
expect_eq "LATE_N" "$(stat_get LATE_N wqtest wqt_delayed_fn)" 1

# the event timestamps, in s, of the arming and of the timer's enqueue
ts() { trace_lines "$1" 'function=wqt_delayed_fn' | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i; exit } }'; }
trace_lines worklet_enqueue_delayed 'function=wqt_delayed_fn'
trace_lines worklet_enqueue 'function=wqt_delayed_fn'
armed=$(ts worklet_enqueue_delayed)
fired=$(ts worklet_enqueue)
# a timer fires at a jiffy boundary, up to a tick before arm + delay: the
# tracer counts that as on time, 0
late=$(awk -v a="$armed" -v f="$fired" -v d="$delay_us" 'BEGIN { l = (f - a) * 1e6 - d; printf "%.3f", (l > 0 ? l : 0) }')
echo "lateness from the events: ($fired - $armed) s - $delay_us us, at least 0 = $late us"
got=$(stat_get MAX_LATE_us wqtest wqt_delayed_fn)
is_number "$late" || fail "no lateness from the events: armed '$armed', fired '$fired'"
expect_ge "MAX_LATE_us (the events say $late)" "$got" "$(awk -v l="$late" 'BEGIN { print (l > 500 ? l - 500 : 0) }')"
expect_le "MAX_LATE_us (the events say $late)" "$got" "$(awk -v l="$late" 'BEGIN { print l + 500 }')"
expect_eq "AVG_LATE_us, of the one sample" "$(stat_get AVG_LATE_us wqtest wqt_delayed_fn)" "$got"
