#!/bin/bash
# The guest side of "make bench": each workload of the wqbench module under
# each way of watching, interleaved (A B C ... A B C ...) for several rounds;
# then the cost of reading a large table, and the tracer's memory.
# The kernel command line may carry wqbench.rounds=N and wqbench.ways=a,b.
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
rounds=5
ways="nothing stat stock new hist perf"
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqbench.rounds=*) rounds=${arg#wqbench.rounds=} ;;
	wqbench.ways=*) ways=$(echo "${arg#wqbench.ways=}" | tr , ' ') ;;
	esac
done
workloads=("chain 20000" "burst 256 20" "many 1024 5")
[ -d $B ] || insmod /usr/lib/wqtest/modules/wqbench.ko || { echo "cannot load wqbench"; exit 1; }
have_stat=0; [ -f "$T/workqueue_stat_enabled" ] && have_stat=1
have_perf=0; command -v perf > /dev/null && have_perf=1

stock="workqueue_queue_work workqueue_activate_work workqueue_execute_start workqueue_execute_end"
new="worklet_enqueue worklet_enqueue_delayed worklet_execute worklet_complete worklet_cancel workqueue_flush workqueue_creation workqueue_destruction"

# the hist way's triggers, "EVENT TRIGGER" each: set in this order after the
# synthetic events wq_lat and wq_run are made, removed in the reverse order
hist_triggers=(
	'workqueue/workqueue_queue_work hist:keys=work:t0=common_timestamp'
	'workqueue/workqueue_execute_start hist:keys=work:t1=common_timestamp:lat=common_timestamp-$t0:fn=function:onmatch(workqueue.workqueue_queue_work).trace(wq_lat,$lat,$fn)'
	'workqueue/workqueue_execute_end hist:keys=work:run=common_timestamp-$t1:fn2=function:onmatch(workqueue.workqueue_execute_start).trace(wq_run,$run,$fn2)'
	'synthetic/wq_lat hist:keys=fn.sym:vals=hitcount,lat:sort=lat.descending'
	'synthetic/wq_run hist:keys=fn.sym:vals=hitcount,run:sort=run.descending'
)

# setup WAY / teardown WAY: start and stop one way of watching
setup() {
	echo 0 > $T/tracing_on; echo > $T/trace
	case $1 in
	nothing) ;;
	stat) echo 1 > $T/workqueue_stat_enabled ;;	# rows kept: steady state
	stock|new)
		local e
		for e in ${!1}; do echo 1 > $T/events/workqueue/$e/enable; done
		echo 1 > $T/tracing_on ;;
	hist)
		# run time and latency per function, the ftrace way
		echo 'wq_lat u64 lat; unsigned long fn' >> $T/synthetic_events
		echo 'wq_run u64 run; unsigned long fn' >> $T/synthetic_events
		local t
		for t in "${hist_triggers[@]}"; do
			echo "${t#* }" >> "$T/events/${t%% *}/trigger"
		done
		;;
	esac
}
teardown() {
	case $1 in
	stat) echo 0 > $T/workqueue_stat_enabled ;;
	stock|new)
		echo 0 > $T/tracing_on
		local e
		for e in ${!1}; do echo 0 > $T/events/workqueue/$e/enable; done ;;
	hist)
		local i
		for ((i = ${#hist_triggers[@]} - 1; i >= 0; i--)); do
			echo "!${hist_triggers[$i]#* }" >> "$T/events/${hist_triggers[$i]%% *}/trigger"
		done
		echo '!wq_run' >> $T/synthetic_events
		echo '!wq_lat' >> $T/synthetic_events
		;;
	esac
	echo > $T/trace
}
# measure WAY WORKLOAD: ns per item of one run
measure() {
	local way=$1 wl=$2
	if [ "$way" = perf ]; then
		perf kwork -k workqueue record -o /tmp/perf.data -- sh -c "echo '$wl' > $B/run" > /tmp/perf.log 2>&1 || {
			echo "# perf failed: $(tail -n 2 /tmp/perf.log)" >&2; echo 0; return; }
		rm -f /tmp/perf.data
	else
		setup "$way"
		echo "$wl" > $B/run
		teardown "$way"
	fi
	sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result
}

avail=""
for w in $ways; do
	case $w in
	stat) [ $have_stat = 1 ] || { echo "# skip stat: no workqueue stat tracer in this kernel"; continue; } ;;
	new) [ -d $T/events/workqueue/worklet_enqueue ] || { echo "# skip new: no worklet events in this kernel"; continue; } ;;
	perf) [ $have_perf = 1 ] || { echo "# skip perf: no perf in the image"; continue; } ;;
	esac
	avail="$avail $w"
done
echo "# ways:$avail; rounds: $rounds; kernel $(uname -r), $(nproc) CPUs"

