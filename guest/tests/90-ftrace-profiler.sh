#!/bin/bash
# The function profiler, the oldest user of trace_stat, through the
# trace_stat.c of patches 6 and 7 (and on the same config without the
# series, the reference): with the profiler on for __do_sys_getppid and
# vfs_read only, 1,000 getppid(2) calls of wqsys and 300 reads of a file;
# then, profiling stopped, trace_stat/function0 and function1 have the
# kernel's exact two header lines, every row is the profiler's format, the
# rows are sorted by Time, largest first, __do_sys_getppid was hit exactly
# 1,000 times over both CPUs and vfs_read at least 300, and two reads of a
# file give the same table.  Switching profiling on again resets it: no
# hit of getppid then.
# requires: function_profile_enabled trace_stat/function0 trace_stat/function1 set_ftrace_filter
. /usr/lib/wqtest/tests/lib.sh
P=$PROF ROW=$PROF_ROW
prof_setup
# hits FUNCTION FILE...: its hits summed over the tables
hits() {
	local f=$1
	shift
	awk -v f="$f" '$1 == f { n += $2 } END { print n + 0 }' "$@"
}
echo '__do_sys_getppid vfs_read' > "$T/set_ftrace_filter" || fail "set_ftrace_filter"
expect_eq "the filter" "$(sort "$T/set_ftrace_filter" | tr '\n' ' ')" "__do_sys_getppid vfs_read "
dd if=/dev/zero of=/tmp/prof.in bs=1 count=300 2> /dev/null || fail "dd: the input file"
echo 1 > "$P" || fail "function_profile_enabled"
wqsys 1000 || fail "wqsys"
dd if=/tmp/prof.in of=/dev/null bs=1 2> /dev/null
rc=$?
echo 0 > "$P"
expect_eq "dd's 300 one-byte reads: exit status" "$rc" 0
for c in 0 1; do
	statread -b 4096 -t 0 -H /tmp/prof.hdr -R "$ROW" -s 3 -n "function$c" "$T/trace_stat/function$c" ||
		fail "function$c: not the profiler's table, or not sorted by Time"
	cat "$T/trace_stat/function$c" > "/tmp/prof$c.a"
	cat "$T/trace_stat/function$c" > "/tmp/prof$c.b"
	expect_eq "function$c read twice, profiling stopped" "$(cmp "/tmp/prof$c.a" "/tmp/prof$c.b" && echo same)" same
	cat "/tmp/prof$c.a"
done
expect_eq "hits of __do_sys_getppid, both CPUs" "$(hits __do_sys_getppid /tmp/prof0.a /tmp/prof1.a)" 1000
expect_ge "hits of vfs_read, both CPUs" "$(hits vfs_read /tmp/prof0.a /tmp/prof1.a)" 300
expect_eq "functions in the tables" "$(cat /tmp/prof0.a /tmp/prof1.a | awk 'NR > 2 && !/^  [-F]/ { print $1 }' | sort -u | tr '\n' ' ')" \
	"__do_sys_getppid vfs_read "
# on again: a reset; off at once
echo 1 > "$P"
echo 0 > "$P"
expect_eq "hits of __do_sys_getppid after a reset" \
	"$(hits __do_sys_getppid "$T/trace_stat/function0" "$T/trace_stat/function1")" 0
