#!/bin/bash
# bpftrace attaches to every event of the series and reads each typed
# argument (args->work, args->function, args->delay...): its probes print
# every field the way the event's print fmt does, and the lines it printed
# for the workload must be those the kernel's trace file has for the same
# events, recorded at once (CPU, thread, event, fields).  The kernel prints
# flags and kind by name: they are turned back into numbers with the
# tables of the events' own print fmt, which bpftrace prints as numbers.
# requires: events/workqueue/worklet_enqueue events/mm_fault/mm_fault_swapin
. /usr/lib/wqtest/tests/lib.sh
command -v bpftrace > /dev/null || skip "no bpftrace in this image (ci/check.sh boots the clients suite with WQ_WITH_PERF=1)"
[ -b /dev/vda ] || skip "no swap disk: boot with a virtio disk (GUEST_DISK, as ci/check.sh does)"
rm -rf "$CL" && mkdir -p "$CL"
# the probes: CPU, thread, event and then the fields as the print fmt has
# them, in client_canon's spelling (%p as hex digits, no leading zeros)
wq='/strncmp(str(args->workqueue), "wqtest", 6) == 0/'
mm='/comm == "mmfault"/'
p() { # EVENT-PATH PREDICATE NAME FORMAT ARGS
	echo "tracepoint:$1 $2 { printf(\"%d\\t%d\\t%s\\t$4\\n\", cpu, tid, \"$3\", $5); }"
}
# the types of the events' fields that C does not have built in: without
# BTF (the guest kernel has none), bpftrace compiles the fields of a format
# file as C, and needs them for any event, the stock sched_switch (pid_t)
# as well
printf 'typedef _Bool bool;\ntypedef int pid_t;\n' > "$CL/types.h"
{
	echo "#include \"$CL/types.h\""
	echo 'BEGIN { printf("ready\n"); }'
	p workqueue:worklet_enqueue "$wq" worklet_enqueue \
		'work=%lx function=%s workqueue=%s req_cpu=%d cpu=%d' \
		'args->work, ksym(args->function), str(args->workqueue), args->req_cpu, args->cpu'
	p workqueue:worklet_enqueue_delayed "$wq" worklet_enqueue_delayed \
		'work=%lx function=%s workqueue=%s cpu=%d delay=%lu' \
		'args->work, ksym(args->function), str(args->workqueue), args->cpu, args->delay'
	p workqueue:worklet_execute "$wq" worklet_execute \
		'work=%lx function=%s workqueue=%s worker=%d' \
		'args->work, ksym(args->function), str(args->workqueue), args->worker'
	p workqueue:worklet_complete "$wq" worklet_complete \
		'work=%lx function=%s workqueue=%s' \
		'args->work, ksym(args->function), str(args->workqueue)'
	p workqueue:worklet_cancel "$wq" worklet_cancel \
		'work=%lx function=%s workqueue=%s pending=%d' \
		'args->work, ksym(args->function), str(args->workqueue), args->pending'
	p workqueue:workqueue_flush "$wq" workqueue_flush \
		'workqueue=%s kind=%u work=%lx function=%s' \
		'str(args->workqueue), args->kind, args->work, ksym(args->function)'
	p workqueue:workqueue_creation "$wq" workqueue_creation \
		'workqueue=%s flags=%x max_active=%d' \
		'str(args->workqueue), args->flags, args->max_active'
	p workqueue:workqueue_destruction "$wq" workqueue_destruction \
		'workqueue=%s' 'str(args->workqueue)'
	for e in mm_fault_anon mm_fault_swapin mm_fault_file; do
		p "mm_fault:$e" "$mm" "$e" 'mm_id=%u address=0x%lx pfn=0x%lx major=%d write=%d' \
			'args->mm_id, args->address, args->pfn, args->major, args->write'
	done
	for e in mm_fault_anon_cow mm_fault_file_cow; do
		p "mm_fault:$e" "$mm" "$e" 'mm_id=%u address=0x%lx pfn=0x%lx old_pfn=0x%lx' \
			'args->mm_id, args->address, args->pfn, args->old_pfn'
	done
	for e in mm_unmap_anon mm_unmap_file; do
		p "mm_fault:$e" "$mm" "$e" 'mm_id=%u address=0x%lx pfn=0x%lx dirty=%d exiting=%d' \
			'args->mm_id, args->address, args->pfn, args->dirty, args->exiting'
	done
} > "$CL/probes.bt"
client_trace_on
# 1024 pages a CPU for printf's buffer (the default is 64): mmfault's exec
# alone is a burst of about a thousand lines, which bpftrace, like the
# workload, reads on a vCPU that a busy host may leave waiting
BPFTRACE_PERF_RB_PAGES=1024 bpftrace "$CL/probes.bt" > "$CL/bt.out" 2> "$CL/bt.err" &
bt=$!
on_exit "kill $bt 2> /dev/null"
# attached once BEGIN has printed: LLVM compiles the probes first, 12 to
# 23 s under TCG beside other work; no limit of its own (a slow host only makes
# it slower; a hang is the per-test timeout's)
t0=$(date +%s)
until grep -q '^ready$' "$CL/bt.out"; do
	kill -0 $bt 2> /dev/null || { cat "$CL/bt.err"; fail "bpftrace exited before it attached"; }
	sleep 0.2
