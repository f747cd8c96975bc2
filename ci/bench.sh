#!/bin/bash
# make bench: boot the patched guest three times and run guest/bench.sh:
# every workload under every way of watching, interleaved, 5 rounds; the
# bpftrace script against the stat file; I/O to a loop device; the cost of
# reading a 10,000-row table (phase main); the cost per item with up to
# 131,072 live rows (phase rows); destroy_workqueue() (phase destroy); then
# fio with the tracer off and on, in turns, on the kernel of
# kernel-patches/distro.config (phase fio; alone: make bench-fio, with
# FIO_ROUNDS=N rounds, 5 by default).  The
# tables are printed and kept in build/bench/bench.txt (KERNEL=6.12: the
# 6.12 kernel, build/bench-6.12/).
# make bench-vanilla (ci/bench.sh vanilla): the same workloads with nothing
# watching, on the patched kernel (tracer off) and on unpatched 6.1, both
# built from the same config plus kernel-patches/distro.config (jump labels,
# -O2), in alternating boots; prints patched/vanilla.  The guests run with
# QEMU's -icount shift=0,sleep=off on one vCPU: their clock then counts
# executed instructions, so "ns per item" is instructions per item, and the
# same kernel gives the same count on every boot (TCG's wall time moved
# far more than the 1% this is to resolve between boots of one kernel).
# BENCH_ICOUNT= (empty) measures wall time on 2 vCPUs instead.
# ci/bench.sh placebo: the same, but the kernel compared with vanilla is
# vanilla plus an unused 192-byte function at the top of workqueue.c
# (ci/placebo/): a control that shows how far a change of code layout
# alone moves these numbers.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 2
out=$top/build/bench
[ "$wq_kver" = 6.1 ] || out=$out-$wq_kver
mkdir -p "$out"
export GUEST_MEM=${GUEST_MEM:-2048} GUEST_TIMEOUT=${GUEST_TIMEOUT:-2400}
"$top/ci/deps.sh" linux-perf bpftrace trace-cmd linux-libc-dev fio || exit 2
# run_bench NAME OUTDIR ARGS...: one bench boot; prints its table
run_bench() {
	local name=$1 dir=$2
	shift 2
	# tsc=reliable: QEMU's TCG derives every vCPU's TSC from one host
	# clock, but the guest finds no invariant-TSC flag, calls the TSCs
	# unsynchronized and keeps time with the HPET, an emulated MMIO
	# device: each clock read then costs a trap that no machine with an
	# invariant TSC pays.  Both kernels and every way of watching get it.
	WQ_PROGRESS=bench-$name WQ_WITH_PERF=${WQ_WITH_PERF-1} "$top/ci/guest.sh" "$name" bench "$dir" tsc=reliable "$@"
	local rc=$?
	guest_done bench "$dir" $rc || return $?
	guest_output "$dir/results.txt"
}

# fio_bench: build the distro-like kernel and boot it with fio: the table
# FIO (one line a load: the medians off and on, their range, and on/off)
fio_bench() {
	local k=$top/kernel-patches fname=bench-patched
	[ "$wq_kver" = 6.1 ] || fname=bench-patched-$wq_kver
	"$top/ci/build.sh" "$fname" "$k/guest.config" "$k/wqstat.config" "$k/mm.config" \
		"$k/distro.config" >&2 || { echo "bench: the $fname build failed" >&2; return 2; }
	WQ_WITH_PERF= WQ_WITH_FIO=1 run_bench "$fname" "$out/fio" wqbench.phase=fio \
		${FIO_ROUNDS:+wqbench.fio_rounds=$FIO_ROUNDS} > "$out/fio.raw" || return $?
	cat "$out/fio.raw"
	grep -q '^FIO ' "$out/fio.raw" &&
		! grep -q -e '^# skip fio' -e '^# fio .* failed' -e '^# fio .*: no result' "$out/fio.raw" ||
		{ echo "bench: fio gave no whole table (above; log: $out/fio/console.log)" >&2; return 1; }
}

