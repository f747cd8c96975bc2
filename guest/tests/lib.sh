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

STAT=$T/trace_stat/workqueues
# stat_reset_on: clear the stat tracer's table and turn it on
stat_reset_on() {
	echo 1 > "$T/workqueue_stat_reset" || fail "reset"
	echo 1 > "$T/workqueue_stat_enabled" || fail "enable"
}
# stat_off: turn the stat tracer off
stat_off() { echo 0 > "$T/workqueue_stat_enabled" || fail "disable"; }
# stat_get COLUMN WORKQUEUE FUNCTION: one value of one row of the table
# (empty when there is no such row); FUNCTION matches the symbol name.
stat_get() {
	awk -v col="$1" -v wq="$2" -v fn="$3" '
		/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
		$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) == fn { print $(idx[col]); exit }
	' "$STAT"
}
# stat_summary KEY: the value after "# KEY: " in the summary lines
stat_summary() { sed -n "s/^# $1: \([^ ]*\).*/\1/p" "$STAT"; }
# stat_rows: the number of rows in the table
stat_rows() { grep -v '^#' "$STAT" | tail -n +2 | grep -c .; }
