#!/bin/bash
# wqstat in the guest, against the real tracer.  "run" reports what the
# workload did (its exact count), on stderr, leaves stdout to the command,
# returns the command's status, never resets the table and leaves the
# tracer as it found it, on or off; a diff of two snapshots around a known
# change (the work item spins 1 ms, then 4 ms) reports the change with the
# right sign and size, and its --fail-above gate fails it (exit 1) but
# passes two runs of the same spins (exit 0); "top -b" counts every
# execution of a workload that runs while it watches, once.
# requires: trace_stat/workqueues trace_stat/workqueues_hist
. /usr/lib/wqtest/tests/lib.sh
wqt_load
command -v wqstat > /dev/null || fail "wqstat is not on the PATH"

# tracer off: run turns it on for the command, and off after
stat_off
wqstat run -- sh -c "echo 'spin 50 200' > $WQT/run; echo out; exit 7" > /tmp/run.stdout 2> /tmp/run.out
rc=$?
cat /tmp/run.out
expect_eq "run's exit status (the command's own)" "$rc" 7
expect_eq "run's stdout (the command's alone)" "$(cat /tmp/run.stdout)" out
line=$(grep 'wqt_spin_fn' /tmp/run.out)
[ -n "$line" ] || fail "wqstat run does not show wqt_spin_fn"
expect_eq "EXECUTED shown by wqstat run" "$(echo "$line" | awk '{print $2}')" 50
expect_eq "tracer off after run, as before it" "$(cat "$T/workqueue_stat_enabled")" 0
# tracer on, with counts of its own: run leaves it on and does not reset it
stat_reset_on
wqt_run spin 20 200
before=$(stat_get EXECUTED wqtest wqt_spin_fn)
expect_eq "executions counted before run" "$before" 20
wqstat run --json -o /tmp/run.json -- sh -c "echo 'spin 30 200' > $WQT/run" > /tmp/run.stdout 2>&1
expect_eq "run -o: nothing on stdout or stderr" "$(cat /tmp/run.stdout)" ""
expect_eq "tracer still on after run, as before it" "$(cat "$T/workqueue_stat_enabled")" 1
expect_eq "the table's own count after run (20 before + 30 in it: no reset)" \
	"$(stat_get EXECUTED wqtest wqt_spin_fn)" 50
got=$(grep '"function": "wqt_spin_fn \[wqtest\]"' /tmp/run.json | grep -o '"executed": [0-9]*' | awk '{ print $2 }')
expect_eq "executions in run's JSON report (the 30 of the command)" "$got" 30
stat_off

wqstat reset
wqstat enable
wqt_run spin 10 1000
cp "$WQT/result" /tmp/a.wqt
wqstat disable
wqstat snapshot -o /tmp/a.snap || fail "snapshot A"
wqstat reset
wqstat enable
wqt_run spin 10 4000
cp "$WQT/result" /tmp/b.wqt
wqstat disable
wqstat snapshot -o /tmp/b.snap || fail "snapshot B"
head -n 3 /tmp/a.snap
grep -qx '# wqstat snapshot v1' /tmp/a.snap || fail "snapshot has no version line"
grep -qx "# kernel: $(uname -r)" /tmp/a.snap || fail "snapshot does not record the kernel release"
wqstat diff /tmp/a.snap /tmp/b.snap | head -n 6
d=$(wqstat diff --json /tmp/a.snap /tmp/b.snap | grep '"function": "wqt_spin_fn')
[ -n "$d" ] || fail "diff --json has no wqt_spin_fn row"
ratio=$(echo "$d" | sed -n 's/.*"avg_run_ratio": \([0-9.]*\).*/\1/p')
a=$(echo "$d" | sed -n 's/.*"a_avg_run_us": \([0-9.]*\).*/\1/p')
b=$(echo "$d" | sed -n 's/.*"b_avg_run_us": \([0-9.]*\).*/\1/p')
echo "avg run A=$a us B=$b us ratio=$ratio"
expect_ge "A's average run (1 ms spins)" "$a" 1000
expect_ge "B's average run (4 ms spins)" "$b" 4000
# the diff's ratio is B's average over A's, as the two snapshots give them
want=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')
expect_ge "avg_run_ratio of diff --json (B/A of the averages: $want)" "$ratio" "$(awk -v w="$want" 'BEGIN { print w - 0.001 }')"
expect_le "avg_run_ratio of diff --json" "$ratio" "$(awk -v w="$want" 'BEGIN { print w + 0.001 }')"
# the spins themselves, as the snapshots keep them: MIN_RUN_us of each in
# the window the test module measured around the tracer's probes (win.c),
# and at least the spin's own time
min_of() { awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["FUNCTION"]) == "wqt_spin_fn" { print $(c["MIN_RUN_us"]); exit }' "$1"; }
for s in a:1000 b:4000; do
	expect_win "snapshot ${s%:*}: MIN_RUN_us of ${s#*:} us spins" "$(min_of /tmp/${s%:*}.snap)" \
		"$(win_get run_min_lo_ns /tmp/${s%:*}.wqt)" "$(win_get run_min_hi_ns /tmp/${s%:*}.wqt)"
	expect_ge "snapshot ${s%:*}: MIN_RUN_us" "$(min_of /tmp/${s%:*}.snap)" "${s#*:}"
