#!/bin/bash
# The mm_fault events, each matched by address and pfn (from
# /proc/self/pagemap) to a fault or unmap that guest/tools/mmfault took on
# purpose: fresh anonymous memory (written, and read: the zero page), a
# write after fork (anonymous copy-on-write) and after a read of the zero
# page, a read of a shared file mapping, a write to one, a write to a
# private file mapping (before and after a read: file copy-on-write),
# munmap of anonymous and file pages, and the exit of the forked child.
# Each must appear exactly once (the matching trace line is printed).  Not
# reported at all: the pages fault-around mapped next to the faulting one,
# and a read past the end of a file, which fails with SIGBUS.
# The events name the address space by mm_id, the pointer hashed as
# kmem:rss_stat hashes it, never the pointer: for each process, every
# event carries one mm_id, the one rss_stat gives its own mm (curr=1).
# requires: events/mm_fault/mm_fault_anon events/mm_fault/mm_unmap_file
# requires: events/kmem/rss_stat
. /usr/lib/wqtest/tests/lib.sh
mkdir -p /tmp/mmf
# the %p hash key (and so mm_id) is set once the kernel's random pool is
# ready: a read of /dev/random waits for it (making entropy if it must),
# and lib/vsprintf.c looks again every 2 s
head -c 1 /dev/random > /dev/null
sleep 2.5
mm_trace_on
echo 'comm == "mmfault"' > "$T/events/kmem/rss_stat/filter" || fail "set the rss_stat filter"
echo 1 > "$T/events/kmem/rss_stat/enable" || fail "enable rss_stat"
mmfault faults /tmp/mmf > /tmp/mmf/expect || fail "mmfault faults failed"
echo 0 > "$T/tracing_on"
cat /tmp/mmf/expect
for ev in mm_fault_anon mm_fault_anon_cow mm_fault_file mm_fault_file_cow mm_unmap_anon mm_unmap_file; do
	expect_ge "expectations of $ev" "$(grep -c " $ev " /tmp/mmf/expect)" 1
done
expect_ge "failed faults that must not be reported" "$(grep -c " sigbus " /tmp/mmf/expect)" 1
mm_check_expectations /tmp/mmf/expect

expect_eq "mm_fault lines with a pointer (mm=)" "$(grep -E -c ' mm_(fault|unmap)_[a-z_]+: mm=' "$T/trace")" 0
# "PID FAULT_IDS RSS_IDS": the distinct mm_ids of each process's events
awk '
	/ (mm_fault|mm_unmap)_[a-z_]+: | rss_stat: / {
		pid = $1; sub(/.*-/, "", pid)
		id = $0; sub(/.*mm_id=/, "", id); sub(/ .*/, "", id)
		if (index($0, " rss_stat: ")) {
			if (index($0, " curr=1 ") && !((pid, id) in r)) { r[pid, id] = 1; rss[pid] = rss[pid] " " id }
		} else if (!((pid, id) in f)) {
			f[pid, id] = 1; flt[pid] = flt[pid] " " id
		}
	}
	END { for (p in flt) print p, "faults:" flt[p], "rss_stat:" rss[p] }' "$T/trace" > /tmp/mmf/ids
cat /tmp/mmf/ids
expect_ge "processes with mm_fault events" "$(grep -c . /tmp/mmf/ids)" 2
while read -r pid fl fid rl rid extra; do
	[ -z "$extra" ] || fail "$pid: more than one mm_id: $fl $fid $rl $rid $extra"
	[ "$fid" != 0 ] || fail "$pid: mm_id 0: the %p hash key was not ready"
	expect_eq "$pid: mm_id of its mm_fault events = rss_stat's" "$fid" "$rid"
done < /tmp/mmf/ids
echo 0 > "$T/events/kmem/rss_stat/enable"
echo 0 > "$T/events/kmem/rss_stat/filter"
