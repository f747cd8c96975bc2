#!/bin/bash
# A delayed work with a delay of 10 jiffies: the delay is not queue latency;
# it is counted in timer lateness (LATE_N, AVG_LATE_us, MAX_LATE_us): the
# time from the arming plus the delay to the timer's queueing (0 if that is
# negative: a timer fires on a jiffy).  The oracle is the test module's
# windows (win.c): its probes right before and after the tracer's on
# worklet_enqueue_delayed and worklet_enqueue give the interval that holds
# the tracer's lateness, and the latency's, whatever the host did.  The
# stock-format events of the same two sites, recorded on the tracer's clock
# (trace_clock=mono) by probes that run between the module's, must say a
# lateness within the same window too (to their printed microsecond).
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
cat "$WQT/result"
hz=$(wqt_get HZ)
delay_us=$((10 * 1000000 / hz))
grep -e wqt_delayed -e QUEUED "$STAT"
expect_eq "EXECUTED" "$(stat_get EXECUTED wqtest wqt_delayed_fn)" 1
expect_eq "QUEUED (the timer's enqueue)" "$(stat_get QUEUED wqtest wqt_delayed_fn)" 1
expect_eq "LATE_N" "$(stat_get LATE_N wqtest wqt_delayed_fn)" 1
expect_eq "items the module's probes saw whole" "$(win_get win_items)" 1
lo=$(win_get late_lo_ns) hi=$(win_get late_hi_ns)
got=$(stat_get MAX_LATE_us wqtest wqt_delayed_fn)
expect_win "MAX_LATE_us" "$got" "$lo" "$hi"
expect_eq "AVG_LATE_us, of the one sample" "$(stat_get AVG_LATE_us wqtest wqt_delayed_fn)" "$got"
# the latency runs from the timer's queueing, not from the arming
expect_win "MAX_LAT_us (from the timer's queueing)" "$(stat_get MAX_LAT_us wqtest wqt_delayed_fn)" \
	"$(win_get lat_max_lo_ns)" "$(win_get lat_max_hi_ns)"

# the event timestamps, in s, of the arming and of the timer's enqueue
ts() { trace_lines "$1" 'function=wqt_delayed_fn' | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i; exit } }'; }
trace_lines worklet_enqueue_delayed 'function=wqt_delayed_fn'
trace_lines worklet_enqueue 'function=wqt_delayed_fn'
armed=$(ts worklet_enqueue_delayed)
fired=$(ts worklet_enqueue)
[[ $armed =~ ^[0-9]+\.[0-9]{6}$ && $fired =~ ^[0-9]+\.[0-9]{6}$ ]] ||
	fail "no event timestamps: armed '$armed', fired '$fired'"
# in ns, each stamp cut to the us when printed: the true difference is
# within 1 us of the printed one
ev=$(( (10#${fired/./} - 10#${armed/./}) * 1000 - delay_us * 1000 ))
echo "lateness from the events: ($fired - $armed) s - $delay_us us = $ev ns (to 1 us)"
[ "$ev" -ge 0 ] || ev=0
expect_ge "the events' lateness + 1 us, against the window's low end" $((ev + 1000)) "$lo"
expect_le "the events' lateness - 1 us, against the window's high end" $((ev > 1000 ? ev - 1000 : 0)) "$hi"
