#!/bin/bash
# ci/report.sh LABEL RESULTS CONSOLE [QEMU-STATUS]
# Read the TAP a guest run left in RESULTS, print one line per test, and
# append "passed failed skipped" to $TALLY.  A missing or incomplete result,
# a bad QEMU exit and any kernel splat in CONSOLE count as failures.
label=$1 results=$2 console=$3 qrc=${4:-0}
tally=${TALLY:-/dev/null}
pass=0 failn=0 skipn=0

bad() { echo "not ok - $label: $*"; failn=$((failn + 1)); }

if [ "$qrc" = 124 ]; then
	bad "timeout: the guest never stopped"
elif [ "$qrc" != 0 ]; then
	bad "qemu exited with status $qrc"
fi
if [ ! -s "$results" ]; then
	bad "no result came out of the guest (see $console)"
else
	grep -qx '# wqtest-done' "$results" || bad "the result is incomplete: the guest job did not finish"
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$results" | head -n 1)
	seen=0
	while IFS= read -r line; do
		case $line in
		"not ok "*)
			seen=$((seen + 1)); failn=$((failn + 1))
			echo "not ok - $label: ${line#not ok }"
			# show the failing test's own comments, above its line
			;;
		"ok "*"# SKIP"*)
			seen=$((seen + 1)); skipn=$((skipn + 1))
			echo "skip   - $label: ${line#ok }" ;;
		"ok "*)
			seen=$((seen + 1)); pass=$((pass + 1))
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
	if [ $failn -gt 0 ]; then
		echo "--- $label: output of the failed tests ($results) ---"
		awk '/^# /{buf = buf $0 "\n"; next} /^not ok/{printf "%s%s\n", buf, $0} {buf = ""}' "$results" | tail -n 80
	fi
fi
if ! splats=$("$(dirname "$0")/splat.sh" "$console"); then
	bad "kernel splat in the console log $console:"
	echo "$splats" | sed 's/^/    /'
fi
echo "$pass $failn $skipn" >> "$tally"
[ $failn -eq 0 ]
