#!/bin/bash
# make check: host tests, the guest suites on the patched 6.1 kernel, the
# reliability suite on the debug kernel and, beside it, the guest suites on
# the patched 6.12 kernel, [ftrace] with and without the series, then the
# cross builds.  KERNEL=6.12 make check: the host tests, the 6.12 suites,
# [ftrace] on 6.12 and the 6.12 cross builds (the debug kernel is 6.1's
# only: docs/kernels.md says why).
# WQ_HOST_LOAD=N runs N busy loops on the host meanwhile (make check-stress).
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export TALLY=$top/build/check.tally
mkdir -p "$top/build"
: > "$TALLY"
start=$(date +%s)
status=0

. "$top/ci/lib.sh"
wq_kernel || exit 2
kver=$wq_kver

# the disk, before anything: a cold run leaves about WQ_DISK_GB in build/
# (kernel trees, images: 15 GB after a fresh clone's run of 083c578; 18
# leaves room for what a run holds only for a while, the stages it swaps
# in, dracut's work tree, the swap images), and a disk that
# fills up halfway fails every later step with errors that do not say why
# (CI, 2026-12-07: "No space left on device" after 161 s, six failures).
# What build/ holds already counts: a warm run rewrites little.  At least
# 2 GB free in any case, for the images and logs every run writes anew
disk_need=${WQ_DISK_GB:-18}
if ! [[ $disk_need =~ ^[0-9]{1,4}$ ]]; then
	echo "WQ_DISK_GB=$disk_need: not a number of GB" >&2
	exit 2
fi
disk_held=$(du -sk "$top/build" 2> /dev/null | cut -f1)
disk_free=$(df -Pk "$top/build" | awk 'NR == 2 { print $4 }')
if [ -z "$disk_free" ] || (( disk_free < 2 * 1048576 )) ||
   (( disk_free + ${disk_held:-0} < disk_need * 1048576 )); then
	printf 'make check: not enough disk: a cold run fills build/ with about %d GB (WQ_DISK_GB); build/ holds %d.%d GB and %s has %d.%d GB free (at least 2 needed)\n' \
		"$disk_need" $(( ${disk_held:-0} / 1048576 )) $(( ${disk_held:-0} % 1048576 * 10 / 1048576 )) \
		"$(df -P "$top/build" | awk 'NR == 2 { print $6 }')" \
		$(( ${disk_free:-0} / 1048576 )) $(( ${disk_free:-0} % 1048576 * 10 / 1048576 )) >&2
	exit 2
fi

# WQ_HOST_LOAD=N: N busy loops on the host for the whole run (make
# check-stress: one per host core), so that the guests' vCPUs are
# descheduled as on a build server; the tests must pass all the same
hogs=() prebuild_pid= debug_pid= host_pid=
# on every way out: the busy loops, the background builds and the debug
# kernel's boots stopped
cleanup() {
	[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2> /dev/null
	[ -z "$prebuild_pid" ] || kill -- -"$prebuild_pid" 2> /dev/null
	[ -z "$debug_pid" ] || kill -- -"$debug_pid" 2> /dev/null
	[ -z "$host_pid" ] || kill -- -"$host_pid" 2> /dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
if [ -n "${WQ_HOST_LOAD:-}" ] && [ "$WQ_HOST_LOAD" != 0 ]; then
	if ! [[ $WQ_HOST_LOAD =~ ^[1-9][0-9]{0,2}$ ]]; then
		echo "WQ_HOST_LOAD=$WQ_HOST_LOAD: not a number of busy loops (1 to 999)" >&2
		exit 2
	fi
	for _ in $(seq "$WQ_HOST_LOAD"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	echo "# host load: $WQ_HOST_LOAD busy loops beside the run, on $(nproc) host cores" >&2
fi

# result OK|FAIL|SKIP LINE: one line of the report, counted in the tally
result() {
	case $1 in
	OK) echo "ok - $2"; echo "1 0 0" >> "$TALLY" ;;
	SKIP) echo "ok - $2"; echo "0 0 1" >> "$TALLY" ;;
	*) echo "not ok - $2"; echo "0 1 0" >> "$TALLY"; status=1 ;;
	esac
}

