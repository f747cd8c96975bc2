#!/bin/bash
# trace_stat/workqueues_hist: the same table as trace_stat/workqueues, row
# for row and column for column, with each row's buckets.  Checked against
# the other file and against the test module: the run-time buckets of 50
# items that spin 200 us hold 50 samples, none below 200 us; in every row
# the buckets hold the samples the averages come from (TOTAL_LAT_us over
# their count is AVG_LAT_us), MIN and MAX lie in the first and the last
# bucket, and the P99 recomputed from the buckets with the kernel's rule
# (the middle of the bucket of the sample at 99%, within MIN and MAX) is
# the P99 printed, to the nanosecond.
# requires: trace_stat/workqueues trace_stat/workqueues_hist workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
HIST=$T/trace_stat/workqueues_hist

stat_reset_on
wqt_run spin 50 200
wqt_run sleep 10 2
stat_off
cat "$STAT" > /tmp/plain
cat "$HIST" > /tmp/hist
head -n 13 /tmp/hist

# the same summary (but the seconds since reset, read a little later) and rows
expect_eq "summary lines but 'since reset'" "$(grep '^#' /tmp/hist | grep -v 'since reset')" \
	"$(grep '^#' /tmp/plain | grep -v 'since reset')"
expect_eq "the header" "$(grep -v '^#' /tmp/hist | head -n 1)" \
	"QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us TOTAL_LAT_us RUN_BUCKETS LAT_BUCKETS WQ_ID WORKQUEUE FUNCTION"
# without its three columns, each row of the hist file is a row of the other
grep -v '^#' /tmp/hist | tail -n +2 | awk '{ $15 = $16 = $17 = ""; print }' | tr -s ' ' | sort > /tmp/h.rows
grep -v '^#' /tmp/plain | tail -n +2 | tr -s ' ' | sort > /tmp/p.rows
expect_eq "rows of workqueues_hist without its 3 columns, against workqueues" \
	"$(cmp /tmp/h.rows /tmp/p.rows && echo same)" same
expect_ge "rows compared" "$(grep -c . /tmp/p.rows)" 3

