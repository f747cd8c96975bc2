#!/bin/bash
# The four events 6.1 already had keep their format byte for byte: they are
# ABI, parsed by perf kwork and others.  Golden copies come from an
# unpatched 6.1 guest (guest/golden/README).
# requires: events/workqueue/workqueue_queue_work
. /usr/lib/wqtest/tests/lib.sh
golden=/usr/lib/wqtest/golden
for e in workqueue_queue_work workqueue_activate_work workqueue_execute_start workqueue_execute_end; do
	[ -r "$golden/$e.format" ] || fail "no golden copy for $e"
	grep -v '^ID:' "$T/events/workqueue/$e/format" > /tmp/$e.now
	if ! cmp -s /tmp/$e.now "$golden/$e.format"; then
		diff "$golden/$e.format" /tmp/$e.now
		fail "the format of $e changed"
	fi
	echo "$e: format unchanged"
done