# timed LABEL COMMAND...: run COMMAND and note in build/check-times.txt
# when it started and ended, in seconds from the start of the run, how long
# it took and the CPU time it used, its children's included (steps overlap:
# the host tests, the prebuild and the debug boots run beside others).
# COMMAND runs in a subshell, whose own and reaped children's times are
# the step's alone; its exit status is COMMAND's
TIMES=$top/build/check-times.txt
: > "$TIMES"
timed() {
	local label=$1 t0 rc cpuf cpu
	shift
	cpuf=$(mktemp "$top/build/check-cpu.XXXXXX")
	t0=$(date +%s)
	(
		"$@"
		rc=$?
		# utime, stime, cutime, cstime: fields 14 to 17 of stat(5)
		read -ra f < /proc/$BASHPID/stat
		echo $(( f[13] + f[14] + f[15] + f[16] )) > "$cpuf"
		exit $rc
	)
	rc=$?
	cpu=$(( $(cat "$cpuf" 2> /dev/null || echo 0) / $(getconf CLK_TCK) ))
	rm -f "$cpuf"
	printf '%6d s  cpu %5d s  from %5d to %5d  %s\n' $(( $(date +%s) - t0 )) "$cpu" \
		$(( t0 - start )) $(( $(date +%s) - start )) "$label" >> "$TIMES"
	return $rc
}

# boot KERNEL SUITE LABEL [KERNEL-ARGS...]: one guest boot that runs the
# tests of SUITE (ci/suites; SUITE+OTHER: both suites' tests), each named
# on its command line, and must report each of them once.  The results go
# to build/guest/check[-SUITE][-$SUFFIX]
boot() {
	local kern=$1 suite=$2 label=$3 out tests rc s
	shift 3
	out=$top/build/guest/check-${suite%%+*}
	[ "${suite%%+*}" != main ] || out=$top/build/guest/check
	out=$out${SUFFIX:+-$SUFFIX}
	tests=$(for s in ${suite//+/ }; do suite_tests "$s"; done | tr '\n' ' ')
	echo "# $label: booting build/$kern; tests: $(echo $tests | wc -w)" >&2
	WQ_PROGRESS=$label timed "boot $label ($(echo $tests | wc -w) tests, dracut included)" \
		"$top/ci/guest.sh" "$kern" check "$out" "$@" "wqtest.tests=$(echo $tests | tr ' ' ,)"
	rc=$?
	REPORT_EXPECT=$tests "$top/ci/report.sh" "$label" "$out/results.txt" "$out/console.log" "$rc" || status=1
	grep -h '^# figures:' "$out/results.txt" 2> /dev/null | sed "s/^/# $label: /"
	echo "# $label logs: $out/console.log (kernel), $out/results.txt (tests)"
}

# 1. host tests (no guest needed): wqstat's unit and command-line tests,
# in the background beside the first kernel's build (they need no kernel;
# a process group of their own, for cleanup()); their report goes to
# build/check-host.report, printed by host_wait
# (and the events' clients, which the clients suite's image carries)
timed "packages (ci/deps.sh)" "$top/ci/deps.sh" trace-cmd linux-perf bpftrace linux-libc-dev || exit 2
# host_tests: make -C stat-tracer test and its report; 1 on a failure
host_tests() {
	local out=$top/build/host-wqstat.tap watcher= rc
	mkdir -p "$top/build/stat-tracer"
	: > "$out"
	# a count of results now and then, in a log; on a terminal the
	# kernel build's progress line has the one line there is
	if [ ! -t 2 ]; then
		build_progress "$out" "# host tests" "" '^(not )?ok ' results > /dev/null &
		watcher=$!
	fi
	timed "host tests (make -C stat-tracer test)" \
		make -s -C "$top/stat-tracer" O="$top/build/stat-tracer" WERROR=-Werror test > "$out" 2>&1
	rc=$?
	# the watcher only prints: its end, killed, is not an error
	if [ -n "$watcher" ]; then
		kill "$watcher" 2> /dev/null
		wait "$watcher" 2> /dev/null
	fi
	REPORT_WHAT="make -C stat-tracer test" "$top/ci/report.sh" host-wqstat "$out" - "$rc"
}
echo "# host tests: wqstat's unit and command-line tests, mutated snapshots, 30 s of libFuzzer, top under tmux, the man page, Prometheus output through promtool, node_exporter and a Prometheus server (beside the kernel build)" >&2
set -m
host_tests < /dev/null > "$top/build/check-host.report" &
host_pid=$!
set +m
# host_wait: wait for the host tests and print their report (once)
host_wait() {
	[ -n "$host_pid" ] || return 0
	wait "$host_pid" || status=1
	host_pid=
	cat "$top/build/check-host.report"
}
unlisted=$(suites_unlisted | tr '\n' ' ')
if [ -z "$unlisted" ]; then
	result OK "suites: every guest test is in a suite of ci/suites"
else
	result FAIL "suites: in no suite of ci/suites, so never run: $unlisted"
fi
# the splat check itself: the two upstream splats it tolerates, and each way
# to not be them
splat_out=$("$top/ci/splat-tests/run.sh")
splat_rc=$?
while read -r line; do
	case $line in
	"ok - "*) result OK "splat-check: ${line#ok - }" ;;
	"not ok - "*) result FAIL "splat-check: ${line#not ok - }" ;;
	esac
