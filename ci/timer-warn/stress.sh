#!/bin/bash
# (ci/timer-warn.sh puts "set -- SECONDS" before it)
# The guest side of ci/timer-warn.sh: the test module's stress scenario
# (delayed work queued from a thread per CPU, among the rest) while vCPU 1
# goes offline and online in a loop, as in 61-rel-stress-chaos but with no
# tracer (the kernel may have none).  Prints the hotplug cycles done.
secs=${1:-120}
MODDIR=/usr/lib/wqtest/modules
online=/sys/devices/system/cpu/cpu1/online
insmod "$MODDIR/wqtest.ko" || exit 1
stop=/tmp/warn.stop
rm -f "$stop"
( n=0; while [ ! -e "$stop" ]; do echo 0 > $online && echo 1 > $online || break; n=$((n + 1)); done
  echo "hotplug cycles: $n" ) &
echo "stress $secs 40" > /sys/kernel/debug/wqtest/run || echo "the stress scenario failed"
: > "$stop"
wait
grep -E '^(seconds|threads|ops)=' /sys/kernel/debug/wqtest/result
