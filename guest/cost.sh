#!/bin/bash
# The guest side of "make cost": each wqbench workload under each way of
# watching, once to warm up (the stat tracer's rows made, the symbols
# resolved) and once between two marks: writes to trace_marker, whose
# every call ends a phase of the insncount plugin on the host.  Prints
# "phase N WAY WORKLOAD ITEMS" for each measured run, in the plugin's
# numbering (phase 1 ends at the first mark).
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
workloads=("chain 20000" "burst 256 20" "many 1024 5")
ways="nothing stat stock"
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqcost.ways=*) ways=$(echo "${arg#wqcost.ways=}" | tr , ' ') ;;
	esac
done
[ -d $B ] || insmod /usr/lib/wqtest/modules/wqbench.ko || { echo "# cannot load wqbench"; exit 1; }
echo 1 > $T/options/markers 2> /dev/null
mark() { echo m > $T/trace_marker 2> /dev/null; phase=$((phase + 1)); }
# setup WAY, teardown WAY: as make bench starts and stops them
. /usr/lib/wqtest/bench/ways.sh
echo 0 > $T/tracing_on
phase=0
mark
for way in $ways; do
	for wl in "${workloads[@]}"; do
		setup "$way"
		echo "$wl" > $B/run || echo "# $wl failed under $way"
		mark
		echo "$wl" > $B/run || echo "# $wl failed under $way"
		mark
		teardown "$way"
		echo "phase $((phase - 1)) $way ${wl%% *} $(sed -n 's/.*items=\([0-9]*\).*/\1/p' $B/result)"
		mark
	done
done
echo "# cost: done"