done <<< "$splat_out"
if [ $splat_rc != 0 ] && ! grep -q '^not ok' <<< "$splat_out"; then
	result FAIL "splat-check: ci/splat-tests/run.sh exited $splat_rc without a failed check"
fi

# prebuild: what the later steps of a full run build - the debug kernel,
# 6.12's, the cross builds - built in the background at nice 10 while the
# 6.1 guests boot: a TCG guest leaves about half of two cores idle (its
# tests sleep, wait on timers and flush), which the builds take.  Each step
# builds its tree again as before, and finds it built or waits on its lock.
# The packages they need are installed first, here, so that two apt-gets
# never meet.
prebuild_start() {
	"$top/ci/deps.sh" linux-source-6.12 gcc-aarch64-linux-gnu linux-config-6.1 linux-config-6.12 \
		sparse dwarves > /dev/null || return 0
	# a process group of its own, so that cleanup() stops all of it
	set -m
	(
		renice -n 10 $BASHPID > /dev/null
		[ "${WQ_SKIP_DEBUG:-0}" = 1 ] || timed "prebuild: the debug kernel (nice 10)" \
			"$top/ci/build.sh" debug "$top/kernel-patches/guest.config" \
			"$top/kernel-patches/wqstat.config" "$top/kernel-patches/debug.config"
		timed "prebuild: the 6.12 kernel (nice 10)" wq_run_kernel 6.12 "$top/ci/build.sh"
		timed "prebuild: the ftrace kernel (nice 10)" "$top/ci/build.sh" ftrace "${ftrace_frags[@]}"
		SERIES=none timed "prebuild: the ftrace kernel without the series (nice 10)" \
			"$top/ci/build.sh" ftrace-vanilla "${ftrace_vanilla_frags[@]}"
		# the guests' kernels are built: back to nice 10 (a step that
		# waited for them has put the group to nice 0), behind the boots
		renice -n 10 $BASHPID > /dev/null
		for arch in i386 arm64; do
			timed "prebuild: the $arch cross build (nice 10)" wq_run_kernel 6.1 "$top/ci/cross.sh" "$arch"
		done
		for kf in 6.1:none 6.12:none 6.12:rt; do
			timed "prebuild: Debian's ${kf#*:} config of ${kf%:*}, W=1 and sparse (nice 10)" \
				wq_run_kernel "${kf%:*}" "$top/ci/distro.sh" "${kf#*:}"
		done
	) < /dev/null > "$top/build/prebuild.log" 2>&1 &
	prebuild_pid=$!
	set +m
	echo "# prebuild: the debug and 6.12 kernels and the cross builds, in the background at nice 10 (build/prebuild.log)" >&2
}

# prebuild_hurry: the step that needs the prebuild's work now waits for it:
# the prebuild goes back to nice 0 (beside WQ_HOST_LOAD's loops at nice 0,
# at nice 10 it would hardly move)
prebuild_hurry() {
	[ -z "$prebuild_pid" ] || renice -n 0 -g "$prebuild_pid" > /dev/null 2>&1 || true
}

