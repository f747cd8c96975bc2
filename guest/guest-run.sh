#!/bin/bash
# The guest job, started by the dracut hook.  The kernel command line picks
# the mode (wqtest.mode=check|demo|script|bench).  Everything a mode prints
# goes to ttyS1, the results channel; the console (ttyS0) keeps the kernel log.
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
lib=/usr/lib/wqtest

mode=check
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqtest.mode=*) mode=${arg#wqtest.mode=} ;;
	esac
done

mountpoint_has() { grep -q " $1 " /proc/mounts; }
mkdir -p /sys/kernel/tracing /sys/kernel/debug
mountpoint_has /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
mountpoint_has /sys/kernel/debug || mount -t debugfs nodev /sys/kernel/debug
mkdir -p /tmp && mount -t tmpfs tmpfs /tmp 2>/dev/null
echo 1 > /proc/sys/kernel/sysrq

out=/dev/ttyS1
[ -c "$out" ] || { echo "wqtest: no $out, results go to the console" > /dev/console; out=/dev/console; }
exec 3>"$out"
echo "# wqtest: mode=$mode kernel=$(uname -r) cpus=$(nproc)" >&3
case $mode in
check)	bash "$lib/run-tests.sh" >&3 2>&1 ;;
demo)	bash "$lib/demo.sh" >&3 2>&1 ;;
bench)	bash "$lib/bench.sh" >&3 2>&1 ;;
script)	bash "$lib/user.sh" >&3 2>&1
	echo "# exit-status: $?" >&3 ;;
*)	echo "# unknown wqtest.mode=$mode" >&3 ;;
esac
echo "# wqtest-done" >&3
exec 3>&-
