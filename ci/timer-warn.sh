#!/bin/bash
# ci/timer-warn.sh [SECONDS]: look for the forward_timer_base WARN that
# 61-rel-stress-chaos showed once, on kernels with and without the series.
# Three 6.1 kernels with full preemption (guest.config + mm.config +
# ci/timer-warn/preempt.config, no checkers, so that they build fast):
#   vanilla   SERIES=none: Debian's 6.1 as it is
#   widened   SERIES=none + ci/timer-warn/series-widened: 6.1 with a 5 ms
#             preemptible pause between the two unlocked stores of
#             timers_prepare_cpu(), the race docs/pipeline.md describes
#   series    the series (its tracepoints; the stat tracer is not configured)
# Each boots once and runs ci/timer-warn/stress.sh: the test module's stress
# for SECONDS (120 by default) while vCPU 1 goes offline and online in a
# loop.  Prints, per kernel, the WARNs of forward_timer_base in its console
# and the hotplug cycles done.  Not part of make check.
#
# ci/timer-warn.sh window [ROUNDS]: the race on purpose, on vanilla and
# widened.  ci/timer-warn/twarn (a test module) leaves vCPU 1's timer base
# with a stale next_expiry and a timer whose base is vCPU 1, and re-arms
# that timer one tick after timers_prepare_cpu() began; ci/timer-warn/
# window.sh does that ROUNDS (5) times.  The WARN needs the window between
# the two stores to be open when the timer is re-armed: widened must show
# it, vanilla (whose window is two instructions) must not.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=stress
if [ "${1:-}" = window ]; then
	mode=window
	shift
fi
secs=${1:-120}
guest_script=$top/ci/timer-warn/stress.sh
kernels="vanilla widened series"
if [ $mode = window ]; then
	secs=${1:-5}
	guest_script=$top/ci/timer-warn/window.sh
	kernels="vanilla widened"
fi
k=$top/kernel-patches
frags=("$k/guest.config" "$k/mm.config" "$top/ci/timer-warn/preempt.config")
for kern in $kernels; do
	case $kern in
	vanilla) series=none ;;
	widened) series=$top/ci/timer-warn/series-widened ;;
	series) series=$k/series ;;
	esac
	name=timer-warn-$kern
	# the window's module is built and staged with the test modules
	if [ $mode = window ]; then
		mkdir -p "$top/build/modules-$name"
		cp -pru "$top/ci/timer-warn/twarn" "$top/build/modules-$name/"
	fi
	if ! SERIES=$series "$top/ci/build.sh" "$name" "${frags[@]}" > "$top/build/$name.log" 2>&1; then
		echo "timer-warn: $kern: the build failed (build/$name.log)" >&2
		exit 2
	fi
	out=$top/build/guest/$name
	script=$(mktemp)
	{ echo "set -- $secs"; cat "$guest_script"; } > "$script"
	GUEST_TIMEOUT=$((secs + 600)) WQ_USER_SCRIPT=$script "$top/ci/guest.sh" "$name" script "$out" > /dev/null 2>&1
	rm -f "$script"
	warns=$(grep -c 'WARNING: .* forward_timer_base' "$out/console.log")
	if [ $mode = window ]; then
		echo "timer-warn: $kern: ${warns} forward_timer_base WARN(s) in $secs rounds of the window (build/guest/$name/console.log):"
		grep -E '^(round|twarn)' "$out/results.txt" | sed 's/^/  /'
		continue
	fi
	cycles=$(sed -n 's/.*hotplug cycles: \([0-9]*\).*/\1/p' "$out/results.txt" | tail -n 1)
	echo "timer-warn: $kern: ${warns} forward_timer_base WARN(s) in ${secs} s of stress, ${cycles:-?} hotplug cycles (build/guest/$name/console.log)"
done
