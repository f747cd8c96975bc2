#!/bin/bash
# make check-rt: the series on 6.12 built with PREEMPT_RT, as Debian's
# linux-image-rt-amd64 is, and with the lock checks that find what RT
# breaks (kernel-patches/6.12/rt.config: PROVE_RAW_LOCK_NESTING's "Invalid
# wait context" for a spinlock_t, a sleeping lock on RT, taken where it
# must not sleep; DEBUG_ATOMIC_SLEEP; lockdep).  One boot runs the tests of
# [main] and [main-6.12] (the probes from every context a work item is
# queued from: task, softirq, hard irq, BH workqueues) and the stress,
# hotplug and unload tests of [debug-2] (ci/suites).  Not part of make
# check: the kernel takes as long to build as the debug kernel, and the
# boot about 20 minutes under TCG.
# Ends with "N passed, N failed, N skipped"; exits non-zero on a failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
export KERNEL=6.12 TALLY=$top/build/check-rt.tally
: > "$TALLY"
start=$(date +%s)
k=$top/kernel-patches
if ! "$top/ci/build.sh" rt-6.12 "$k/guest.config" "$k/wqstat.config" "$k/6.12/rt.config"; then
	echo "not ok - build: the 6.12 PREEMPT_RT kernel or its files did not build"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
tests=$( (suite_tests main; suite_tests main-6.12
	suite_tests debug-2 | grep '^6[0-9]-') | tr '\n' ' ')
out=$top/build/guest/check-rt
echo "# rt: booting build/rt-6.12; tests: $(echo $tests | wc -w)" >&2
# the per-test and per-boot limits of the debug kernel's boots, which
# lockdep slows as much (docs/pipeline.md, "Hang detectors")
GUEST_TIMEOUT=${GUEST_TIMEOUT:-3000} WQ_PROGRESS=rt "$top/ci/guest.sh" rt-6.12 check "$out" \
	wqtest.timeout=900 "wqtest.tests=$(echo $tests | tr ' ' ,)"
rc=$?
REPORT_EXPECT=$tests "$top/ci/report.sh" rt "$out/results.txt" "$out/console.log" "$rc"
echo "# rt logs: $out/console.log (kernel), $out/results.txt (tests)"
read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$TALLY")
echo "# make check-rt took $(( $(date +%s) - start )) s"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