echo 8192 > $T/buffer_size_kb
[ $have_stat = 1 ] && echo 1 > $T/workqueue_stat_reset
: > /tmp/samples
left=$(( rounds * ${#workloads[@]} ))
t0=$(date +%s)
for r in $(seq 1 "$rounds"); do
	for wl in "${workloads[@]}"; do
		got=
		for w in $avail; do
			v=$(measure "$w" "$wl")
			echo "${wl%% *} $w $v" >> /tmp/samples
			got="$got $w $v"
		done
		left=$((left - 1))
		progress "bench round $r of $rounds, ${wl%% *} (ns/item):$got; $(( $(date +%s) - t0 )) s, $left of $(( rounds * ${#workloads[@]} )) left"
	done
done
echo 1408 > $T/buffer_size_kb

# the table: median, min, max per (workload, way); overhead over "nothing";
# its ratio to the stock ring buffer's overhead
awk -v ways="$avail" '
	{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; wl[$1] = 1 }
	function med(k,   i, j, t, a, c) {
		c = n[k]; for (i = 1; i <= c; i++) a[i] = v[k, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		lo[k] = a[1]; hi[k] = a[c]
		return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
	}
	END {
		nw = split(ways, W, " ")
		printf "%-7s %-8s %10s %10s %10s %10s %9s %12s\n", "WORKLOAD", "WAY", "MEDIAN_ns", "MIN_ns", "MAX_ns", "OVERHEAD", "xNOTHING", "xRINGBUF_OH"
		for (w in wl) {
			base = med(w SUBSEP "nothing")
			rb = ("stock" in W) ? 0 : 0
			for (i = 1; i <= nw; i++) if (W[i] == "stock") rb = med(w SUBSEP "stock") - base
			for (i = 1; i <= nw; i++) {
				k = w SUBSEP W[i]; m = med(k); oh = m - base
				printf "%-8s %-8s %10d %10d %10d %+10d %9.2f %12s\n", w, W[i], m, lo[k], hi[k], oh,
					base ? m / base : 0, (rb > 0 && W[i] != "nothing") ? sprintf("%.2f", oh / rb) : "-"
			}
		}
	}' /tmp/samples | (read -r h; echo "$h"; sort -k1,1 -s)

# reading cost: a large table, timed; and writers while a reader loops.
# A run that only measures "nothing" (make bench-vanilla) has no use for it.
if [ "$(echo $ways)" = nothing ]; then
	echo "# skip reading: only \"nothing\" was asked for"
elif [ $have_stat = 1 ]; then
	F=$T/trace_stat/workqueues
	echo 1 > $T/workqueue_stat_reset; echo 1 > $T/workqueue_stat_enabled
	echo "table 1024 10" > $B/run
	# wqtime times inside one process: no date or shell start-up counted
	set -- $(wqtime -n 1 $F); first=$(($1 + $2))
	rows=$(sed -n 's/^# rows: \([0-9]*\) of.*/\1/p' $F)
	mem=$(sed -n 's/^# memory: \([0-9]*\).*/\1/p' $F)
	set -- $(wqtime -n 5 $F); open_us=$1; read_us=$2; lines=$3
	cat_us=$(wqtime -n 5 -x - cat $F)
	base_us=$(wqtime -n 5 -x - cat /proc/version)
	ms() { echo "$(($1 / 1000)).$(printf %03d $(($1 % 1000)))"; }
	echo "# reading: $rows rows ($lines lines); in one process, median of 5: open $(ms $open_us) ms + read $(ms $read_us) ms; the first read, which resolves the symbols: $(ms $first) ms"
	echo "# cat trace_stat/workqueues: median of 5: $(ms $cat_us) ms, of which cat's own start-up (a cat of /proc/version): $(ms $base_us) ms; tracer memory: $mem bytes"
	# the writers queue from vCPU 0 and the reader loops on vCPU 1, so
	# that a drop is a stall the reader causes, not CPU time it takes
	if [ "$(nproc)" -lt 2 ]; then
		echo "# skip writers: a reader on its own vCPU needs 2, this guest has $(nproc)"
	else
		wr() { taskset -c 0 sh -c "echo 'burst 256 20' > $B/run" && sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result; }
		# alone and with a reader alternate; the medians of 5 rounds keep a
		# passing load on the host from deciding the result
		as=() bs=()
		for i in 1 2 3 4 5; do
			as+=("$(wr)")
			taskset -c 1 sh -c "while :; do cat $F > /dev/null; done" & rd=$!
			bs+=("$(wr)")
			kill $rd; wait $rd 2>/dev/null
		done
		med() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
		echo "# writer rounds alone: ${as[*]}; with the reader: ${bs[*]} (ns/item)"
		awk -v a="$(med "${as[@]}")" -v b="$(med "${bs[@]}")" 'BEGIN { printf "# writers on vCPU 0 while a reader loops on vCPU 1: %d ns/item alone, %d with the reader (medians of 5): %.0f%% of their throughput\n", a, b, 100 * a / b }'
	fi
	echo 0 > $T/workqueue_stat_enabled
fi
