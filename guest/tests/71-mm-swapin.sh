#!/bin/bash
# mm_fault_swapin: an anonymous page is paged out with MADV_PAGEOUT onto the
# guest's swap disk (a virtio disk backed by build/swap.img, ci/check.sh),
# then read back; the event carries its address and its new pfn, and says
# whether the page was mapped writable, which a write right after tells by
# taking a fault or not (6.1 maps it read-only, 6.12 writable).
# requires: events/mm_fault/mm_fault_swapin
. /usr/lib/wqtest/tests/lib.sh
[ -b /dev/vda ] || skip "no swap disk: boot with a virtio disk (GUEST_DISK, as ci/check.sh does)"
grep -q '^/dev/vda ' /proc/swaps || swapon /dev/vda || fail "swapon /dev/vda"
cat /proc/swaps
mkdir -p /tmp/mmf
mm_trace_on
mmfault swap > /tmp/mmf/swap
rc=$?
echo 0 > "$T/tracing_on"
swapoff /dev/vda
[ $rc = 77 ] && skip "$(tail -n 1 /tmp/mmf/swap)"
[ $rc = 0 ] || fail "mmfault swap failed"
cat /tmp/mmf/swap
mm_check_expectations /tmp/mmf/swap