# normal_suites VERSION: build the normal kernel of VERSION and boot its
# suites; 1 when it did not build (nothing booted)
normal_suites() {
	local v=$1 name main=main label=guest
	wq_kernel "$v" || return 1
	name=$wq_name
	[ "$v" = 6.1 ] || prebuild_hurry
	if ! timed "the $v kernel, its test modules and image files" wq_run_kernel "$v" "$top/ci/build.sh"; then
		host_wait
		result FAIL "build: the $v guest kernel or its files did not build"
		return 1
	fi
	# the host tests' report before the first guest's
	host_wait
	if [ "$v" != 6.1 ]; then
		# the tests of what 6.12 has and 6.1 has not (BH workqueues...)
		main=main+main-$v
		label=guest-$v
	fi
	SUFFIX=
	[ "$v" = 6.1 ] || SUFFIX=$v
	[ "$v" != 6.1 ] || [ "$kver" != 6.1 ] || prebuild_start
	boot "$name" "$main" "$label"
	# the stat tracer on from boot with a tiny table
	boot "$name" boot-tiny "$label-boot-tiny" workqueue_stat=1 workqueue_stat_capacity=16
	# every parameter of the tracer given garbage, empty, zero and huge
	# values; the boot must go on with the defaults
	boot "$name" boot-badargs "$label-boot-badargs" workqueue_stat=maybe workqueue_stat= \
		workqueue_stat=99999999999999999999 workqueue_stat_capacity=0 \
		workqueue_stat_capacity=banana workqueue_stat_capacity=-5 \
		workqueue_stat_capacity=99999999999999999999 workqueue_stat_capacity=2000000
	# the mm_fault and kpageflags tests: a swap disk (a file in build/,
	# made a swap area here) and 3.5 GiB, so that QEMU leaves a hole in
	# physical memory below 4 GiB (the NOPAGE flag)
	rm -f "$top/build/swap.img"
	truncate -s 64M "$top/build/swap.img"
	mkswap -q "$top/build/swap.img" > /dev/null
	GUEST_DISK=$top/build/swap.img GUEST_MEM=3584 boot "$name" mm "$label-mm"
	# the events read by their clients: trace-cmd, perf and bpftrace, in
	# the image that has them, with the swap disk again (mm_fault_swapin).
	# 2 GiB: that image (262 MB) is held twice in memory, as the initrd
	# and unpacked, which left 1 GiB about 450 MB for bpftrace's LLVM and
	# the workload; once the workload turned swap on, a loaded run's
	# 82-client-bpftrace paged for 270 s and met its limit
	mkswap -q "$top/build/swap.img" > /dev/null
	GUEST_MEM=2048 WQ_WITH_PERF=1 GUEST_DISK=$top/build/swap.img boot "$name" clients "$label-clients"
	SUFFIX=
	return 0
}

# debug_suites: the reliability suite on the debug kernel
# (kernel-patches/debug.config: lockdep, KASAN, debug objects, the
# watchdogs...): the tracepoint and stat tests again, the stress runs, the
# unload; then the stress with a tiny table.  Exit status: 1 on a failure
debug_suites() {
	local second
	if [ "${WQ_SKIP_DEBUG:-0}" = 1 ]; then
		result SKIP "debug-kernel suite # SKIP WQ_SKIP_DEBUG=1 was set"
	elif ! timed "the debug kernel (what the prebuild left)" "$top/ci/build.sh" debug \
			"$top/kernel-patches/guest.config" "$top/kernel-patches/wqstat.config" \
			"$top/kernel-patches/debug.config"; then
		result FAIL "build: the debug kernel or its files did not build"
	else
		# hang detectors, not measures of speed, scaled to what this
		# kernel's tests cost (docs/pipeline.md, "Hang detectors"):
		# each test 900 s (its slowest took 116 s on a quiet host,
		# the normal kernel's 40 s of its 300 s), each boot 3000 s
		# (the longer half took 747 s quiet, 1207 s beside two busy
		# loops and a make mutants)
		export GUEST_TIMEOUT=${GUEST_TIMEOUT:-3000}
		# [debug-2] in a second guest at once: this kernel's boots
		# are the longest path of the run (its tests took 565 s in
		# one boot); its report follows the first's
		(
			boot debug debug-2 debug-2 wqtest.timeout=900
			exit $status
		) < /dev/null > "$top/build/check-debug-2.report" &
		second=$!
		boot debug debug debug wqtest.timeout=900
		boot debug debug-tiny debug-tiny wqtest.timeout=900 workqueue_stat_capacity=16
		wait "$second" || status=1
		cat "$top/build/check-debug-2.report"
	fi
	return $status
}

# the kernel of the other trace_stat users, with and without the series
# (ci/lib.sh)
wq_ftrace_frags vanilla
ftrace_vanilla_frags=("${wq_frags[@]}")
wq_ftrace_frags
ftrace_frags=("${wq_frags[@]}")

