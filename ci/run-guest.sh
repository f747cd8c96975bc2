#!/bin/bash
# make run-guest SCRIPT=path: run a host shell script in the guest as root,
# once tracefs is mounted at /sys/kernel/tracing.  Prints what it printed
# and exits with its status (1 at least when the kernel splatted, 2 when the
# guest did not finish).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
script=${1:-}
[ -n "$script" ] || { echo "run-guest: usage: make run-guest SCRIPT=path/to/script.sh" >&2; exit 2; }
[ -r "$script" ] || { echo "run-guest: $script: cannot read it" >&2; exit 2; }
wq_kernel || exit 2
"$top/ci/build.sh" >&2 || exit 2
out=$top/build/guest/run-guest
[ "$wq_kver" = 6.1 ] || out=$out-$wq_kver
WQ_USER_SCRIPT=$(realpath "$script") "$top/ci/guest.sh" "$wq_name" script "$out"
rc=$?
res=$out/results.txt
[ -s "$res" ] && guest_output "$res"
guest_done run-guest "$out" $rc
st=$?
[ $st -ne 2 ] || exit 2
status=$(sed -n 's/^# exit-status: \([0-9]*\)$/\1/p' "$res" | tail -n 1)
status=${status:-2}
[ $st -eq 0 ] || [ "$status" -ne 0 ] || status=1
# GNU make can only exit 0 or 2, so say the status too; this script
# itself exits with it.
[ "$status" -eq 0 ] || echo "run-guest: the script exited with status $status" >&2
exit "$status"
