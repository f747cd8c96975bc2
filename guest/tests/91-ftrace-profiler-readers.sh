#!/bin/bash
# Readers of the function profiler's tables while it is switched on and off
# (each switch on resets it, zeroing its records in place under the tables
# that open files hold): three readers on function0 and function1, each
# with its own read(2) size (64 bytes, 4 KiB, 1 MiB), for 10 s and on until
# a fourth has switched profiling off and on 10 times (each switch patches
# the ~500 functions of the filter: 4 s a switch beside a busy host), while
# getppid(2) and reads run.  Every reader finishes; every table it read whole has the exact
# header and only rows of the profiler's format.  A read that fails with
# EBUSY (the profiler's answer for a record a reset zeroed after the open)
# is counted apart: it is the profiler's, with or without the series.
# requires: function_profile_enabled trace_stat/function0 trace_stat/function1 set_ftrace_filter
. /usr/lib/wqtest/tests/lib.sh
P=$PROF ROW=$PROF_ROW
prof_setup
echo 'vfs_* ksys_* __x64_sys_*' > "$T/set_ftrace_filter" || fail "set_ftrace_filter"
expect_ge "functions in the filter" "$(grep -c . "$T/set_ftrace_filter")" 20
echo 1 > "$P"
stop=/tmp/prof.stop
rm -f "$stop"
( while [ ! -e "$stop" ]; do wqsys 2000; cat /proc/self/status > /dev/null; done ) &
done=/tmp/prof.done
rm -f "$done"
( n=0
  while [ $n -lt 10 ]; do
	echo 0 > "$P"; sleep 0.05; echo 1 > "$P"; sleep 0.05
	n=$((n + 1))
  done
  echo "$n" > /tmp/prof.toggles
  : > "$done" ) &
statread -b 64 -t 10 -u "$done" -H /tmp/prof.hdr -R "$ROW" -n "function0/64" "$T/trace_stat/function0" > /tmp/r1 &
r1=$!
statread -b 4096 -t 10 -u "$done" -H /tmp/prof.hdr -R "$ROW" -n "function1/4096" "$T/trace_stat/function1" > /tmp/r2 &
r2=$!
statread -b 1048576 -t 10 -u "$done" -H /tmp/prof.hdr -R "$ROW" -n "function0/1M" "$T/trace_stat/function0" > /tmp/r3 &
r3=$!
st=0
wait $r1 || st=1
wait $r2 || st=1
wait $r3 || st=1
: > "$stop"
wait
cat /tmp/r1 /tmp/r2 /tmp/r3
echo "switched on and off $(cat /tmp/prof.toggles) times"
expect_eq "readers that found a problem" "$st" 0
for r in /tmp/r1 /tmp/r2 /tmp/r3; do
	expect_ge "$(cut -d: -f1 "$r" | tail -n 1): whole tables" "$(sed -n 's/.* tables=\([0-9]*\).*/\1/p' "$r")" 1
done
expect_eq "switches off and on while they read" "$(cat /tmp/prof.toggles)" 10
