#!/bin/bash
# make demo: build everything (for $KERNEL: 6.1 by default, or 6.12), boot
# the guest, run the built-in workload and print what a user came for:
# trace_stat/workqueues after the workload.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 2
"$top/ci/build.sh" >&2 || { echo "demo: the build failed" >&2; exit 2; }
out=$top/build/guest/demo
[ "$wq_kver" = 6.1 ] || out=$out-$wq_kver
"$top/ci/guest.sh" "$wq_name" demo "$out"
rc=$?
guest_done demo "$out" $rc
st=$?
[ $st -eq 2 ] || guest_output "$out/results.txt"
exit $st