# ftrace_suites VERSION: [ftrace] on the patched kernel of VERSION and, at
# the same time in a second guest, on the unpatched one (the reference: the
# same tests must pass there).  The trees: ftrace and ftrace-vanilla for
# 6.1, ftrace-6.12 and ftrace-vanilla-6.12 for 6.12
ftrace_suites() {
	local v=$1 sfx= second
	[ "$v" = 6.1 ] || sfx=-$v
	if ! timed "the ftrace kernels of $v, with and without the series (what the prebuild left)" \
			wq_run_kernel "$v" "$top/ci/build.sh" "ftrace$sfx" "${ftrace_frags[@]}" ||
	   ! SERIES=none timed "the ftrace kernel of $v without the series" \
			wq_run_kernel "$v" "$top/ci/build.sh" "ftrace-vanilla$sfx" "${ftrace_vanilla_frags[@]}"; then
		result FAIL "build: the ftrace kernels of $v (kernel-patches/ftrace.config) did not build"
		return 1
	fi
	(
		SUFFIX=${sfx#-}${sfx:+-}vanilla boot "ftrace-vanilla$sfx" ftrace "ftrace$sfx-vanilla"
		exit $status
	) < /dev/null > "$top/build/check-ftrace$sfx-vanilla.report" &
	second=$!
	SUFFIX=${sfx#-} boot "ftrace$sfx" ftrace "ftrace$sfx"
	SUFFIX=
	wait "$second" || status=1
	cat "$top/build/check-ftrace$sfx-vanilla.report"
}

# cross_builds VERSION: the series of VERSION built for 32-bit x86
# (vmlinux linked: a 64-bit division would not link) and for arm64 (its
# objects), with -Werror on its files
cross_builds() {
	local arch sfx=
	[ "$1" = 6.1 ] || sfx=-$1
	for arch in i386 arm64; do
		if line=$(timed "the $arch cross build${sfx:+ of $1} (what the prebuild left)" \
				wq_run_kernel "$1" "$top/ci/cross.sh" "$arch"); then
			result OK "cross-build${sfx:+ $1} $line"
		else
			result FAIL "cross-build${sfx:+ $1} $arch: see build/cross-$arch$sfx.log"
		fi
	done
}

# distro_builds VERSION FLAVOUR...: the series' files compiled with
# Debian's configs of VERSION, W=1 and sparse, unpatched and patched: no
# new warning
distro_builds() {
	local v=$1 f line sfx=
	shift
	[ "$v" = 6.1 ] || sfx=-$v
	for f in "$@"; do
		if line=$(timed "Debian's $f config of $v (what the prebuild left)" \
				wq_run_kernel "$v" "$top/ci/distro.sh" "$f"); then
			result OK "distro-config $v $line"
		else
			result FAIL "distro-config $v $f: see build/distro-$f$sfx.log"
		fi
	done
}

if [ "$kver" != 6.1 ]; then
	# KERNEL=6.12: its suites, [ftrace] on it with and without the
	# series, its cross builds and Debian's configs
	if normal_suites "$kver"; then
		ftrace_suites "$kver"
		cross_builds "$kver"
		distro_builds "$kver" none rt
	fi
# 2. the guest suites on the normal kernel; when it does not build, stop:
# the debug kernel would take as long again to fail the same way
elif ! normal_suites 6.1; then
	result FAIL "build: the 6.1 guest kernel did not build; the cross builds, the debug kernel and 6.12 were not tried"
else

	# 3. the reliability suite on the debug kernel, in the background (a
	# process group of its own, for cleanup()), and 4. the same suites as
	# 6.1's on the patched 6.12 kernel beside it: two TCG guests of 2
	# vCPUs fill the two host cores that one leaves half idle, and every
	# test's oracle holds on a busy host.  The debug suites' report is
	# printed after 6.12's; their progress lines go to stderr as they come.
	prebuild_hurry
	set -m
	debug_suites < /dev/null > "$top/build/check-debug.report" &
	debug_pid=$!
	set +m
	echo "# debug: the debug kernel's suites run in the background beside 6.12's (their report follows 6.12's)" >&2
	normal_suites 6.12
	wait "$debug_pid" || status=1
	debug_pid=
	cat "$top/build/check-debug.report"

	# 5. the other users of trace_stat, with and without the series
	prebuild_hurry
	ftrace_suites 6.1

	# 6. the series built for i386 and arm64, once the prebuild is done
	[ -z "$prebuild_pid" ] || wait "$prebuild_pid"
	prebuild_pid=
	cross_builds 6.1
	distro_builds 6.1 none
	distro_builds 6.12 none rt
fi

# a run that stopped before a kernel was built has not printed them yet
host_wait
# where the time went, step by step, on stderr
if [ -s "$TIMES" ]; then
	echo "# where the time went, by start (seconds from the start of the run; build/check-times.txt):" >&2
	sort -k7,7n -s "$TIMES" | sed 's/^/#   /' >&2
fi
read -r p f s < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$TALLY")
echo "# make check took $(( $(date +%s) - start )) s"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ $status -eq 0 ]
