#!/bin/bash
# trace-cmd (libtraceevent) renders every event of the series as the
# kernel's trace file does, field for field, from the same ring buffer: the
# workload's events are read by "cat trace", then by "trace-cmd extract"
# and "trace-cmd report", and the two must be the same lines (CPU, pid,
# time, event, fields), once libtraceevent's own conventions for %p and %ps
# are undone (lib.sh, client_canon).  A print fmt that libtraceevent could
# not parse would print "[FAILED TO PARSE]" or raw fields instead.
# requires: events/workqueue/worklet_enqueue events/mm_fault/mm_fault_swapin
. /usr/lib/wqtest/tests/lib.sh
command -v trace-cmd > /dev/null || skip "no trace-cmd in this image (ci/check.sh boots the clients suite with WQ_WITH_PERF=1)"
[ -b /dev/vda ] || skip "no swap disk: boot with a virtio disk (GUEST_DISK, as ci/check.sh does)"
rm -rf "$CL" && mkdir -p "$CL"
client_trace_on
client_workload
echo 0 > "$T/tracing_on"
# the trace file first: trace-cmd extract consumes the buffer
cat "$T/trace" > "$CL/trace.txt"
client_check_whole
(cd "$CL" && trace-cmd extract -o "$CL/trace.dat") > "$CL/extract.log" 2>&1 ||
	{ cat "$CL/extract.log"; fail "trace-cmd extract failed"; }
trace-cmd report -i "$CL/trace.dat" > "$CL/report.txt" 2> "$CL/report.err" ||
	{ cat "$CL/report.err"; fail "trace-cmd report failed"; }
# what libtraceevent said about the formats it read: nothing about ours
if grep -E "worklet_|workqueue_|mm_fault|mm_unmap" "$CL/report.err"; then
	fail "trace-cmd report complained about an event of the series (above)"
fi
client_canon trace < "$CL/trace.txt" | sort > "$CL/kernel"
client_canon report < "$CL/report.txt" | sort > "$CL/client"
client_verdict "trace-cmd report" "$CL/report.txt" "$CL/kernel"
# an example of each event, as each printed it
for e in $CLIENT_WQ_EVENTS $CLIENT_MM_EVENTS; do
	grep -m 1 " $e: " "$CL/trace.txt"
	grep -m 1 " $e: " "$CL/report.txt"
done
