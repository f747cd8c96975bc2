#!/bin/bash
# make cost: where the stat tracer's cost per work item goes, in executed
# instructions.  Boots the kernel "make bench-vanilla" measures (the series,
# jump labels, -O2: kernel-patches/distro.config) under QEMU's -icount with
# the insncount plugin (ci/insn/), and runs guest/cost.sh: each wqbench
# workload with nothing watching, with the stat tracer, and with the four
# stock events into the ring buffer.  Every count is of instructions the
# guest executed, so it is the same on a quiet host and a busy one.
# Prints, and keeps in build/cost[-6.12]/cost.txt:
#   - per workload and way: kernel instructions per item, the overhead over
#     nothing, and the stat tracer's overhead over the ring buffer's;
#   - per workload, the functions whose instructions per item grew most
#     with the stat tracer on: calls, instructions and locked
#     read-modify-writes per item.
# SERIES (the kernel's own) and COST_NAME (the tree, bench-patched[-6.12])
# measure another series, into build/COST_NAME-cost.
# COST_CPUS (1): the guest's vCPUs.  One, because the guest stops at
# "Booting SMP configuration" with two under -icount (QEMU 7.2, TCG); what
# many CPUs at once cost (the "same" workload) is make bench's, in wall
# time.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 2
out=$top/build/cost
[ "$wq_kver" = 6.1 ] || out=$out-$wq_kver
name=bench-patched
[ "$wq_kver" = 6.1 ] || name=bench-patched-$wq_kver
if [ -n "${COST_NAME:-}" ]; then
	name=$COST_NAME
	out=$top/build/$name-cost
fi
k=$top/kernel-patches
mkdir -p "$out"

die() { echo "cost: $*" >&2; exit 2; }

"$top/ci/build.sh" "$name" "$k/guest.config" "$k/wqstat.config" "$k/mm.config" \
	"$k/distro.config" >&2 || die "the build of $name failed"
gcc -Wall -Wextra -O2 -shared -fPIC -fvisibility=hidden -o "$out/insncount.so" \
	"$top/ci/insn/insncount.c" || die "the plugin does not build"
vmlinux=$top/build/$name/vmlinux
nm -S --defined-only "$vmlinux" | awk 'NF == 4 && $3 ~ /^[tTwW]$/' > "$out/map" ||
	die "nm $vmlinux failed"
mark=$(awk '$4 == "tracing_mark_write" { print $1 }' "$out/map")
[ -n "$mark" ] || die "no tracing_mark_write in $vmlinux"

rm -f "$out/insn.txt"
QEMU_ICOUNT=shift=0,sleep=off GUEST_CPUS=${COST_CPUS:-1} GUEST_MEM=2048 \
QEMU_EXTRA="-plugin $out/insncount.so,map=$out/map,mark=$mark,out=$out/insn.txt" \
WQ_USER_SCRIPT=$top/guest/cost.sh WQ_PROGRESS=cost \
	"$top/ci/guest.sh" "$name" script "$out/guest" tsc=reliable
rc=$?
guest_done cost "$out/guest" $rc || exit $?
[ -s "$out/insn.txt" ] || die "the plugin wrote no report ($out/guest/qemu.log)"
grep -q '^# cost: done' "$out/guest/results.txt" || die "the guest did not finish: $out/guest/results.txt"

# the report: the guest's "phase N WAY WORKLOAD ITEMS" lines name the
# plugin's phases
awk -v cpus="${COST_CPUS:-1}" '
	FNR == NR { if ($1 == "phase") { way[$2] = $3; wl[$2] = $4; items[$2] = $5; ways[$3] = 1; wls[$4] = 1 } next }
	$1 == "phase" { p = $2; next }
	/^#/ { next }
	p in way {
		k = way[p] SUBSEP wl[p]
		total[k] += $3
		c[k, $1] += $2; n[k, $1] += $3; l[k, $1] += $4; fn[$1] = 1; it[k] = items[p]
	}
	END {
		printf "%-8s %-8s %8s %12s %12s %12s\n", "WORKLOAD", "WAY", "ITEMS", "INSN/ITEM", "OVERHEAD", "xRINGBUF_OH"
		for (w in wls) for (v in ways) {
			k = v SUBSEP w; z = "nothing" SUBSEP w; s = "stock" SUBSEP w
			if (!it[k]) continue
			per = total[k] / it[k]; oh = per - total[z] / it[z]
			rb = total[s] / it[s] - total[z] / it[z]
			printf "%-8s %-8s %8d %12.0f %12.0f %12s\n", w, v, it[k], per, oh,
				v == "nothing" || v == "stock" ? "-" : sprintf("%.2f", oh / rb)
		}
		for (w in wls) {
			k = "stat" SUBSEP w; z = "nothing" SUBSEP w
			if (!it[k] || !it[z]) continue
			printf "\n# %s: the functions that grew most with the stat tracer, per item (%d vCPUs)\n", w, cpus
			printf "%-36s %9s %9s %9s\n", "FUNCTION", "CALLS", "INSNS", "LOCKED"
			for (f in fn) {
				d = n[k, f] / it[k] - n[z, f] / it[z]
				if (d >= 1 || (f ~ /^wqstat_/ && n[k, f]))
					printf "%-36s %9.2f %9.1f %9.2f\n", f,
						c[k, f] / it[k] - c[z, f] / it[z], d,
						l[k, f] / it[k] - l[z, f] / it[z] | "sort -k3,3nr"
			}
			close("sort -k3,3nr")
		}
	}' "$out/guest/results.txt" "$out/insn.txt" > "$out/cost.txt"
echo "# make cost: the $wq_kver series, $(make -s -C "$top/build/$name" kernelversion), -icount shift=0, ${COST_CPUS:-1} vCPU(s); instructions the guest executed" | cat - "$out/cost.txt" | tee "$out/cost.txt.tmp"
mv "$out/cost.txt.tmp" "$out/cost.txt"
