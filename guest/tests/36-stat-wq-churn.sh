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
#
# The janitor (process context, a grace period a round) keeps its own pace,
# the host's: beside busy loops, 1,500 queues made at full speed outran it
# by 64 rows and the probes rightly dropped what found the table full
# (rows kept + evicted: 1,411, 1,484, 1,246).  So the 1,500 come in 30
# rounds of 50, and before each the test waits until the janitor has left
# room for them (it keeps capacity / 16 = 64 rows free, so 56 at least
# are): a wait on the tracer's state, whatever the time it takes.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
# churn_rows: rows of wqt_churn_fn in the table
churn_rows() { grep -c ' wqt_churn_fn ' "$STAT"; }
# wait_for WHAT CMD...: wait until CMD succeeds, reading the table again
# and again; prints how long it waited and how many reads it took.  Not an
# oracle: what is waited for is then asserted; 300 s without it means a
# janitor that is not coming (a round took 235 ms at most beside eight busy
# loops on two cores) and fails the test with the table.
wait_for() {
	local what=$1 t0=$SECONDS reads=0
	shift
	until "$@"; do
		reads=$((reads + 1))
		[ $((SECONDS - t0)) -lt 300 ] || { head -n 12 "$STAT"; fail "$what: not after 300 s"; }
		sleep 0.2
	done
	waited="$((SECONDS - t0)) s, $((reads + 1)) reads"
}
# settled ROWS: the janitor has merged the churn into ROWS rows
settled() { [ "$(churn_rows)" = "$1" ]; }
# caught_up N: the janitor has dealt with N queues (each a kept row or an
# evicted one) and left room for 50 more and the system's rows, all from
# one read of the table, in one process (a read of 1,000 rows and each
# fork are slow on the debug kernel).  A round of the janitor leaves 64
# rows free (capacity / 16); rows that other work items take after it do
# not call it again, so it waits for 56 free of "# rows: R of CAPACITY",
# not 64: on the debug kernel two system rows after the last round left
# 62 free for good
caught_up() {
	awk -v n="$1" '/^# rows: [0-9]+ of [0-9]+$/ { room = $5 - $3 }
		/^# evicted: / { ev = $3 }
		/ wqt_churn_fn / { rows++ }
		END { exit !(rows + ev == n && room >= 56) }' "$STAT"
}
wqt_load
expect_eq "table capacity" "$(sed -n 's/^# rows: [0-9]* of \([0-9]*\)$/\1/p' "$STAT")" 1024
stat_reset_on
wqt_run churn 3000 12 300
cat "$WQT/result"
wqt_run spin 100 0
stat_off
wait_for "the churn's retired rows merged into 12" settled 12
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
for r in $(seq 0 29); do
	wait_for "room for round $r (50 queues)" caught_up $((50 * r))
	wqt_run churn 50 50 300 $((50 * r))
	expect_eq "round $r (after $waited of waiting): queues made and items run" \
		"$(sed -n 's/^\(queues\|executed\)=//p' "$WQT/result" | tr '\n' ' ')" "50 50 "
done
stat_off
wait_for "all 1500 queues dealt with" caught_up 1500
echo "all 1500 queues dealt with after $waited"
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
