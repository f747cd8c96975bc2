#!/bin/bash
# ci/report.sh LABEL RESULTS CONSOLE [STATUS]
# Read the TAP a run left in RESULTS, print one line per test, and append
# "passed failed skipped" to $TALLY.
# A guest run: CONSOLE is its kernel log and STATUS QEMU's exit status; a
# missing or incomplete result, a bad QEMU exit and any kernel splat in
# CONSOLE count as failures (ci/lib.sh: guest_problems).
# A host run: CONSOLE is "-" and STATUS the exit status of the make that
# ran the tests, named in $REPORT_WHAT.
# $REPORT_EXPECT, when set, names every test the run must report (the
# names of guest/tests/ without .sh): a plan or a set of names that differs
# is a failure, so a boot whose list matched nothing, or lost a test, fails.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
label=$1 results=$2 console=$3 qrc=${4:-0}
tally=${TALLY:-/dev/null}
pass=0 failn=0 skipn=0

bad() { echo "not ok - $label: $*"; failn=$((failn + 1)); }

if [ "$console" = - ]; then
	[ "$qrc" = 0 ] || bad "${REPORT_WHAT:-the host tests} exited with status $qrc (see $results)"
elif ! problems=$(guest_problems "$results" "$console" "$qrc"); then
	while IFS= read -r p; do
		case $p in
		"    "*) echo "$p" ;;
		*) bad "$p" ;;
		esac
	done <<< "$problems"
fi
if [ -s "$results" ]; then
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$results" | head -n 1)
	seen=0
	declare -A got=()
	while IFS= read -r line; do
		case $line in
		"not ok "*|"ok "*)
			seen=$((seen + 1))
			name=${line#not }; name=${name#ok }; name=${name#[0-9]* }; name=${name%% *}
			got[$name]=$(( ${got[$name]:-0} + 1 )) ;;
		esac
		case $line in
		"not ok "*)
			failn=$((failn + 1))
			echo "not ok - $label: ${line#not ok }" ;;
		"ok "*"# SKIP"*)
			skipn=$((skipn + 1))
			echo "skip   - $label: ${line#ok }" ;;
		"ok "*)
			pass=$((pass + 1))
			echo "ok     - $label: ${line#ok }" ;;
		esac
	done < "$results"
	if [ -z "$plan" ]; then
		bad "no TAP plan in the result"
	elif [ "$plan" = 0 ]; then
		bad "no test ran: the boot's test list matched none (plan 1..0)"
	elif [ "$plan" != "$seen" ]; then
		bad "the plan promised $plan tests, $seen reported"
	fi
	if [ -n "${REPORT_EXPECT:-}" ]; then
		want=0 never= twice=
		for t in $REPORT_EXPECT; do
			want=$((want + 1))
			case ${got[$t]:-0} in
			1) ;;
			0) never="$never $t" ;;
			*) twice="$twice $t" ;;
			esac
		done
		[ "$plan" = "$want" ] || bad "the plan is 1..$plan, the boot expects $want tests"
		[ -z "$never" ] || bad "$(echo $never | wc -w) of the boot's tests never reported:$never"
		[ -z "$twice" ] || bad "reported more than once:$twice"
	fi
	if [ $failn -gt 0 ]; then
		echo "--- $label: output of the failed tests ($results) ---"
		awk '/^# /{buf = buf $0 "\n"; next} /^not ok/{printf "%s%s\n", buf, $0} {buf = ""}' "$results" | tail -n 80
	fi
elif [ "$console" = - ]; then
	bad "no result in $results"
fi
echo "$pass $failn $skipn" >> "$tally"
[ $failn -eq 0 ]
