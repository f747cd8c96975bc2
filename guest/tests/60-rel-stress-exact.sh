#!/bin/bash
# Nothing lost: the stress scenario on every vCPU for 30 s (every kind of
# enqueue, cancel and flush, self-requeuing and self-freeing items, queues
# created and destroyed, work from timers and hard irqs), with the tracer
# on throughout and room for every row.  For each of the scenario's work
# functions, QUEUED, EXECUTED and CANCELLED summed over its rows equal the
# module's own counts exactly.  Runs on the debug kernel (ci/check.sh).
# requires: trace_stat/workqueues workqueue_stat_enabled
. /usr/lib/wqtest/tests/lib.sh
secs=${WQT_STRESS_SECONDS:-30}
stress_run "$secs"
expect_eq "dropped events (the table had room)" "$(stat_summary dropped)" 0
stress_check_self
events=0
while read -r fn enq exec cancel; do
	expect_ge "$fn: the module did some" "$exec" 1
	expect_eq "$fn QUEUED" "$(stat_fn_sum QUEUED "$fn")" "$enq"
	expect_eq "$fn EXECUTED" "$(stat_fn_sum EXECUTED "$fn")" "$exec"
	expect_eq "$fn CANCELLED" "$(stat_fn_sum CANCELLED "$fn")" "$cancel"
	events=$((events + enq + exec + cancel))
done < <(stress_counts)
expect_ge "cancels seen in all" "$(stress_counts | awk '{ s += $4 } END { print s + 0 }')" 1
echo "figures: operations=$(wqt_get ops) events=$events queues-created=$(wqt_get lives) rows=$(stat_summary rows) dropped=$(stat_summary dropped) lost-pairs=$(stat_summary 'lost pairs')"
