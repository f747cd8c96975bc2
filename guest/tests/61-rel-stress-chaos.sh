#!/bin/bash
# The stress scenario for 30 s while user space turns the tracer off and on
# and resets it in a loop, reads trace_stat/workqueues in a loop, and takes
# vCPU 1 offline and online in a loop.  Counts cannot match while the
# tracer blinks; what must hold is no splat (the console is scanned by the
# host), a table that still reads whole, and the module's own consistency.
# Runs on the debug kernel (ci/check.sh).
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
secs=${WQT_STRESS_SECONDS:-30}
online=/sys/devices/system/cpu/cpu1/online
[ -w "$online" ] || skip "needs a second vCPU that can go offline ($online)"
wqt_load
stop=/tmp/chaos.stop
rm -f "$stop" /tmp/chaos.*.n
loop() {	# loop NAME COMMAND: run COMMAND until told to stop; count the rounds
	local n=0
	while [ ! -e "$stop" ]; do
		eval "$2" || { echo "$1: round $n failed" > "/tmp/chaos.$1.err"; break; }
		n=$((n + 1))
	done
	echo $n > "/tmp/chaos.$1.n"
}
# on any exit: the loops stopped, vCPU 1 online, the tracer off
on_exit ": > $stop; wait; echo 1 > $online; echo 0 > $T/workqueue_stat_enabled"
loop toggles 'echo 0 > $T/workqueue_stat_enabled && echo 1 > $T/workqueue_stat_enabled' &
loop resets 'echo 1 > $T/workqueue_stat_reset; sleep 0.2' &
loop reads 'cat $STAT > /dev/null' &
loop hotplug 'echo 0 > $online && echo 1 > $online' &
wqt_run stress "$secs" 40
: > "$stop"
wait
cat "$WQT/result"
cat /tmp/chaos.*.err 2>/dev/null && fail "a user-space loop failed"
expect_eq "vCPU 1 back online" "$(cat $online)" 1
stress_check_self
for what in toggles resets reads hotplug; do
	expect_ge "$what" "$(cat /tmp/chaos.$what.n)" 1
done
# the table reads whole: the summary's row count is the rows printed
stat_off
head -n 8 "$STAT"
expect_eq "rows printed = rows in the summary" "$(stat_rows)" "$(stat_summary rows)"
events=$(stress_counts | awk '{ s += $2 + $3 + $4 } END { print s + 0 }')
echo "figures: operations=$(wqt_get ops) events=$events toggles=$(cat /tmp/chaos.toggles.n) resets=$(cat /tmp/chaos.resets.n) reads=$(cat /tmp/chaos.reads.n) hotplug-cycles=$(cat /tmp/chaos.hotplug.n) dropped=$(stat_summary dropped)"
