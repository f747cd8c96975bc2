#!/bin/bash
# Helpers shared by the guest tests.  Source it first thing.
T=/sys/kernel/tracing
WQT=/sys/kernel/debug/wqtest
MODDIR=/usr/lib/wqtest/modules

# fail MSG: the test fails with MSG
fail() { echo "FAIL: $*"; exit 1; }
# skip REASON: the test is skipped; the reason is the last line printed
skip() { echo "$*"; exit 77; }
# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "$1 = $2 (as expected)"
}
# expect_ge WHAT GOT MIN  (integers or decimals)
expect_ge() {
	awk -v g="$2" -v m="$3" 'BEGIN { exit !(g + 0 >= m + 0 && g != "") }' ||
		fail "$1: got '$2', want >= $3"
	echo "$1 = $2 (>= $3)"
}
# expect_le WHAT GOT MAX
expect_le() {
	awk -v g="$2" -v m="$3" 'BEGIN { exit !(g + 0 <= m + 0 && g != "") }' ||
		fail "$1: got '$2', want <= $3"
	echo "$1 = $2 (<= $3)"
}

# wqt_load: load the test module once
wqt_load() {
	[ -d "$WQT" ] && return 0
	insmod "$MODDIR/wqtest.ko" || fail "insmod wqtest.ko"
	[ -d "$WQT" ] || fail "wqtest loaded but $WQT is missing"
}
# wqt_run SCENARIO ARGS...: run a scenario of the test module, synchronously
wqt_run() {
	echo "$*" > "$WQT/run" || fail "scenario '$*' failed"
}
# wqt_get KEY: a value from the last scenario's result
wqt_get() { sed -n "s/^$1=//p" "$WQT/result"; }

# trace_clear: stop tracing, disable every event and empty the buffer
trace_clear() {
	echo 0 > "$T/tracing_on"
	echo 0 > "$T/events/enable"
	echo > "$T/trace"
}
# trace_events EVENT...: enable these workqueue events and start tracing
trace_events() {
	trace_clear
	local e
	for e in "$@"; do
		echo 1 > "$T/events/workqueue/$e/enable" || fail "enable $e"
	done
	echo 1 > "$T/tracing_on"
}
# trace_lines EVENT [GREP-PATTERN]: the trace lines of EVENT, filtered
trace_lines() {
	grep " $1: " "$T/trace" | grep -e "${2:-.}" || true
}
# field NAME: read key=value field NAME from stdin lines
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
