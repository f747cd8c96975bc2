#!/bin/bash
# make run-guest SCRIPT=path: run a host shell script in the guest as root,
# once tracefs is mounted at /sys/kernel/tracing.  Prints what it printed
# and exits with its status.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
script=${1:-}
[ -n "$script" ] || { echo "run-guest: usage: make run-guest SCRIPT=path/to/script.sh" >&2; exit 2; }
[ -r "$script" ] || { echo "run-guest: $script: cannot read it" >&2; exit 2; }
"$top/ci/build.sh" linux >&2 || exit 2
out=$top/build/guest/run-guest
WQ_USER_SCRIPT=$(realpath "$script") "$top/ci/guest.sh" linux script "$out"
rc=$?
res=$out/results.txt
if [ $rc -ne 0 ] || ! grep -qx '# wqtest-done' "$res" 2>/dev/null; then
	[ -s "$res" ] && sed '/^# wqtest/d' "$res"
	echo "run-guest: the guest did not finish the script (qemu status $rc); see $out/console.log" >&2
	exit 2
fi
sed -e '/^# wqtest: mode=/d' -e '/^# wqtest-done$/d' -e '/^# exit-status: [0-9]*$/d' "$res"
status=$(sed -n 's/^# exit-status: \([0-9]*\)$/\1/p' "$res" | tail -n 1)
if ! splats=$("$top/ci/splat.sh" "$out/console.log"); then
	echo "run-guest: kernel splat in $out/console.log:" >&2
	echo "$splats" >&2
	[ "${status:-1}" -ne 0 ] || status=1
fi
status=${status:-2}
# GNU make can only exit 0 or 2, so say the status too; this script
# itself exits with it.
[ "$status" -eq 0 ] || echo "run-guest: the script exited with status $status" >&2
exit "$status"