done
echo "bpftrace attached in $(( $(date +%s) - t0 )) s: $(grep -h -m 1 '^Attaching' "$CL/bt.out" "$CL/bt.err")"
grep -E '^(MemTotal|MemAvailable|SwapTotal):' /proc/meminfo | tr -s ' ' | sed 's/^/before the workload: /'
t0=$(date +%s)
client_workload
echo "the workload ran in $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
kill -INT $bt
# its exit, watched: every 30 s a line says what it is doing (its state,
# where it waits, the CPU time it used, what it has printed), so that a slow
# exit says whether bpftrace still drains its buffers or waits on something.
# Beside three loaded make checks (H3, 2026-12-07) it had not exited 232 s
# after the workload, and the test's 300 s ran out with nothing to show why.
next=30
while kill -0 $bt 2> /dev/null; do
	sleep 1
	s=$(( $(date +%s) - t0 ))
	[ $s -ge $next ] && next=$((next + 30)) && [ -r /proc/$bt/stat ] &&
		echo "bpftrace after SIGINT, $s s: $(sed -E 's/^[0-9]+ \(.*\) //' /proc/$bt/stat |
			awk '{ printf "state %s, CPU %d ticks", $1, $12 + $13 }'), wchan $(cat /proc/$bt/wchan 2> /dev/null), $(ls /proc/$bt/task | wc -l) threads, $(wc -c < "$CL/bt.out") bytes out"
done
wait $bt
echo "bpftrace exited with status $? after $(( $(date +%s) - t0 )) s"
echo 0 > "$T/tracing_on"
cat "$T/trace" > "$CL/trace.txt"
client_check_whole
expect_eq "bpftrace's warnings of lost events" "$(client_lost "$CL/bt.out" "$CL/bt.err")" 0
# the name tables of the print fmts: "NAME VALUE" lines, for flags and kind
for f in workqueue_creation workqueue_flush; do
	grep '^print fmt' "$T/events/workqueue/$f/format" | grep -o -E '\{ *(0x[0-9a-fA-F]+|[0-9]+) *, *"[A-Za-z_]+" *\}' |
		sed -E 's/\{ *([0-9a-fA-Fx]+) *, *"([A-Za-z_]+)" *\}/\2 \1/'
done > "$CL/names"
expect_ge "names in the flags and kind tables" "$(grep -c . "$CL/names")" 11
client_canon trace < "$CL/trace.txt" > "$CL/kernel.full"
awk -F '\t' '$4 != "workqueue_queue_work"' "$CL/kernel.full" | cut -f 1,2,4,5 |
	awk -F '\t' -v OFS='\t' -v names="$CL/names" '
		function num(v) { return v ~ /^0x/ ? hex(substr(v, 3)) : v + 0 }
		function hex(h,   i, n) {
			n = 0
			for (i = 1; i <= length(h); i++)
				n = n * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
			return n
		}
		FILENAME == names { val[$1] = num($2); next }
		{
			n = split($4, t, " ")
			for (i = 1; i <= n; i++) {
				if ($3 == "workqueue_creation" && t[i] ~ /^flags=/) {
					k = split(substr(t[i], 7), part, "|"); s = 0
					for (j = 1; j <= k; j++)
						s += part[j] in val ? val[part[j]] : num(part[j])
					t[i] = sprintf("flags=%x", s)
				} else if ($3 == "workqueue_flush" && t[i] ~ /^kind=/)
					t[i] = "kind=" val[substr(t[i], 6)]
			}
			$4 = t[1]
			for (i = 2; i <= n; i++)
				$4 = $4 " " t[i]
			print
		}' FS=' ' "$CL/names" FS='\t' - | sort > "$CL/kernel"
# ksym() prints an address it has no symbol for as bare hex digits: 0
# for a NULL function, which the kernel prints as 0x0
grep '^[0-9]' "$CL/bt.out" | sed 's/ function=0\( \|$\)/ function=0x0\1/' | sort > "$CL/client"
client_coverage "$CL/kernel.full"
client_compare "bpftrace's typed arguments against the trace file" "$CL/kernel" "$CL/client"
for e in $CLIENT_WQ_EVENTS $CLIENT_MM_EVENTS; do
	awk -F '\t' -v e="$e" '$3 == e { print; exit }' "$CL/bt.out"
done
