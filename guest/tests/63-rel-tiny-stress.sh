#!/bin/bash
# Booted with workqueue_stat_capacity=16: the stress scenario fills the
# table at once.  For each of the scenario's functions the table counts no
# more than the truth, and the drop counter covers what it missed:
# counted + dropped = the module's truth + the events of the system's
# other work that found the table full (which no one here can count).
# Runs in the debug kernel's tiny-table boot (ci/check.sh).
# requires: trace_stat/workqueues workqueue_stat_enabled
. /usr/lib/wqtest/tests/lib.sh
grep -qw workqueue_stat_capacity=16 /proc/cmdline || skip "needs workqueue_stat_capacity=16 on the command line"
secs=${WQT_STRESS_SECONDS:-30}
stress_run "$secs"
expect_eq "rows (the table is full)" "$(stat_summary rows)" 16
stress_check_self
truth=0 counted=0
while read -r fn enq exec cancel; do
	c=$(( $(stat_fn_sum QUEUED "$fn") + $(stat_fn_sum EXECUTED "$fn") + $(stat_fn_sum CANCELLED "$fn") ))
	expect_le "$fn: counted" "$c" $((enq + exec + cancel))
	truth=$((truth + enq + exec + cancel)); counted=$((counted + c))
done < <(stress_counts)
dropped=$(stat_summary dropped)
expect_ge "dropped covers the module's missing events" "$dropped" $((truth - counted))
echo "figures: truth=$truth counted=$counted dropped=$dropped counted+dropped-truth=$((counted + dropped - truth)) (events of other work without a row)"
