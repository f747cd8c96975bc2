#!/bin/bash
# Workqueue churn: 3,000 workqueues under the same 12 names (three times
# the table's 1,024 rows), each created, given one item and destroyed;
# then 100 items on the live wqtest queue.  Retired rows of one name and
# function are merged, so the table keeps 12 rows of wqt_churn_fn whose
# EXECUTED add up to 3,000, "# merged:" says 2,988, nothing is dropped and
# the live items are counted exactly.  Then, after a reset, 1,500 queues of
# 1,500 different names: the table cannot keep them all, so the oldest
# kept rows are evicted - rows kept + "# evicted:" = 1,500, nothing
# dropped.  Before the fix the table filled with one-execution rows and
# everything new was dropped.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
# churn_rows: rows of wqt_churn_fn in the table
churn_rows() { grep -c ' wqt_churn_fn ' "$STAT"; }
# settle WANT: wait (10 s at most) for the janitor to leave WANT rows
settle() {
	local i
	for i in $(seq 100); do
		[ "$(churn_rows)" = "$1" ] && return 0
		sleep 0.1
	done
}
wqt_load
expect_eq "table capacity" "$(sed -n 's/^# rows: [0-9]* of \([0-9]*\)$/\1/p' "$STAT")" 1024
stat_reset_on
wqt_run churn 3000 12 300
cat "$WQT/result"
wqt_run spin 100 0
stat_off
settle 12
head -n 12 "$STAT"
grep ' wqt_churn_fn ' "$STAT" | head -n 3
expect_eq "module: churn items run" "$(wqt_get executed)" 100
expect_eq "rows of wqt_churn_fn" "$(churn_rows)" 12
expect_eq "EXECUTED of wqt_churn_fn, all rows" "$(stat_fn_sum EXECUTED wqt_churn_fn)" 3000
expect_eq "QUEUED of wqt_churn_fn, all rows" "$(stat_fn_sum QUEUED wqt_churn_fn)" 3000
expect_eq "EXECUTED of wqtest_churn7(destroyed)" "$(stat_get EXECUTED 'wqtest_churn7(destroyed)' wqt_churn_fn)" 250
expect_eq "merged" "$(stat_summary merged)" 2988
expect_eq "evicted" "$(stat_summary evicted)" 0
expect_eq "dropped" "$(stat_summary dropped)" 0
expect_eq "EXECUTED of the live wqt_spin_fn" "$(stat_get EXECUTED wqtest wqt_spin_fn)" 100

stat_reset_on
wqt_run churn 1500 1500 300
cat "$WQT/result"
stat_off
for i in $(seq 100); do
	[ "$(stat_fn_sum EXECUTED wqt_churn_fn)" = "$(churn_rows)" ] &&
		[ $(( $(churn_rows) + $(stat_summary evicted) )) = 1500 ] && break
	sleep 0.1
done
head -n 12 "$STAT"
rows=$(churn_rows)
ev=$(stat_summary evicted)
echo "rows of wqt_churn_fn: $rows, evicted: $ev"
expect_ge "evicted" "$ev" 1
expect_eq "rows kept + evicted" "$((rows + ev))" 1500
# each evicted row had one queueing and one execution
expect_eq "events of the evicted rows" \
	"$(sed -n 's/^# evicted: [0-9]* retired rows (\([0-9]*\) events)$/\1/p' "$STAT")" $((2 * ev))
expect_eq "EXECUTED of the kept rows (one each)" "$(stat_fn_sum EXECUTED wqt_churn_fn)" "$rows"
expect_eq "merged (every name is new)" "$(stat_summary merged)" 0
expect_eq "dropped" "$(stat_summary dropped)" 0
# the oldest went first: the last queue's row is kept, and so are the
# newest queues' - give or take the rows that retired in one janitor
# round, which share a time - not rows of old ones
expect_eq "EXECUTED of the last queue" "$(stat_get EXECUTED 'wqtest_churn1499(destroyed)' wqt_churn_fn)" 1
oldest=$(sed -n 's/.* wqtest_churn\([0-9]*\)(destroyed) wqt_churn_fn .*/\1/p' "$STAT" | sort -n | head -n 1)
expect_ge "the oldest queue with a kept row (of 1500; $rows kept)" "$oldest" $((1500 - rows - 200))
