#!/bin/bash
# wqstat in the guest: "run" shows the workload's function with its exact
# count and returns the command's status; a diff of two snapshots around a
# known change (the work item spins 1 ms, then 4 ms) reports the change
# with the right sign and size.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
command -v wqstat > /dev/null || fail "wqstat is not on the PATH"

wqstat run -- sh -c "echo 'spin 50 200' > $WQT/run; exit 7" > /tmp/run.out
rc=$?
cat /tmp/run.out
expect_eq "run's exit status (the command's own)" "$rc" 7
line=$(grep 'wqt_spin_fn' /tmp/run.out)
[ -n "$line" ] || fail "wqstat run does not show wqt_spin_fn"
expect_eq "EXECUTED shown by wqstat run" "$(echo "$line" | awk '{print $2}')" 50
expect_eq "tracer off after run" "$(cat "$T/workqueue_stat_enabled")" 0

wqstat reset
wqstat enable
wqt_run spin 10 1000
wqstat disable
wqstat snapshot -o /tmp/a.snap || fail "snapshot A"
wqstat reset
wqstat enable
wqt_run spin 10 4000
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
# the spins themselves: MIN_RUN_us, which a vCPU the host stalls for a few
# ms cannot stretch as it can an average of ten, is 4x longer in B
min_of() { awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$(c["FUNCTION"]) == "wqt_spin_fn" { print $(c["MIN_RUN_us"]); exit }' "$1"; }
mr=$(awk -v a="$(min_of /tmp/a.snap)" -v b="$(min_of /tmp/b.snap)" 'BEGIN { printf "%.4f", b / a }')
expect_ge "MIN_RUN_us ratio B/A (a 4x longer spin)" "$mr" 3.9
expect_le "MIN_RUN_us ratio B/A" "$mr" 4.1
expect_eq "executions delta" "$(echo "$d" | sed -n 's/.*"d_executed": \(-*[0-9]*\).*/\1/p')" 0
first=$(wqstat diff /tmp/a.snap /tmp/b.snap | sed -n 2p)
case $first in *wqt_spin_fn*) echo "the regression (30 ms lost) is listed first" ;; *) fail "first diff row is '$first'" ;; esac
