#!/bin/bash
# make demo: build everything, boot the guest, run the built-in workload and
# print what a user came for: trace_stat/workqueues after the workload.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/ci/build.sh" linux >&2 || { echo "demo: the build failed" >&2; exit 2; }
out=$top/build/guest/demo
"$top/ci/guest.sh" linux demo "$out"
rc=$?
res=$out/results.txt
if [ $rc -ne 0 ] || ! grep -qx '# wqtest-done' "$res" 2>/dev/null; then
	echo "demo: the guest did not finish (qemu status $rc); see $out/console.log" >&2
	exit 2
fi
sed -e '/^# wqtest: mode=/d' -e '/^# wqtest-done$/d' "$res"
if ! splats=$("$top/ci/splat.sh" "$out/console.log"); then
	echo "demo: kernel splat in $out/console.log:" >&2
	echo "$splats" >&2
	exit 1
fi
