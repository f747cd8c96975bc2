#!/bin/bash
# Run every guest test and print TAP.  A test is a bash script; its header
# may hold "# requires: PATH..." lines naming tracefs files it needs (as in
# ftracetest).  Every requirement is part of the series, so a missing one
# fails the test (it is never a silent skip on the project's own kernels).
# Exit status: 0 ok, 77 skip (for what the machine may lack; the reason is
# the last line of output), else fail.
lib=/usr/lib/wqtest
T=/sys/kernel/tracing
# A test still running after this long is killed and fails, so that a hung
# test does not take the rest of the boot's report with it: a hang
# detector, not a measure of speed.  wqtest.timeout=SECONDS sets it for a
# kernel whose tests are slower (the debug kernel: docs/pipeline.md).
per_test_timeout=${WQT_TEST_TIMEOUT:-300}

# wqtest.tests=NAME|GLOB[,...] on the kernel command line picks the tests
# of this boot, in that order: make check names each test (ci/suites), and a
# name without a test, or a glob that matches none, is a failing test of its
# own.  By default: every test but the *-boot-* ones, which need their own
# boot, the *-rel-* ones, which are for the debug kernel, and the *-mm-*
# ones, which boot with a swap disk and a hole in physical memory.
# wqtest.failfast=1 stops after the first failure (for make mutants).
only= failfast=0
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqtest.tests=*) only=${arg#wqtest.tests=} ;;
	wqtest.failfast=1) failfast=1 ;;
	wqtest.timeout=*) per_test_timeout=${arg#wqtest.timeout=} ;;
	esac
done
IFS=, read -r -a globs <<< "$only"
tests=()
declare -A picked=()
pick() { [ -n "${picked[$1]:-}" ] || { picked[$1]=1; tests+=("$1"); }; }
# (no basename or other command in these loops: under TCG each fork costs
# tens of ms, and a boot names 28 tests of 36)
all=("$lib"/tests/[0-9]*.sh)
if [ -n "$only" ]; then
	for g in "${globs[@]}"; do
		hit=0
		for t in "${all[@]}"; do
			n=${t##*/}
			if [[ ${n%.sh} == $g || $n == $g ]]; then
				pick "$t"
				hit=1
			fi
		done
		[ $hit = 1 ] || pick "missing:$g"
	done
else
	for t in "${all[@]}"; do
		n=${t##*/}
		[[ $n == *-boot-* || $n == *-rel-* || $n == *-mm-* ]] || pick "$t"
	done
fi
if ! [[ $per_test_timeout =~ ^[1-9][0-9]{0,4}$ ]]; then
	echo "Bail out! wqtest.timeout=$per_test_timeout: not a number of seconds (1 to 99999)"
	exit 1
fi
echo "TAP version 13"
echo "1..${#tests[@]}"
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	if [ "${t#missing:}" != "$t" ]; then
		echo "not ok $n ${t#missing:} # no such test in this image"
		[ $failfast = 0 ] || break
		continue
	fi
	name=$(basename "$t" .sh)
	missing=
	for req in $(sed -n 's/^# requires://p' "$t"); do
		[ -e "$T/$req" ] || missing="$missing $req"
	done
	if [ -n "$missing" ]; then
		echo "not ok $n $name # missing tracefs:$missing (the series provides it)"
		[ $failfast = 0 ] || break
		continue
	fi
	# for the host's progress lines (the console, not the results)
	echo "wqtest-running: $name ($n of ${#tests[@]})" > /dev/kmsg
	start=$(date +%s%N)
	timeout -k 5 "$per_test_timeout" bash "$t" > /tmp/test.out 2>&1
	rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	sed 's/^/# /' /tmp/test.out
	case $rc in
	0)	echo "ok $n $name # ${ms} ms" ;;
	77)	echo "ok $n $name # SKIP $(tail -n 1 /tmp/test.out)" ;;
	124|137) echo "not ok $n $name # timed out after ${per_test_timeout} s" ;;
	*)	echo "not ok $n $name # exit status $rc" ;;
	esac
	case $rc in 0|77) ;; *)
		if [ $failfast = 1 ]; then
			echo "# failfast: stopped after the first failure"
			break
		fi ;;
	esac
done
