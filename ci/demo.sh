#!/bin/bash
# make demo: build everything, boot the guest, run the built-in workload and
# print what a user came for: trace_stat/workqueues after the workload.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
"$top/ci/build.sh" linux >&2 || { echo "demo: the build failed" >&2; exit 2; }
out=$top/build/guest/demo
"$top/ci/guest.sh" linux demo "$out"
rc=$?
guest_done demo "$out" $rc
st=$?
[ $st -eq 2 ] || guest_output "$out/results.txt"
exit $st
