#!/bin/bash
# (ci/timer-warn.sh window puts "set -- ROUNDS" before it)
# The guest side of "ci/timer-warn.sh window": ROUNDS times, twarn's "arm"
# (a timer that ran on vCPU 1 last, and one pending there), vCPU 1 offline
# for 1 s, online again while twarn's hammer re-arms the first timer one
# tick into timers_prepare_cpu().  Prints each round's result; the host
# counts the WARNs in the console (WARN_ON_ONCE: one at most per boot).
rounds=${1:-5}
online=/sys/devices/system/cpu/cpu1/online
insmod /usr/lib/wqtest/modules/twarn.ko || { echo "twarn: insmod failed"; exit 1; }
for i in $(seq "$rounds"); do
	echo arm > /sys/kernel/debug/twarn/ctl || { echo "round $i: arm failed"; continue; }
	echo 0 > $online || { echo "round $i: offline failed"; break; }
	sleep 1
	echo 1 > $online || { echo "round $i: online failed"; break; }
	sleep 0.5
	echo "round $i: $(cat /sys/kernel/debug/twarn/result)"
done
