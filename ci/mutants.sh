#!/bin/bash
# make mutants [MUTANTS="k04 h01 ..."]: prove that the tests catch bugs.
# Each ci/mutants/*.mut is one small, plausible bug, a one-line change (see
# ci/mutate.py).  For each, the changed kernel (build/mutant, incremental,
# with ccache) or wqstat is built and the suites that cover the file are
# run: a kernel mutant boots the guest with the tests its "tests:" line
# names (wqtest.failfast=1: the first failure kills it), a wqstat mutant
# runs the host tests.  Prints "killed" or "SURVIVED" per mutant and last
# "mutants: K killed of N"; exits 1 if any survived or did not build.
# The unmutated tree must pass the same suites first, or every mutant
# would be killed by a test that fails anyway.  A mutant with "kernel: 6.12"
# changes the 6.12 series' code (build/mutant-6.12, booted with that
# kernel's tests); one with "kernel: ftrace" changes 6.1's in the kernel of
# [ftrace] (build/mutant-ftrace: kernel-patches/ftrace.config, for the
# other users of trace_stat.c); the others change 6.1's.  MUTANT_TESTS=GLOBS runs the
# kernel mutants with those tests instead of their own (to see whether one
# test alone catches a bug).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
out=$top/build/mutants
mkdir -p "$out"
start=$(date +%s)

