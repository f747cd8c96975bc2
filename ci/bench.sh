#!/bin/bash
# make bench: boot the patched guest once and run guest/bench.sh: every
# workload under every way of watching, interleaved, 5 rounds; then the cost
# of reading a 10,000-row table.  The table is printed and kept in
# build/bench/.
# make bench-vanilla (ci/bench.sh vanilla): the same workloads with nothing
# watching, on the patched kernel (tracer off) and on unpatched 6.1 built
# from the same config, in alternating boots; prints patched/vanilla.
# ci/bench.sh placebo: the same, but the kernel compared with vanilla is
# vanilla plus an unused 192-byte function at the top of workqueue.c
# (ci/placebo/): a control that shows how far a change of code layout
# alone moves these numbers under TCG.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
mkdir -p "$out"
export GUEST_MEM=${GUEST_MEM:-2048} GUEST_TIMEOUT=${GUEST_TIMEOUT:-2400}
"$top/ci/deps.sh" linux-perf || exit 2
"$top/ci/build.sh" linux >&2 || { echo "bench: the build failed" >&2; exit 2; }

# run_bench NAME OUTDIR ARGS...: one bench boot; prints its table
run_bench() {
	local name=$1 dir=$2
	shift 2
	# tsc=reliable: QEMU's TCG derives every vCPU's TSC from one host
	# clock, but the guest finds no invariant-TSC flag, calls the TSCs
	# unsynchronized and keeps time with the HPET, an emulated MMIO
	# device: each clock read then costs a trap that no machine with an
	# invariant TSC pays.  Both kernels and every way of watching get it.
	WQ_WITH_PERF=1 "$top/ci/guest.sh" "$name" bench "$dir" tsc=reliable "$@"
	local rc=$?
	if [ $rc -ne 0 ] || ! grep -qx '# wqtest-done' "$dir/results.txt" 2>/dev/null; then
		echo "bench: the $name guest did not finish (status $rc); see $dir/console.log" >&2
		return 2
	fi
	if ! "$top/ci/splat.sh" "$dir/console.log" >&2; then
		echo "bench: kernel splat in $dir/console.log" >&2
		return 1
	fi
	sed -e '/^# wqtest: mode=/d' -e '/^# wqtest-done$/d' "$dir/results.txt"
}

if [ "${1:-}" != vanilla ] && [ "${1:-}" != placebo ]; then
	run_bench linux "$out/patched" workqueue_stat_capacity=16384 | tee "$out/bench.txt"
	exit "${PIPESTATUS[0]}"
fi

SERIES=none "$top/ci/build.sh" vanilla "$top/kernel-patches/guest.config" "$top/kernel-patches/mm.config" >&2 ||
	{ echo "bench: the vanilla build failed" >&2; exit 2; }
test=linux
if [ "$1" = placebo ]; then
	test=placebo
	SERIES=$top/ci/placebo/series "$top/ci/build.sh" placebo "$top/kernel-patches/guest.config" \
		"$top/kernel-patches/mm.config" >&2 || { echo "bench: the placebo build failed" >&2; exit 2; }
fi
: > "$out/vanilla-samples"
for round in 1 2; do
	for k in $test vanilla; do
		run_bench $k "$out/$k-$round" wqbench.ways=nothing wqbench.rounds=5 > "$out/$k-$round.txt" || exit $?
		awk -v k=$k '$2 == "nothing" && $3 ~ /^[0-9]+$/ { print k, $1, $3 }' "$out/$k-$round.txt" >> "$out/vanilla-samples"
	done
done
# the per-boot medians, pooled: median of all medians per kernel and workload
awk -v t=$test -v label=$([ $test = placebo ] && echo PLACEBO || echo PATCHED) '{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; wl[$2] = 1 }
	function med(k,   i, j, x, a, c) {
		c = n[k]; for (i = 1; i <= c; i++) a[i] = v[k, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
	}
	END {
		printf "%-8s %14s %14s %28s\n", "WORKLOAD", label "_ns", "VANILLA_ns", label "/VANILLA_throughput"
		for (w in wl) {
			p = med(t SUBSEP w); q = med("vanilla" SUBSEP w)
			printf "%-8s %14d %14d %28.3f\n", w, p, q, p ? q / p : 0
		}
	}' "$out/vanilla-samples" | tee "$out/vanilla.txt"
if [ $test = placebo ]; then
	echo "(a control: vanilla with its code moved by 192 bytes; medians of 2 boots x 5 rounds each; how far from 1.000 this is, is what layout alone does)"
else
	echo "(tracer off on the patched kernel; medians of 2 boots x 5 rounds each; >= 0.99 means off costs nothing measurable; see ci/bench.sh placebo for the resolution)"
fi