# check every row: prints "ok FUNCTION N_RUN N_LAT" or fails naming the row
awk '
function lo_of(le,   u, o) {	# the lower bound of the bucket below le (ns)
	if (le <= 1024) return le - 64
	u = le - 1; for (o = 0; u >= 2; o++) u = int(u / 2)
	return le - 2 ^ (o - 3)
}
function ns(us) { return sprintf("%.0f", us * 1000) + 0 }
# check(name, buckets, min, max, p99): the buckets as the kernel made them
function check(what, s, mn, mx, p99,   n, i, b, kv, cnt, le, prev, rank, seen, got, lo) {
	if (s == "-") { if (mx != 0 || p99 != 0) bad(what ": no buckets, but MAX " mx); return 0 }
	n = split(s, b, ","); cnt = 0; prev = -1
	for (i = 1; i <= n; i++) {
		if (split(b[i], kv, ":") != 2 || kv[2] < 1) bad(what ": bucket " b[i])
		le[i] = kv[1]; c[i] = kv[2] + 0; cnt += c[i]
		if (le[i] != "inf" && (le[i] + 0 <= prev || le[i] % 64)) bad(what ": bound " le[i] " after " prev)
		prev = le[i] + 0
	}
	if ((mn != "" && ns(mn) < lo_of(le[1])) || (le[n] != "inf" && ns(mx) >= le[n]))
		bad(what ": MIN " mn " or MAX " mx " outside the buckets")
	rank = cnt - int(cnt / 100); seen = 0
	for (i = 1; i <= n; i++) { seen += c[i]; if (seen >= rank) break }
	lo = lo_of(le[i]); got = lo + (le[i] - lo) / 2
	if (le[i] == "inf" || got > ns(mx)) got = ns(mx)
	if (mn != "" && got < ns(mn)) got = ns(mn)
	# the latency minimum is not printed: a P99 raised to it stays in its bucket
	if (got != ns(p99) && !(mn == "" && i == 1 && ns(p99) > got && ns(p99) < le[1] + 0))
		bad(what ": P99 " p99 " us printed, " got " ns from the buckets")
	return cnt
}
function bad(m) { print "FAIL: " fn ": " m; failed = 1 }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) ix[$i] = i; hdr = 1; next }
{
	fn = $(ix["WORKQUEUE"]) " " $(ix["FUNCTION"])
	nr = check("RUN_BUCKETS", $(ix["RUN_BUCKETS"]), $(ix["MIN_RUN_us"]), $(ix["MAX_RUN_us"]), $(ix["P99_RUN_us"]))
	# the latency minimum is not printed: the first bucket holds it
	nl = check("LAT_BUCKETS", $(ix["LAT_BUCKETS"]), "", $(ix["MAX_LAT_us"]), $(ix["P99_LAT_us"]))
	if (nr && (ns($(ix["TOTAL_RUN_us"])) / nr - ns($(ix["AVG_RUN_us"])) > 1 || ns($(ix["TOTAL_RUN_us"])) / nr - ns($(ix["AVG_RUN_us"])) < 0))
		bad("TOTAL_RUN_us / " nr " is not AVG_RUN_us")
	if (nl && (ns($(ix["TOTAL_LAT_us"])) / nl - ns($(ix["AVG_LAT_us"])) > 1 || ns($(ix["TOTAL_LAT_us"])) / nl - ns($(ix["AVG_LAT_us"])) < 0))
		bad("TOTAL_LAT_us / " nl " is not AVG_LAT_us")
	if (!nl && $(ix["TOTAL_LAT_us"]) != "0.000") bad("latency total without samples")
	print "ok " $(ix["FUNCTION"]) " " nr " " nl " " $(ix["RUN_BUCKETS"])
}
END { exit failed }' /tmp/hist > /tmp/check || { cat /tmp/check; fail "a row's buckets do not match it"; }
cat /tmp/check
rows=$(grep -c '^ok ' /tmp/check)
expect_eq "rows checked" "$rows" "$(grep -c . /tmp/p.rows)"
# the test module's items: every run and every queueing in the buckets
spin=$(grep '^ok wqt_spin_fn ' /tmp/check)
expect_eq "run samples of the 50 spins in RUN_BUCKETS" "$(echo "$spin" | awk '{ print $3 }')" 50
expect_eq "latency samples of the 50 spins in LAT_BUCKETS" "$(echo "$spin" | awk '{ print $4 }')" 50
expect_eq "run samples of the 10 sleeps" "$(grep '^ok wqt_sleep_fn ' /tmp/check | awk '{ print $3 }')" 10
# no spin ran less than 200 us: the first bucket ends above 200,000 ns
first=$(echo "$spin" | awk '{ split($5, b, ":"); print b[1] }')
expect_ge "upper bound of the spins' first run bucket (ns)" "$first" 200001
# the sleeps' first bucket holds the shortest sleep, whose run the module's
# probes bracket (win.c; the last scenario): msleep(2) counts jiffies, and a
# guest that the host did not run catches its jiffies up at once, so the
# nominal 2 ms is no bound on the tracer's clock, but the window is
first=$(grep '^ok wqt_sleep_fn ' /tmp/check | awk '{ split($5, b, ":"); print b[1] }')
expect_eq "sleeps the module's probes saw whole" "$(win_get win_items)" 10
expect_ge "upper bound of the sleeps' first run bucket (ns), above the shortest's window" \
	"$first" $(($(win_get run_min_lo_ns) + 1))
expect_le "lower bound of the sleeps' first run bucket (ns), within the shortest's window" \
	"$(awk -v le="$first" 'BEGIN { if (le <= 1024) print le - 64; else {
		u = le - 1; for (o = 0; u >= 2; o++) u = int(u / 2); print le - 2 ^ (o - 3) } }')" \
	"$(win_get run_min_hi_ns)"