done
expect_eq "executions delta" "$(echo "$d" | sed -n 's/.*"d_executed": \(-*[0-9]*\).*/\1/p')" 0
# the gate: B's spins are 4x A's; two sets of 1 ms spins pass it
# the gate's verdict: 1 when B's average run over A's, as the snapshots
# hold them, is above 2.  Spins of 4 ms against 1 ms are, unless the host
# stalled the guest for tens of ms in A's and not in B's; then the
# snapshots say so, and the verdict must follow them.  The gate looks at
# wqt_spin_fn alone (-f): every other row is the system's own work, which
# a busy host slows as it likes (vmstat_update's average went x2.09 between
# A and B in one run beside two busy loops and the debug guest); the gate
# over all rows is the host tests' (fixed snapshots, exact verdicts)
avg_of() { awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["FUNCTION"]) == "wqt_spin_fn" { print $(c["AVG_RUN_us"]); exit }' "$1"; }
# gate_want A B: the exit status --fail-above avg_run=2 must have
gate_want() { awk -v a="$(avg_of "$1")" -v b="$(avg_of "$2")" 'BEGIN { print (b / a > 2) ? 1 : 0 }'; }
want=$(gate_want /tmp/a.snap /tmp/b.snap)
wqstat diff /tmp/a.snap /tmp/b.snap --fail-above avg_run=2 -f wqt_spin_fn > /dev/null 2> /tmp/gate.err
rc=$?
cat /tmp/gate.err
expect_eq "diff --fail-above avg_run=2, 1 ms -> 4 ms spins ($(avg_of /tmp/a.snap) -> $(avg_of /tmp/b.snap) us): exit status" "$rc" "$want"
[ "$want" = 0 ] || grep -q '^wqstat: diff: avg_run .* above x2: wqtest wqt_spin_fn \[wqtest\]$' /tmp/gate.err ||
	fail "the gate does not name wqt_spin_fn"
wqstat reset
wqstat enable
wqt_run spin 10 1000
wqstat disable
wqstat snapshot -o /tmp/c.snap || fail "snapshot C"
wqstat diff /tmp/a.snap /tmp/c.snap --fail-above avg_run=2 -f wqt_spin_fn > /tmp/gate.out 2> /tmp/gate.err
rc=$?
head -n 2 /tmp/gate.out
want=$(gate_want /tmp/a.snap /tmp/c.snap)
expect_eq "diff --fail-above avg_run=2, 1 ms against 1 ms spins ($(avg_of /tmp/a.snap) -> $(avg_of /tmp/c.snap) us): exit status" "$rc" "$want"
[ "$want" = 1 ] || expect_eq "the gate's stderr on no change" "$(cat /tmp/gate.err)" ""

# top -b: every execution of a workload run while it watches, counted once
wqstat enable
wqstat top -b --json -I 250 -c 12 -f wqt_spin_fn > /tmp/top.json 2> /tmp/top.err &
tpid=$!
# the workload starts once top has printed its first interval (so its first
# reading is taken), not after a fixed sleep that a busy host can outlast
n=0
while [ ! -s /tmp/top.json ] && [ $n -lt 100 ] && kill -0 $tpid 2> /dev/null; do
	sleep 0.05
	n=$((n + 1))
done
[ -s /tmp/top.json ] || fail "top -b printed no interval in 5 s: $(cat /tmp/top.err)"
wqt_run spin 40 500
wait $tpid
rc=$?
expect_eq "top -b exit status" "$rc" 0
wqstat disable
head -c 600 /tmp/top.json; echo
lines=$(grep -c . /tmp/top.json)
expect_eq "top -b -c 12: lines of JSON" "$lines" 12
sum=$(grep -o '"executed": [0-9]*' /tmp/top.json | awk '{ s += $2 } END { print s + 0 }')
expect_eq "wqt_spin_fn executions summed over top's intervals" "$sum" 40

# the diff lists first the row that lost the most time in B: EXECUTED of B
# times the growth of AVG_RUN plus AVG_LAT, over the rows of both snapshots
# (report.c, regression()).  That is wqt_spin_fn's 30 ms, unless a system
# row lost more beside a busy host: the snapshots say which
want_first=$(awk 'FNR == 1 { f++; h = 0 }
	/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ k = $(c["WORKQUEUE"]); for (i = c["FUNCTION"]; i <= NF; i++) k = k " " $i
	  if (f == 1) { ar[k] = $(c["AVG_RUN_us"]); al[k] = $(c["AVG_LAT_us"]); next }
	  if (!(k in ar)) next
	  s = $(c["EXECUTED"]) * (($(c["AVG_RUN_us"]) - ar[k]) + ($(c["AVG_LAT_us"]) - al[k]))
	  if (!n++ || s > best) { best = s; bk = k } }
	END { print bk }' /tmp/a.snap /tmp/b.snap)
first=$(wqstat diff /tmp/a.snap /tmp/b.snap | sed -n 2p)
echo "first diff row: $first"
[ -n "$want_first" ] || fail "no row in both snapshots"
expect_eq "first diff row's workqueue and function (the most time lost, from the snapshots)" \
	"$(echo "$first" | awk -v w="${want_first%% *}" '{ for (i = 1; i <= NF; i++) if ($i == w) { o = $i; for (j = i + 1; j <= NF; j++) o = o " " $j; print o; exit } }')" \
	"$want_first"
