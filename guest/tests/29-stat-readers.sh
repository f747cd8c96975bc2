#!/bin/bash
# Every reader gets a whole table of its own.  Four readers loop on
# trace_stat/workqueues for 10 s, and on until the tracer has been turned
# off and on 8 times and reset twice (a busy host may take longer), each
# with its own read(2) size (1 byte, 4 KiB, 64 KiB, 1 MiB), while work runs
# on 600 functions and on the test module's queue.  wqread
# checks every table it reads: summary, column names, exactly "# rows:"
# rows, sorted, no (workqueue, function) twice, and no count smaller than
# in its previous table unless "# resets:" changed.
# requires: trace_stat/workqueues workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
[ -d /sys/kernel/debug/wqbench ] || insmod "$MODDIR/wqbench.ko" || fail "insmod wqbench.ko"
secs=10
stat_reset_on
resets0=$(stat_summary resets)
expect_ge "'# resets:' is there" "$resets0" 0

# the load: work on many functions, spins, toggles and resets, until told
stop=/tmp/readers.stop done=/tmp/readers.done
rm -f "$stop" "$done"
( while [ ! -e "$stop" ]; do echo "many 600 1" > /sys/kernel/debug/wqbench/run; done ) &
( while [ ! -e "$stop" ]; do echo "spin 20 50" > "$WQT/run"; done ) &
toggles=0 resets=0
( n=0
  while [ $n -lt 8 ]; do
	n=$((n + 1))
	echo 0 > "$T/workqueue_stat_enabled"
	sleep 0.1
	echo 1 > "$T/workqueue_stat_enabled"
	[ $((n % 4)) = 0 ] && echo 1 > "$T/workqueue_stat_reset"
	sleep 0.4
  done
  echo "$n" > /tmp/readers.toggles
  : > "$done" ) &

pids=()
for b in 1 4096 65536 1048576; do
	wqread -b "$b" -t "$secs" -u "$done" -n "reader-$b" "$STAT" > "/tmp/readers.$b" 2>&1 &
	pids+=($!)
done
bad=0
for p in "${pids[@]}"; do
	wait "$p" || bad=$((bad + 1))
done
: > "$stop"
wait
stat_off
toggles=$(cat /tmp/readers.toggles)
resets=$(( $(stat_summary resets) - resets0 ))
echo "load: $toggles toggles, $resets resets"
total=0
for b in 1 4096 65536 1048576; do
	cat "/tmp/readers.$b"
	t=$(sed -n 's/.* tables=\([0-9]*\) .*/\1/p' "/tmp/readers.$b")
	expect_ge "tables read by the reader of $b bytes" "$t" 2
	total=$((total + $(sed -n 's/.* problems=\([0-9]*\)$/\1/p' "/tmp/readers.$b")))
done
expect_eq "toggles during the reads" "$toggles" 8
expect_eq "resets during the reads" "$resets" 2
expect_eq "problems found by the readers" "$total" 0
expect_eq "readers that failed" "$bad" 0
