#!/bin/bash
# The annotated branch profiler (CONFIG_PROFILE_ANNOTATED_BRANCHES), the
# other user of trace_stat, through the trace_stat.c of patches 6 and 7:
# trace_stat/branch_annotated has the kernel's exact header, every row is
# its format, and it has one row per likely()/unlikely() site the kernel
# was built with - the entries between __start_ and
# __stop_annotated_branch_profile in System.map, counted on the host at
# build time (ci/build.sh) - in every read, with the same sites each time
# (their counters move: the profiler is always on).
# requires: trace_stat/branch_annotated
. /usr/lib/wqtest/tests/lib.sh
F=$T/trace_stat/branch_annotated
want=$(cat /usr/lib/wqtest/branch-sites 2> /dev/null) ||
	fail "the image has no count of the kernel's annotated branches (ci/build.sh)"
printf '%s\n' " correct incorrect  %        Function                  File              Line" \
	" ------- ---------  -        --------                  ----              ----" > /tmp/br.hdr
# "%8lu %8lu " (or "%8lu/%lu %*lu " for a constant), "%3ld " or "  X ",
# "%-30.30s %-20.20s %d"
ROW='^ *[0-9]+(/[0-9]+)? +[0-9]+ ( {2}X|[ 0-9]{2}[0-9]) .{30} .{20} [0-9]+$'
for i in 1 2; do
	statread -b 4096 -t 0 -H /tmp/br.hdr -R "$ROW" -n "branch_annotated, read $i" "$F" ||
		fail "branch_annotated: not the profiler's table"
	# the sites: all but the counters and the percentage
	tail -n +3 "$F" | sed -E 's/^ *[0-9]+(\/[0-9]+)? +[0-9]+ ( {2}X|[ 0-9]{2}[0-9]) //' | sort > /tmp/br.sites$i
done
head -n 8 "$F"
expect_eq "rows, read 1: the kernel's annotated branches" "$(grep -c . /tmp/br.sites1)" "$want"
expect_eq "the sites of two reads" "$(cmp /tmp/br.sites1 /tmp/br.sites2 && echo same)" same
