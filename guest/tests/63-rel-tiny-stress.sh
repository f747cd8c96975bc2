#!/bin/bash
# Booted with workqueue_stat_capacity=16: the stress scenario fills the
# table at once.  For each of the scenario's functions the table counts no
# more than the truth, and what it missed is accounted for: counted +
# dropped + the events of evicted rows = the module's truth + the events
# of the system's other work that found the table full (which no one here
# can count).  The janitor merges and evicts the rows of the scenario's
# destroyed queues, so the table may end with free rows.
# Runs in the debug kernel's tiny-table boot (ci/check.sh).
# requires: trace_stat/workqueues workqueue_stat_enabled
. /usr/lib/wqtest/tests/lib.sh
grep -qw workqueue_stat_capacity=16 /proc/cmdline || skip "needs workqueue_stat_capacity=16 on the command line"
secs=${WQT_STRESS_SECONDS:-30}
stress_run "$secs"
expect_le "rows" "$(stat_summary rows)" 16
expect_ge "dropped (the table filled up)" "$(stat_summary dropped)" 1
stress_check_self
truth=0 counted=0
while read -r fn enq exec cancel; do
	c=$(( $(stat_fn_sum QUEUED "$fn") + $(stat_fn_sum EXECUTED "$fn") + $(stat_fn_sum CANCELLED "$fn") ))
	expect_le "$fn: counted" "$c" $((enq + exec + cancel))
	truth=$((truth + enq + exec + cancel)); counted=$((counted + c))
done < <(stress_counts)
dropped=$(stat_summary dropped)
evicted=$(sed -n 's/^# evicted: [0-9]* retired rows (\([0-9]*\) events)$/\1/p' "$STAT")
expect_ge "events of evicted rows (a number)" "$evicted" 0
lost=$((dropped + evicted))
expect_ge "dropped + evicted events cover the module's missing events" "$lost" $((truth - counted))
echo "figures: truth=$truth counted=$counted dropped=$dropped evicted=$evicted counted+dropped+evicted-truth=$((counted + lost - truth)) (events of other work without a row)"
