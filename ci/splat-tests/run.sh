#!/bin/bash
# ci/splat-tests/run.sh: ci/splat.sh against console logs whose answer is
# known.  timer-warn.log is the console of "ci/timer-warn.sh window" on the
# widened kernel: the one WARN splat.sh tolerates, whole and in its place.
# Each variant below breaks one of the conditions and must be a splat.
# stat-stall.log is the console of the [ftrace] reference boot (the kernel
# without the series) of a make check-stress: the RCU stall of the
# unpatched trace_stat.c, tolerated the same way, and its variants.
# Prints "ok"/"not ok" lines; exits 1 on any "not ok".
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$top/ci/splat-tests/timer-warn.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
# expect WANT NAME FILE: splat.sh's exit status on FILE must be WANT
expect() {
	local got
	"$top/ci/splat.sh" "$3" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [ "$got" = "$1" ]; then
		echo "ok - $2"
	else
		echo "not ok - $2: exit $got, want $1"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
		bad=1
	fi
}
expect 0 "the timers_prepare_cpu WARN during a CPU's bringup is tolerated" "$log"
grep -q "tolerated the known upstream forward_timer_base WARN" "$tmp/err" \
	&& echo "ok - the tolerated WARN is named on stderr" \
	|| { echo "not ok - the tolerated WARN is not named on stderr"; bad=1; }
# the next smpboot line is an offline: not a CPU coming up
sed '0,/smpboot: Booting Node 0 Processor 1 APIC 0x1/! s/smpboot: Booting Node 0 Processor 1 APIC 0x1/smpboot: CPU 1 is now offline/' "$log" > "$tmp/offline.log"
expect 1 "the same WARN followed by an offline, not a bringup, is a splat" "$tmp/offline.log"
# no smpboot line at all after it
sed '/end trace/q' "$log" > "$tmp/cut.log"
expect 1 "the same WARN with no bringup after it is a splat" "$tmp/cut.log"
# another first frame
sed 's/? __mod_timer+/? add_timer_on+/' "$log" > "$tmp/frame.log"
expect 1 "the same WARN from another caller than __mod_timer is a splat" "$tmp/frame.log"
# another function of timer.c
sed 's/forward_timer_base+0x29/__run_timers+0x29/' "$log" > "$tmp/func.log"
expect 1 "a WARN of another function of timer.c is a splat" "$tmp/func.log"
# a block cut short (no end trace)
sed '/end trace/d' "$log" > "$tmp/noend.log"
expect 1 "the WARN without its end-of-trace line is a splat" "$tmp/noend.log"
# the tolerated block plus another splat elsewhere
{ cat "$log"; echo "[   31.000000] BUG: sleeping function called from invalid context at kernel/workqueue.c:1"; } > "$tmp/more.log"
expect 1 "another splat beside the tolerated WARN still fails" "$tmp/more.log"
grep -q "^[0-9]*:.*BUG: sleeping function" "$tmp/out" \
	&& echo "ok - the other splat is printed with its line number" \
	|| { echo "not ok - the other splat is not printed"; bad=1; }
# two copies: both tolerated
cat "$log" "$log" > "$tmp/twice.log"
expect 0 "two such WARNs, each in its place, are tolerated" "$tmp/twice.log"
stall=$top/ci/splat-tests/stat-stall.log
expect 0 "the stall of the unpatched trace_stat.c's open() is tolerated" "$stall"
grep -q "tolerated the known RCU stall of the unpatched trace_stat.c" "$tmp/err" \
	&& echo "ok - the tolerated stall is named on stderr" \
	|| { echo "not ok - the tolerated stall is not named on stderr"; bad=1; }
# the same stall in another open(): not trace_stat's
sed 's/tracing_stat_open+0x9f/tracing_open+0x9f/' "$stall" > "$tmp/open.log"
expect 1 "the same stall under another open() is a splat" "$tmp/open.log"
# the patched trace_stat.c has no insert_stat(): a stall there is ours
sed 's/ insert_stat+0x23/ add_stat+0x23/' "$stall" > "$tmp/ours.log"
expect 1 "the same stall in the patched trace_stat.c (add_stat) is a splat" "$tmp/ours.log"
# the block cut short: no end of its task trace
sed '/<\/TASK>/d' "$stall" > "$tmp/notask.log"
expect 1 "the stall without the end of its trace is a splat" "$tmp/notask.log"
# a stall of another kind
sed 's/rcu_sched self-detected stall on CPU/rcu_sched detected stalls on CPUs\/tasks:/' "$stall" > "$tmp/kind.log"
expect 1 "another kind of RCU stall report is a splat" "$tmp/kind.log"
# the tolerated stall beside another splat
{ cat "$stall"; echo "[  230.000000] BUG: sleeping function called from invalid context at kernel/workqueue.c:1"; } > "$tmp/stallmore.log"
expect 1 "another splat beside the tolerated stall still fails" "$tmp/stallmore.log"
exit $bad
