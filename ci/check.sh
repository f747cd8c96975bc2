#!/bin/bash
# make check: host tests, the guest suite on the patched kernel, then the
# reliability suite on the debug kernel.
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

	# a third boot: every parameter of the tracer given garbage, empty,
	# zero and huge values; the boot must go on with the defaults
	out=$top/build/guest/check-boot-badargs
	"$top/ci/guest.sh" linux check "$out" workqueue_stat=maybe workqueue_stat= \
		workqueue_stat=99999999999999999999 workqueue_stat_capacity=0 \
		workqueue_stat_capacity=banana workqueue_stat_capacity=-5 \
		workqueue_stat_capacity=99999999999999999999 workqueue_stat_capacity=2000000 \
		'wqtest.tests=*-boot-badargs*'
	rc=$?
	"$top/ci/report.sh" guest-boot-badargs "$out/results.txt" "$out/console.log" "$rc" || status=1

	# a fourth boot, for the mm_fault and kpageflags tests: a swap disk (a
	# file in build/, made a swap area here) and 3.5 GiB, so that QEMU
	# leaves a hole in physical memory below 4 GiB (the NOPAGE flag)
	out=$top/build/guest/check-mm
	rm -f "$top/build/swap.img"
	truncate -s 64M "$top/build/swap.img"
	mkswap -q "$top/build/swap.img" > /dev/null
	GUEST_DISK=$top/build/swap.img GUEST_MEM=3584 "$top/ci/guest.sh" linux check "$out" \
		'wqtest.tests=*-mm-*'
	rc=$?
	"$top/ci/report.sh" guest-mm "$out/results.txt" "$out/console.log" "$rc" || status=1
fi

# 3. the series built for 32-bit x86 (vmlinux linked: a 64-bit division
# would not link) and for arm64 (its objects), with -Werror on its files
if [ -d "$top/build/linux/.git" ]; then
	for arch in i386 arm64; do
		if line=$("$top/ci/cross.sh" "$arch"); then
			echo "ok - cross-build $line"
			echo "1 0 0" >> "$TALLY"
		else
			echo "not ok - cross-build $arch: see build/cross-$arch.log"
			echo "0 1 0" >> "$TALLY"
			status=1
		fi
	done
fi

# 4. the reliability suite on the debug kernel (kernel-patches/debug.config:
# lockdep, KASAN, debug objects, the watchdogs...): the tracepoint and stat
# tests again, the stress runs, the unload; then the stress with a tiny table
if [ "${WQ_SKIP_DEBUG:-0}" = 1 ]; then
	echo "ok - debug-kernel suite # SKIP WQ_SKIP_DEBUG=1 was set"
	echo "0 0 1" >> "$TALLY"
elif ! "$top/ci/build.sh" debug "$top/kernel-patches/guest.config" \
		"$top/kernel-patches/wqstat.config" "$top/kernel-patches/debug.config"; then
	echo "not ok - build: the debug kernel or its files did not build"
	echo "0 1 0" >> "$TALLY"
	status=1
else
	out=$top/build/guest/check-debug
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} "$top/ci/guest.sh" debug check "$out" \
		'wqtest.tests=1*,2*,3[2-9]*,60*,61*,62*'
	rc=$?
	"$top/ci/report.sh" debug "$out/results.txt" "$out/console.log" "$rc" || status=1
	grep -h '^# figures:' "$out/results.txt" | sed 's/^/# debug: /'

	out=$top/build/guest/check-debug-tiny
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} "$top/ci/guest.sh" debug check "$out" \
		workqueue_stat_capacity=16 'wqtest.tests=*-rel-tiny*'
	rc=$?
	"$top/ci/report.sh" debug-tiny "$out/results.txt" "$out/console.log" "$rc" || status=1
	grep -h '^# figures:' "$out/results.txt" | sed 's/^/# debug-tiny: /'
fi

read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$TALLY")
echo "# make check took $(( $(date +%s) - start )) s"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ $status -eq 0 ]
