#!/bin/bash
# make run-guest SCRIPT=docs/examples/mm-faults.sh
# The mm_fault events of guest/tools/mmfault, which prints what it expects
# (address and pfn from /proc/self/pagemap); then the trace of its first
# page: the anonymous fault, and the unmap at munmap().
T=/sys/kernel/tracing
# mm_id is the mm pointer hashed with the %p key, which the kernel sets
# once its random pool is ready (it is 0 until then): wait for it
head -c 1 /dev/random > /dev/null
sleep 2.5
echo 'comm == "mmfault"' > $T/events/mm_fault/filter
echo 1 > $T/events/mm_fault/enable
mkdir -p /tmp/demo
mmfault faults /tmp/demo > /tmp/demo/expect
echo 0 > $T/events/mm_fault/enable
head -n 3 /tmp/demo/expect
addr=$(head -n 1 /tmp/demo/expect | sed 's/.*address=\([^ ]*\).*/\1/')
grep "address=$addr " $T/trace
