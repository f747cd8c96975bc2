#!/bin/bash
# perf (Debian's linux-perf) records every event of the series and prints
# each as the kernel does: "perf record" and the trace file record the same
# workload at once, each through its own buffers, and the lines of "perf
# script" must be those of the trace file (CPU, pid, event, fields; the
# two clocks are read at different instants, so not the time), once
# libtraceevent's conventions are undone (lib.sh, client_canon).  perf
# resolves a function's address to its name from the symbols it has read
# by then, which for the first events of a module is not yet the module's,
# and prints a NULL function as the symbol at address 0: both are undone
# where /proc/kallsyms backs them, and how many there were is printed.
# requires: events/workqueue/worklet_enqueue events/mm_fault/mm_fault_swapin
. /usr/lib/wqtest/tests/lib.sh
command -v perf > /dev/null || skip "no perf in this image (ci/check.sh boots the clients suite with WQ_WITH_PERF=1)"
[ -b /dev/vda ] || skip "no swap disk: boot with a virtio disk (GUEST_DISK, as ci/check.sh does)"
rm -rf "$CL" && mkdir -p "$CL"
ev=()
for e in $CLIENT_WQ_EVENTS workqueue_queue_work; do
	ev+=(-e "workqueue:$e" --filter "$CLIENT_WQ_FILTER")
done
for e in $CLIENT_MM_EVENTS; do
	ev+=(-e "mm_fault:$e" --filter "$CLIENT_MM_FILTER")
done
client_trace_on
# 4 MB a CPU (the default is 512 kB): mmfault's exec alone is a burst of
# about a thousand events, which perf, like the workload, reads on a vCPU
# that a busy host may leave waiting
perf record -q -a -m 4M -o "$CL/perf.data" "${ev[@]}" -- \
	bash -c '. /usr/lib/wqtest/tests/lib.sh; client_workload' > "$CL/record.log" 2>&1 ||
	{ cat "$CL/record.log"; fail "perf record or the workload failed"; }
echo 0 > "$T/tracing_on"
cat "$T/trace" > "$CL/trace.txt"
client_check_whole
perf script -i "$CL/perf.data" > "$CL/perf.txt" 2> "$CL/script.err" ||
	{ cat "$CL/script.err"; fail "perf script failed"; }
cat "$CL/record.log" "$CL/script.err"
expect_eq "perf's warnings of lost events" "$(client_lost "$CL/record.log" "$CL/script.err")" 0
client_canon trace < "$CL/trace.txt" > "$CL/kernel.full"
cut -f 1,2,4,5 "$CL/kernel.full" | sort > "$CL/kernel"
# perf's own resolver, undone where /proc/kallsyms backs it: an address
# it printed for a function is the name the kernel printed when that is
# the name's address; a name at address 0 (__per_cpu_start on x86-64) is
# how it prints a NULL function, which the kernel prints as 0x0
client_canon perf < "$CL/perf.txt" | cut -f 1,2,4,5 |
	awk -F '\t' -v OFS='\t' -v out="$CL/resolved" '
		FILENAME == "/proc/kallsyms" { sym[$1] = $3; if ($1 ~ /^0+$/) at0[$3] = 1; next }
		match($4, /function=[^ ]+/) {
			v = substr($4, RSTART + 9, RLENGTH - 9)
			a = v; sub(/^0x/, "", a)
			a = sprintf("%16s", a); gsub(/ /, "0", a)
			if (v in at0) {
				v = "0x0"; null++
			} else if (v ~ /^0x[0-9a-f]+$/ && v != "0x0" && (a in sym)) {
				v = sym[a]; resolved++
			}
			$4 = substr($4, 1, RSTART - 1) "function=" v substr($4, RSTART + RLENGTH)
		}
		{ print }
		END { print resolved + 0, null + 0 > out }' FS=' ' /proc/kallsyms FS='\t' - | sort > "$CL/client"
read -r resolved null < "$CL/resolved"
echo "functions perf printed as an address, each that of the name the kernel printed: $resolved"
echo "NULL functions (0x0 in the trace file) perf printed as the symbol at address 0: $null"
client_verdict "perf script" "$CL/perf.txt" "$CL/kernel.full"
for e in $CLIENT_WQ_EVENTS $CLIENT_MM_EVENTS; do
	grep -m 1 ":$e: " "$CL/perf.txt"
done
