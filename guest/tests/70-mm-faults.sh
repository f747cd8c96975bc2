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
# requires: events/mm_fault/mm_fault_anon events/mm_fault/mm_unmap_file
. /usr/lib/wqtest/tests/lib.sh
mkdir -p /tmp/mmf
mm_trace_on
mmfault faults /tmp/mmf > /tmp/mmf/expect || fail "mmfault faults failed"
echo 0 > "$T/tracing_on"
cat /tmp/mmf/expect
for ev in mm_fault_anon mm_fault_anon_cow mm_fault_file mm_fault_file_cow mm_unmap_anon mm_unmap_file; do
	expect_ge "expectations of $ev" "$(grep -c " $ev " /tmp/mmf/expect)" 1
done
expect_ge "failed faults that must not be reported" "$(grep -c " sigbus " /tmp/mmf/expect)" 1
mm_check_expectations /tmp/mmf/expect