case ${1:-} in
'')
	"$top/ci/build.sh" >&2 || { echo "bench: the build failed" >&2; exit 2; }
	# three boots: the ways of watching (capacity 16,384, as before);
	# the rows phase (131,072 rows and room for the rest); destroy at
	# the default capacity.  The last two need neither perf nor
	# bpftrace, so they boot the smaller image.  Then fio's boot, on
	# another kernel (fio_bench).
	{
		run_bench "$wq_name" "$out/patched" workqueue_stat_capacity=16384 || exit $?
		WQ_WITH_PERF= GUEST_MEM=3072 run_bench "$wq_name" "$out/rows" workqueue_stat_capacity=135168 wqbench.phase=rows || exit $?
		WQ_WITH_PERF= run_bench "$wq_name" "$out/destroy" wqbench.phase=destroy || exit $?
		# fio on the kernel of kernel-patches/distro.config (fio needs
		# System V IPC, which tinyconfig drops; make cost's kernel)
		fio_bench || exit $?
	} | tee "$out/bench.txt"
	exit "${PIPESTATUS[0]}" ;;
fio)
	fio_bench | tee "$out/fio.txt"
	exit "${PIPESTATUS[0]}" ;;
vanilla) test=bench-patched label=PATCHED mode=vanilla ;;
placebo) test=bench-placebo label=PLACEBO mode=placebo ;;
*) echo "usage: ci/bench.sh [vanilla|placebo|fio]" >&2; exit 2 ;;
esac
# the vanilla and placebo trees and ci/placebo's patch are 6.1's
if [ "$wq_kver" != 6.1 ]; then
	echo "bench: make bench-$mode is for 6.1 only (ci/placebo/ patches 6.1's workqueue.c); KERNEL=$wq_kver make bench runs the ways of watching" >&2
	exit 2
fi

k=$top/kernel-patches
common=("$k/guest.config" "$k/mm.config" "$k/distro.config")
SERIES=none "$top/ci/build.sh" bench-vanilla "${common[@]}" >&2 ||
	{ echo "bench: the vanilla build failed" >&2; exit 2; }
if [ $test = bench-placebo ]; then
	SERIES=$top/ci/placebo/series "$top/ci/build.sh" bench-placebo "${common[@]}" >&2
else
	"$top/ci/build.sh" bench-patched "$k/guest.config" "$k/wqstat.config" "$k/mm.config" "$k/distro.config" >&2
fi || { echo "bench: the $test build failed" >&2; exit 2; }

icount=${BENCH_ICOUNT-shift=0,sleep=off}
unit=ns
if [ -n "$icount" ]; then
	export QEMU_ICOUNT=$icount GUEST_CPUS=1
	unit=insn
fi
: > "$out/$mode-samples"
for round in 1 2; do
	for kern in $test bench-vanilla; do
		WQ_WITH_PERF= run_bench $kern "$out/$mode-$kern-$round" wqbench.ways=nothing wqbench.rounds=5 > "$out/$mode-$kern-$round.txt" || exit $?
		awk -v k=$kern '$2 == "nothing" && $3 ~ /^[0-9]+$/ { print k, $1, $3 }' "$out/$mode-$kern-$round.txt" >> "$out/$mode-samples"
	done
done
# per kernel and workload: the median of the two boots' medians; and
# whether the boots agreed (under -icount they should, to the instruction)
awk -v t=$test -v label=$label -v unit=$unit '{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; wl[$2] = 1 }
	function med(k) { return n[k] == 1 ? v[k, 1] : (v[k, 1] + v[k, 2]) / 2 }
	function spread(k) { return n[k] == 1 ? 0 : v[k, 2] - v[k, 1] }
	END {
		printf "%-8s %16s %16s %28s %14s\n", "WORKLOAD", label "_" unit, "VANILLA_" unit, label "/VANILLA_throughput", "BOOT2-BOOT1"
		for (w in wl) {
			p = med(t SUBSEP w); q = med("bench-vanilla" SUBSEP w)
			printf "%-8s %16g %16g %28.3f %14s\n", w, p, q, p ? q / p : 0,
				sprintf("%+d/%+d", spread(t SUBSEP w), spread("bench-vanilla" SUBSEP w))
		}
	}' "$out/$mode-samples" | (read -r h; echo "$h"; sort) | tee "$out/$mode.txt"
how="medians of 5 rounds per boot, 2 boots per kernel"
[ -z "$icount" ] || how="$how; -icount $icount, 1 vCPU: $unit = instructions executed"
if [ $test = bench-placebo ]; then
	echo "(a control: vanilla with its code moved by 192 bytes; $how; how far from 1.000 this is, is what layout alone does)"
else
	echo "(tracer off on the patched kernel; $how; >= 0.99 means off costs nothing measurable)"
fi
