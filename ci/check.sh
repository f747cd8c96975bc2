#!/bin/bash
# make check: host tests, then the guest suite on the patched kernel.
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export TALLY=$top/build/check.tally
mkdir -p "$top/build"
: > "$TALLY"
start=$(date +%s)
status=0

# 1. host tests (no guest needed): wqstat's unit and command-line tests
"$top/ci/deps.sh" || exit 2
out=$top/build/host-wqstat.tap
mkdir -p "$top/build/stat-tracer"
make -s -C "$top/stat-tracer" O="$top/build/stat-tracer" test > "$out" 2>&1
rc=$?
echo "# wqtest-done" >> "$out"
"$top/ci/report.sh" host-wqstat "$out" /dev/null "$rc" || status=1

# 2. the guest suite on the normal kernel
if ! "$top/ci/build.sh" linux; then
	echo "not ok - build: the guest kernel or its files did not build"
	echo "0 1 0" >> "$TALLY"
	status=1
else
	out=$top/build/guest/check
	"$top/ci/guest.sh" linux check "$out"
	rc=$?
	"$top/ci/report.sh" guest "$out/results.txt" "$out/console.log" "$rc" || status=1
	echo "# guest logs: $out/console.log (kernel), $out/results.txt (tests)"

	# a second boot: the stat tracer on from boot with a tiny table
	out=$top/build/guest/check-boot-tiny
	"$top/ci/guest.sh" linux check "$out" workqueue_stat=1 workqueue_stat_capacity=16 \
		'wqtest.tests=*-boot-tiny*'
	rc=$?
	"$top/ci/report.sh" guest-boot-tiny "$out/results.txt" "$out/console.log" "$rc" || status=1
fi

read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$TALLY")
echo "# make check took $(( $(date +%s) - start )) s"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ $status -eq 0 ]
