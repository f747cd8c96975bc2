#!/bin/bash
# Two live workqueues with one name: wqtest makes two queues named
# wqtest_twin and runs 3 items on the first, 5 on the second.  Two rows,
# told apart by WQ_ID (8 hex digits), each with its exact count, and the
# same ids on the next read; wqstat shows them as wqtest_twin@ID, and its
# JSON and Prometheus outputs carry the id.  Once both are destroyed, the
# janitor merges them into one row of 8 executions, whose WQ_ID is "-": it
# stands for every instance of the name.  Before WQ_ID the two rows
# printed alike.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
# twin_ids: "ID EXECUTED" of each wqtest_twin row of wqt_twin_fn, by id
# (flush_work() adds wq_barrier_func rows, as many as it had to wait)
twin_ids() {
	stat_awk '$(idx["WORKQUEUE"]) ~ /^wqtest_twin/ && $(idx["FUNCTION"]) == "wqt_twin_fn" { print $(idx["WQ_ID"]), $(idx["EXECUTED"]) }' | sort
}
wqt_load
stat_reset_on
wqt_run twins 3 5
grep -e wqt_twin_fn -e QUEUED "$STAT"
first=$(twin_ids)
echo "$first"
expect_eq "rows of wqtest_twin" "$(grep -c . <<< "$first")" 2
expect_eq "their counts" "$(awk '{ print $2 }' <<< "$first" | sort -n | tr '\n' ' ')" "3 5 "
ids=$(awk '{ print $1 }' <<< "$first" | sort -u | grep -c '^[0-9a-f]\{8\}$')
expect_eq "distinct 8-hex-digit WQ_IDs" "$ids" 2
wqt_run twins 1 1
again=$(twin_ids)
echo "$again"
expect_eq "the same ids on the next read, counts +1" "$(awk '{ print $1, $2 - 1 }' <<< "$again")" "$first"
id3=$(awk '$2 == 4 { print $1 }' <<< "$again")
wqstat show -n 0 > /tmp/twins.txt || fail "wqstat show"
grep wqtest_twin /tmp/twins.txt
expect_eq "wqstat show: the first twin as NAME@ID" "$(grep -c "wqtest_twin@$id3 wqt_twin_fn " /tmp/twins.txt)" 1
wqstat show -j > /tmp/twins.json || fail "wqstat show -j"
expect_eq "wqstat JSON: the first twin's id" \
	"$(grep -o "\"wq_id\": \"$id3\", \"destroyed\": false, \"queued\": 4, \"executed\": 4" /tmp/twins.json | grep -c .)" 1
wqstat show -p > /tmp/twins.prom || fail "wqstat show -p"
expect_eq "wqstat Prometheus: the first twin's label" \
	"$(grep -c "^wqstat_executed_total{workqueue=\"wqtest_twin\",function=\"wqt_twin_fn \[wqtest\]\",wq_id=\"$id3\",destroyed=\"false\",unloaded=\"false\"} 4$" /tmp/twins.prom)" 1
# two series of one name and function, told apart by wq_id alone
expect_eq "wqstat Prometheus: series of wqt_twin_fn's executions (one per twin)" \
	"$(grep -c '^wqstat_executed_total{workqueue="wqtest_twin",function="wqt_twin_fn \[wqtest\]",wq_id="[0-9a-f]\{8\}",destroyed="false",unloaded="false"} [0-9]*$' /tmp/twins.prom)" 2
wqt_run twins 0 0
stat_off
for i in $(seq 50); do
	[ "$(twin_ids | grep -c .)" = 1 ] && break
	sleep 0.1
done
twin_ids
expect_eq "after both are destroyed: one merged row" "$(twin_ids)" "- 10"