sel=()
for m in "$top"/ci/mutants/*.mut; do
	n=$(basename "$m" .mut)
	if [ -n "${MUTANTS:-}" ]; then
		hit=0
		for w in $MUTANTS; do [[ $n == "$w"* ]] && hit=1; done
		[ $hit = 1 ] || continue
	fi
	sel+=("$m")
done
[ ${#sel[@]} -gt 0 ] || { echo "mutants: no mutant matches MUTANTS='${MUTANTS:-}'" >&2; exit 2; }

field() {
	if [ "$1" = tests ] && [ -n "${MUTANT_TESTS:-}" ]; then
		case $(sed -n 's/^file: //p' "$2") in
		stat-tracer/*) ;;
		*) echo "$MUTANT_TESTS"; return ;;
		esac
	fi
	sed -n "s/^$1: //p" "$2"
}
elapsed() { echo "$(( $(date +%s) - start )) s"; }
# kern_of MUTANT: the kernel whose series it changes; tree_of VERSION: the
# tree in build/ that the mutants of that kernel are built in
kern_of() { local k; k=$(field kernel "$1"); echo "${k:-6.1}"; }
tree_of() { if [ "$1" = 6.1 ]; then echo mutant; else echo "mutant-$1"; fi; }
# build_tree KERNEL TREE: build the mutant tree of KERNEL (6.1, 6.12 or
# ftrace: 6.1 with the fragments of ci/check.sh's ftrace kernel)
build_tree() {
	local k=$1
	if [ "$k" = ftrace ]; then
		wq_ftrace_frags
		wq_run_kernel 6.1 "$top/ci/build.sh" "$2" "${wq_frags[@]}"
	else
		wq_run_kernel "$k" "$top/ci/build.sh" "$2"
	fi
}

mutated= mtree=
restore() {
	[ -z "$mutated" ] || git -C "$top/build/$mtree" checkout -q -- "$mutated"
	mutated=
}
trap restore EXIT
trap 'exit 130' INT TERM

# run_kernel_suite DIR GLOBS TREE: boot the mutant tree's guest with those
# tests; 0 when all passed and the run was whole and clean
run_kernel_suite() {
	local dir=$1 globs=$2 name=$3 rc perf= disk= mem=${GUEST_MEM:-1024}
	# the clients' tests (8x) need the image with trace-cmd, perf and
	# bpftrace, a swap disk and 2 GiB, as ci/check.sh boots them
	if [[ ,$globs, == *,8* ]]; then
		perf=1 disk=$out/swap.img mem=2048
		rm -f "$disk"; truncate -s 64M "$disk"; mkswap -q "$disk" > /dev/null
	fi
	WQ_WITH_PERF=$perf GUEST_DISK=$disk GUEST_MEM=$mem GUEST_TIMEOUT=${GUEST_TIMEOUT:-900} \
		"$top/ci/guest.sh" "$name" check "$dir" \
		wqtest.failfast=1 "wqtest.tests=$globs" > "$dir.log" 2>&1
	rc=$?
	guest_problems "$dir/results.txt" "$dir/console.log" $rc > "$dir.problems" &&
		! grep -q '^not ok' "$dir/results.txt"
}

# run_host_suite ROOT DIR: wqstat's host tests from ROOT/stat-tracer
run_host_suite() {
	make -s -C "$1/stat-tracer" O="$2" WERROR=-Werror FUZZ_SECONDS="${MUTANT_FUZZ_SECONDS:-10}" test > "$2.log" 2>&1
}

# the baselines: the same suites on the unmutated code must pass
declare -A globs=()
for m in "${sel[@]}"; do
	f=$(field file "$m")
	case $f in
	stat-tracer/*) ;;
	*) k=$(kern_of "$m"); globs[$k]=${globs[$k]:-},$(field tests "$m") ;;
	esac
done
hroot=$out/host-root
rm -rf "$hroot"; mkdir -p "$hroot"
cp -r "$top/stat-tracer" "$hroot/"
if ! run_host_suite "$hroot" "$out/host-base"; then
	echo "mutants: the host tests fail without a mutant; see $out/host-base.log" >&2
	exit 2
fi
for k in "${!globs[@]}"; do
	t=$(tree_of "$k")
	echo "mutants: building build/$t, the $k kernel the mutants change ($(elapsed))"
	build_tree "$k" "$t" > "$out/build-base-$t.log" 2>&1 ||
		{ echo "mutants: build/$t does not build; see $out/build-base-$t.log" >&2; exit 2; }
	g=$(echo "${globs[$k]#,}" | tr , '\n' | sort -u | paste -sd,)
	echo "mutants: the unmutated $k kernel's run of $g ($(elapsed))"
	if ! run_kernel_suite "$out/base-$t" "$g" "$t"; then
		echo "mutants: the unmutated $k kernel fails its suites; see $out/base-$t/results.txt" >&2
		cat "$out/base-$t.problems" >&2
		exit 2
	fi
done

killed=0 total=0 bad=0
for m in "${sel[@]}"; do
	n=$(basename "$m" .mut)
	f=$(field file "$m")
	total=$((total + 1))
	t0=$(date +%s)
	what=$(grep -m1 '^# ' "$m" | sed 's/^# //')
	case $f in
	stat-tracer/*)
		rm -rf "$hroot/stat-tracer" "$out/$n"; cp -r "$top/stat-tracer" "$hroot/"
		where=$(python3 "$top/ci/mutate.py" "$m" "$hroot") || { echo "INVALID  $n: it does not apply"; bad=1; continue; }
		# everything the host tests run, so that a mutant that does not
		# compile (a -Werror of clang's, say) is not taken for a kill
		if ! make -s -C "$hroot/stat-tracer" O="$out/$n" WERROR=-Werror "$out/$n/wqstat" "$out/$n/unit" \
			"$out/$n/wqstat-asan" "$out/$n/fuzz" > "$out/$n.build.log" 2>&1; then
			echo "INVALID  $n: it does not build ($out/$n.build.log)"; bad=1
		elif run_host_suite "$hroot" "$out/$n"; then
			echo "SURVIVED $n ($where): $what"
		else
			killed=$((killed + 1))
			echo "killed   $n ($where, $(( $(date +%s) - t0 )) s) by host: $(grep -m1 '^not ok' "$out/$n.log" || tail -n 1 "$out/$n.log")"
		fi ;;
	*)
		k=$(kern_of "$m")
		mtree=$(tree_of "$k")
		where=$(python3 "$top/ci/mutate.py" "$m" "$top/build/$mtree") || { echo "INVALID  $n: it does not apply"; bad=1; continue; }
		mutated=$f
		if ! build_tree "$k" "$mtree" > "$out/$n.build.log" 2>&1; then
			echo "INVALID  $n: it does not build ($out/$n.build.log)"; bad=1
		elif git -C "$top/build/$mtree" diff --quiet -- "$f"; then
			# ci/kernel.sh applies the series again when kernel-patches/
			# changed, from a clean checkout: the build was unmutated
			echo "INVALID  $n: the build undid it (kernel-patches/ changed during the run?)"; bad=1
		elif run_kernel_suite "$out/$n" "$(field tests "$m")" "$mtree"; then
			echo "SURVIVED $n ($where): $what"
		else
			killed=$((killed + 1))
			first=$(grep -m1 '^not ok' "$out/$n/results.txt" 2> /dev/null || head -n 1 "$out/$n.problems")
			echo "killed   $n ($where, $(( $(date +%s) - t0 )) s) by $first"
		fi
		restore ;;
	esac
done
# leave the mutant trees built as the series has them
for k in "${!globs[@]}"; do
	t=$(tree_of "$k")
	build_tree "$k" "$t" > "$out/build-base-$t.log" 2>&1 ||
		echo "mutants: could not rebuild build/$t unmutated" >&2
done
echo "# mutants took $(elapsed)"
echo "mutants: $killed killed of $total"
[ $killed -eq $total ] && [ $bad -eq 0 ]
