#!/bin/bash
# The guest side of "make bench".  The kernel command line picks a phase
# (wqbench.phase=):
#   main     each workload of the wqbench module under each way of watching,
#            interleaved (A B C ... A B C ...) for several rounds; the
#            bpftrace script against the stat file; direct I/O to a loop
#            device under five ways; the cost of reading a large table, and
#            the tracer's memory
#   rows     the stat tracer's cost per item with 1,024, 16,384 and 131,072
#            live rows, cat of 131,072 rows, destroy_workqueue() among them
#            (boot with workqueue_stat_capacity= of at least 131,072 + 4,096)
#   destroy  destroy_workqueue() at the default capacity, tracer never
#            enabled, then on, then off again
#   fio      fio's random reads and writes to a loop device, the tracer off
#            and on in turns (fio needs System V shared memory: the kernel
#            of kernel-patches/distro.config, in the image with
#            WQ_WITH_FIO=1)
# It may also carry wqbench.rounds=N (the micro-workloads' and the rows
# phase's rounds), wqbench.loop_rounds=N, wqbench.fio_rounds=N and
# wqbench.ways=a,b.
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
# the awk function of every table: med(k, arr), the median of arr[k, 1]
# .. arr[k, n[k]]; it leaves the least and the most in lo[k] and hi[k]
awk_med='function med(k, arr,   i, j, t, a, c) {
	c = n[k]; for (i = 1; i <= c; i++) a[i] = arr[k, i]
	for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	lo[k] = a[1]; hi[k] = a[c]
	return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}
'
BT=/usr/lib/wqtest/bench/wqstat.bt
rounds=5
loop_rounds=7
fio_rounds=5
phase=main
ways="nothing stat stock new hist perf bpftrace"
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqbench.rounds=*) rounds=${arg#wqbench.rounds=} ;;
	wqbench.loop_rounds=*) loop_rounds=${arg#wqbench.loop_rounds=} ;;
	wqbench.fio_rounds=*) fio_rounds=${arg#wqbench.fio_rounds=} ;;
	wqbench.ways=*) ways=$(echo "${arg#wqbench.ways=}" | tr , ' ') ;;
	wqbench.phase=*) phase=${arg#wqbench.phase=} ;;
	esac
done
# same: every vCPU queues 2,048 items of one function at once (one row,
# all CPUs: what a shared counter costs when it bounces)
workloads=("chain 20000" "burst 256 20" "many 1024 5" "same 2048")
[ -d $B ] || insmod /usr/lib/wqtest/modules/wqbench.ko || { echo "cannot load wqbench"; exit 1; }
have_stat=0; [ -f "$T/workqueue_stat_enabled" ] && have_stat=1
have_perf=0; command -v perf > /dev/null && have_perf=1
have_bpftrace=0; command -v bpftrace > /dev/null && [ -r $BT ] && have_bpftrace=1
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%d\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms() { echo "$(($1 / 1000)).$(printf %03d $(($1 % 1000)))"; }

# the ways of watching: the events of each, setup WAY and teardown WAY
. /usr/lib/wqtest/bench/ways.sh

# bt_start OUT: start the bpftrace script, its maps to be printed into OUT
# by bt_stop; returns once its probes are attached (bpftrace prints
# "Attaching" first, then opens a perf event per tracepoint)
bt_start() {
	BPFTRACE_STRLEN=24 bpftrace -B line $BT > "$1" 2> /tmp/bt.err &
	bt_pid=$!
	local i
	for i in $(seq 1 1200); do
		if grep -q '^Attaching' "$1" &&
			[ "$(ls -l /proc/$bt_pid/fd 2> /dev/null | grep -c 'perf_event')" -ge 3 ]; then
			return 0
		fi
		kill -0 $bt_pid 2> /dev/null || break
		sleep 0.1
	done
	echo "# bpftrace did not attach: $(tail -n 3 /tmp/bt.err)" >&2
	kill -9 $bt_pid 2> /dev/null; wait $bt_pid 2> /dev/null
	return 1
}
# bt_stop: SIGINT, as a user stops it; it prints its maps and exits
bt_stop() { kill -INT $bt_pid; wait $bt_pid; }
# run_way WAY CMD...: run CMD under one way of watching (its setup is not
# part of what CMD times); CMD's stdout is kept
run_way() {
	local way=$1
	shift
	case $way in
	perf)
		perf kwork -k workqueue record -o /tmp/perf.data -- "$@" > /tmp/perf.log 2> /tmp/perf.err || {
			echo "# perf failed: $(tail -n 2 /tmp/perf.err)" >&2; return 1; }
		grep -v '^\[' /tmp/perf.log
		rm -f /tmp/perf.data ;;
	bpftrace)
		bt_start /tmp/bt.out || return 1
		"$@"
		bt_stop ;;
	*)
		setup "$way"
		"$@"
		teardown "$way" ;;
	esac
}
# measure WAY WORKLOAD: ns per item of one run
measure() {
	run_way "$1" sh -c "echo '$2' > $B/run" > /dev/null || { echo 0; return; }
	sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result
}

# destroy_ns N: ns per destroy_workqueue(), median of 5 runs of N
destroy_ns() {
	local i
	for i in 1 2 3 4 5; do
		echo "destroy $1" > $B/run || return 1
		sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result
	done | median
}

# The destroy phase: destroy_workqueue() at the default capacity; "never"
# must come first, as the probe on workqueue_destruction stays once the
# tracer was enabled
phase_destroy() {
	local never on off
	[ $have_stat = 1 ] || { echo "# skip destroy: no stat tracer"; return; }
	never=$(destroy_ns 64)
	echo 1 > $T/workqueue_stat_enabled
	on=$(destroy_ns 64)
	echo 0 > $T/workqueue_stat_enabled
	off=$(destroy_ns 64)
	echo "# destroy_workqueue() of a queue that ran one item, median of 5 runs of 64; the table: $(grep '^# rows' $STAT | cut -c3-)"
	printf '%-26s %12s %9s\n' STATE NS_PER_DESTROY xNEVER
	awk -v n=$never -v a=$on -v b=$off 'BEGIN {
		printf "%-26s %12d %9.2f\n", "never-enabled", n, 1
		printf "%-26s %12d %9.2f\n", "on", a, a / n
		printf "%-26s %12d %9.2f\n", "off-after-on", b, b / n }'
}

# The rows phase: the cost per item with 1,024, 16,384 and 131,072 live
# rows (scale 1024 W: 1,024 functions on each of W workqueues), nothing
# and stat interleaved; then reading and destroying among 131,072 rows
phase_rows() {
	local w r way v never
	[ $have_stat = 1 ] || { echo "# skip rows: no stat tracer"; return; }
	never=$(destroy_ns 64)
	: > /tmp/rows
	for w in 1 16 128; do
		# a warm-up, not counted: the new queues' workers, the new rows
		for way in nothing stat; do
			setup $way; echo "scale 1024 $w 1" > $B/run; teardown $way
		done
		for r in $(seq 1 "$rounds"); do
			for way in nothing stat; do
				setup $way
				echo "scale 1024 $w 1" > $B/run || { echo "# scale 1024 $w failed"; return 1; }
				teardown $way
				v=$(sed -n 's/.*ns_per_item=\([0-9]*\).*/\1/p' $B/result)
				echo "$((w * 1024)) $way $v" >> /tmp/rows
			done
			progress "rows: $((w * 1024)) rows, round $r of $rounds: $(tail -n 2 /tmp/rows | tr '\n' ' ')"
		done
	done
	awk "$awk_med"'{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; rows[$1] = 1 }
		END {
			printf "%-8s %14s %12s %12s %14s\n", "ROWS", "NOTHING_ns", "STAT_ns", "OVERHEAD_ns", "xOVERHEAD@1024"
			for (r = 1024; r <= 131072; r *= 2) {
				if (!(r in rows)) continue
				x = med(r SUBSEP "nothing", v); y = med(r SUBSEP "stat", v)
				if (r == 1024) base = y - x
				printf "%-8d %14d %12d %+12d %14.2f\n", r, x, y, y - x, (base > 0) ? (y - x) / base : 0
			}
		}' /tmp/rows
	echo "# after: $(grep '^# rows' $STAT); $(grep '^# dropped' $STAT); $(grep '^# memory' $STAT)"
	# reading all of them: time, and the memory one open reader holds
	# (its snapshot), from MemAvailable while the file is open
	set -- $(wqtime -n 1 $STAT); local first=$(($1 + $2))
	set -- $(wqtime -n 3 $STAT); local open_us=$1 read_us=$2 lines=$3
	local cat_us base_us a0 a1
	cat_us=$(wqtime -n 3 -x - cat $STAT)
	base_us=$(wqtime -n 3 -x - cat /proc/version)
	a0=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	exec 7< $STAT
	a1=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	exec 7<&-
	echo "# cat of $lines lines: median of 3: $(ms $cat_us) ms (cat's own start-up: $(ms $base_us) ms); in one process: open $(ms $open_us) ms + read $(ms $read_us) ms; the first read, which resolves the symbols: $(ms $first) ms"
	echo "# memory: the tracer $(stat_summary memory) bytes; one open reader's snapshot: $(( (a0 - a1) * 1024 )) bytes (MemAvailable before and while open)"
	echo 1 > $T/workqueue_stat_enabled
	local among
	among=$(destroy_ns 64)
	echo 0 > $T/workqueue_stat_enabled
	echo "# destroy_workqueue() among $(stat_summary rows) rows, tracer on: $among ns; tracer never enabled, at boot: $never ns: x$(awk -v a=$among -v b=$never 'BEGIN { printf "%.2f", a / b }')"
	echo "scale 1024 0 0" > $B/run
}

avail=""
for w in $ways; do
	case $w in
	stat) [ $have_stat = 1 ] || { echo "# skip stat: no workqueue stat tracer in this kernel"; continue; } ;;
	new) [ -d $T/events/workqueue/worklet_enqueue ] || { echo "# skip new: no worklet events in this kernel"; continue; } ;;
	perf) [ $have_perf = 1 ] || { echo "# skip perf: no perf in the image"; continue; } ;;
	bpftrace) [ $have_bpftrace = 1 ] || { echo "# skip bpftrace: no bpftrace or no $BT in the image"; continue; } ;;
	esac
	avail="$avail $w"
done
# fio, random reads and writes of 4 KiB and 64 KiB, direct I/O to a loop
# device over a file in tmpfs, one synchronous job (psync, queue depth 1:
# every request its own round trip through kblockd's and the loop queue's
# work items), 3 s each, with the tracer off ("nothing") and on ("stat"),
# in turns that swap which goes first every round.  Per load: the median
# MB/s of each and the range, and on/off of the medians and of each round.
fio_bench() {
	local dev r wl w out bw first
	command -v fio > /dev/null || { echo "# skip fio: not in this image (WQ_WITH_FIO=1)"; return; }
	[ $have_stat = 1 ] || { echo "# skip fio: no stat tracer"; return; }
	mkdir -p /tmp/fio && mount -t tmpfs -o size=80m tmpfs /tmp/fio || { echo "# skip fio: no tmpfs"; return; }
	head -c $((64 << 20)) /dev/zero > /tmp/fio/img
	dev=$(losetup -f --show /tmp/fio/img) || { echo "# skip fio: losetup failed"; umount /tmp/fio; return; }
	local loads=("randread 4k" "randwrite 4k" "randread 64k" "randwrite 64k")
	echo "# fio $(fio --version): $dev over a 64 MiB file in tmpfs, psync, 1 job, direct=1, 3 s a run, $fio_rounds rounds"
	: > /tmp/fio.samples
	for r in $(seq 1 "$fio_rounds"); do
		first="nothing stat"; [ $((r % 2)) = 0 ] && first="stat nothing"
		for wl in "${loads[@]}"; do
			set -- $wl
			for w in $first; do
				# terse v3: field 7 is the read KiB/s, 48 the write KiB/s
				rm -f /tmp/fio.out
				run_way $w sh -c 'fio "$@" > /tmp/fio.out 2> /tmp/fio.err || echo "rc=$?" >> /tmp/fio.err' fio \
					--name=wq --filename=$dev --rw=$1 --bs=$2 --direct=1 \
					--ioengine=psync --thread --time_based --runtime=3 --size=64m \
					--output-format=terse --terse-version=3
				out=$(cat /tmp/fio.out 2> /dev/null)
				if grep -q '^rc=' /tmp/fio.err; then
					echo "# fio $1 $2 $w failed: $(tr '\n' ' ' < /tmp/fio.err)"
					continue
				fi
				bw=$(echo "$out" | awk -F';' -v f=$([ $1 = randread ] && echo 7 || echo 48) \
					'$1 == 3 { printf "%.2f", $f / 1024 }')
				[ -n "$bw" ] || { echo "# fio $1 $2 $w: no result"; continue; }
				echo "$1-$2 $w $r $bw" >> /tmp/fio.samples
			done
			progress "fio round $r of $fio_rounds, $1 $2: $(tail -n 2 /tmp/fio.samples | awk '{ printf "%s %s ", $2, $4 }')MB/s"
		done
	done
	losetup -d $dev; umount /tmp/fio
	awk "$awk_med"'{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $4; by[$1, $2, $3] = $4; wl[$1] = 1; rd[$3] = 1 }
		END {
			printf "%-14s %10s %8s %8s %10s %8s %8s %8s %8s %8s\n", "FIO", "OFF_MBps", "MIN", "MAX",
				"ON_MBps", "MIN", "MAX", "ON/OFF", "RND_MIN", "RND_MAX"
			for (x in wl) {
				a = med(x SUBSEP "nothing", v); alo = lo[x SUBSEP "nothing"]; ahi = hi[x SUBSEP "nothing"]
				b = med(x SUBSEP "stat", v); blo = lo[x SUBSEP "stat"]; bhi = hi[x SUBSEP "stat"]
				rmin = rmax = ""
				for (r in rd) if ((x, "nothing", r) in by && (x, "stat", r) in by && by[x, "nothing", r] > 0) {
					q = by[x, "stat", r] / by[x, "nothing", r]
					if (rmin == "" || q < rmin) rmin = q
					if (rmax == "" || q > rmax) rmax = q
				}
				printf "%-14s %10.1f %8.1f %8.1f %10.1f %8.1f %8.1f %8.3f %8.3f %8.3f\n", x, a, alo, ahi, b, blo, bhi,
					a ? b / a : 0, rmin, rmax
			}
		}' /tmp/fio.samples | (read -r h; echo "$h"; sort)
}

echo "# phase $phase; ways:$avail; rounds: $rounds; kernel $(uname -r), $(nproc) CPUs"
case $phase in
main) ;;
rows) phase_rows; exit ;;
fio) fio_bench; exit ;;
destroy) phase_destroy; exit ;;
*) echo "# unknown phase '$phase'"; exit 1 ;;
esac

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
awk -v ways="$avail" "$awk_med"'
	{ k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; wl[$1] = 1 }
	END {
		nw = split(ways, W, " ")
		printf "%-7s %-8s %10s %10s %10s %10s %9s %12s %12s\n", "WORKLOAD", "WAY", "MEDIAN_ns", "MIN_ns", "MAX_ns", "OVERHEAD", "xNOTHING", "xRINGBUF_OH", "xBPFTRACE_OH"
		for (w in wl) {
			base = med(w SUBSEP "nothing", v)
			rb = 0; bt = 0
			for (i = 1; i <= nw; i++) if (W[i] == "stock") rb = med(w SUBSEP "stock", v) - base
			for (i = 1; i <= nw; i++) if (W[i] == "bpftrace") bt = med(w SUBSEP "bpftrace", v) - base
			for (i = 1; i <= nw; i++) {
				k = w SUBSEP W[i]; m = med(k, v); oh = m - base
				printf "%-8s %-8s %10d %10d %10d %+10d %9.2f %12s %12s\n", w, W[i], m, lo[k], hi[k], oh,
					base ? m / base : 0, (rb > 0 && W[i] != "nothing") ? sprintf("%.2f", oh / rb) : "-",
					(bt > 0 && W[i] != "nothing") ? sprintf("%.3f", oh / bt) : "-"
			}
		}
	}' /tmp/samples | (read -r h; echo "$h"; sort -k1,1 -s)

# The bpftrace script against the stat file, both on at once over the same
# items: per function of the wqbench queue, the executions must be equal;
# per group of functions, the averages are compared
agree() {
	local HS=$T/trace_stat/workqueues_hist wl
	echo 1 > $T/workqueue_stat_reset; echo 1 > $T/workqueue_stat_enabled
	bt_start /tmp/agree.bt || return 1
	for wl in "chain 2000" "burst 256 4" "many 1024 1" "spin 64 200 2"; do
		echo "$wl" > $B/run
	done
	bt_stop
	echo 0 > $T/workqueue_stat_enabled
	# "FUNCTION EXECUTED RUN_ns LAT_ns" of each side, wqbench's wqb_* only
	awk '/^#/ { next } !hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
		$(idx["WORKQUEUE"]) == "wqbench" && $(idx["FUNCTION"]) ~ /^wqb_/ {
			printf "%s %d %.0f %.0f\n", $(idx["FUNCTION"]), $(idx["EXECUTED"]),
				$(idx["TOTAL_RUN_us"]) * 1000, $(idx["TOTAL_LAT_us"]) * 1000 }' $HS | sort > /tmp/agree.stat
	awk -F'[][]' '/^@(executed|run|lat)\[wqbench, wqb_/ {
			split($2, k, ", "); m = substr($1, 2); f = k[2]; fns[f] = 1
			if (m == "executed") { sub(/^: /, "", $3); ex[f] = $3 }
			else { match($3, /total [0-9]+/); tot[m, f] = substr($3, RSTART + 6, RLENGTH - 6) }
		}
		END { for (f in fns) printf "%s %d %.0f %.0f\n", f, ex[f], tot["run", f], tot["lat", f] }' /tmp/agree.bt | sort > /tmp/agree.btv
	echo "# agreement: the stat tracer and $(basename $BT) on at once; chain 2000, burst 256 4, many 1024 1, spin 64 200 2"
	join /tmp/agree.stat /tmp/agree.btv | awk '
		function grp(f) { return f == "wqb_chain_fn" ? "chain" : f == "wqb_spin_fn" ? "spin" : "burst+many" }
		{ g = grp($1); n[g]++; es[g] += $2; eb[g] += $5; rs[g] += $3; rb[g] += $6; ls[g] += $4; lb[g] += $7
		  if ($2 != $5) bad++; fns++ }
		END {
			printf "%-11s %6s %10s %10s %14s %14s %9s %14s %14s %9s\n", "FUNCTIONS", "ROWS", "EXEC_stat", "EXEC_bt",
				"AVG_RUN_stat", "AVG_RUN_bt", "bt/stat", "AVG_LAT_stat", "AVG_LAT_bt", "bt/stat"
			for (g in n)
				printf "%-11s %6d %10d %10d %12.0fns %12.0fns %9.3f %12.0fns %12.0fns %9.3f\n", g, n[g], es[g], eb[g],
					rs[g] / es[g], rb[g] / eb[g], (rb[g] / eb[g]) / (rs[g] / es[g]),
					ls[g] / es[g], lb[g] / eb[g], (lb[g] / eb[g]) / (ls[g] / es[g])
			printf "# agreement: %d functions in both, %d with different executions\n", fns, bad
		}'
	echo "# agreement: functions only in one: $(join -v1 /tmp/agree.stat /tmp/agree.btv | wc -l) in the stat file, $(join -v2 /tmp/agree.stat /tmp/agree.btv | wc -l) in bpftrace's maps"
}

# Direct I/O to a loop device over a file in tmpfs: every request is a work
# item of the loop queue (loop_queue_work()).  MB/s and items/s per way.
loop_bench() {
	local lways="" w dev wl r v
	for w in nothing stat stock perf bpftrace; do
		case " $avail " in *" $w "*) lways="$lways $w" ;; esac
	done
	mkdir -p /tmp/lo && mount -t tmpfs -o size=80m tmpfs /tmp/lo || { echo "# skip loop: no tmpfs"; return; }
	head -c $((64 << 20)) /dev/zero > /tmp/lo/img
	dev=$(losetup -f --show /tmp/lo/img) || { echo "# skip loop: losetup failed"; umount /tmp/lo; return; }
	local name=${dev#/dev/}
	local loads=("write 4096 8000" "read 4096 8000" "write 65536 2000" "read 65536 2000")
	# work items per request: each one runs the hardware queue from
	# kblockd (blk_mq_run_work_fn), which queues the loop queue's item; a
	# request that finds that item still pending joins it.  So the items
	# are counted, every queue of the machine, once per workload, by the
	# stat tracer (ITEMS/s = IOS/s x items per request)
	echo "# loop: $dev over a 64 MiB file in tmpfs; the work items of the machine per request, counted by the stat tracer:"
	: > /tmp/loop.per
	for wl in "${loads[@]}"; do
		set -- $wl
		echo 1 > $T/workqueue_stat_reset; echo 1 > $T/workqueue_stat_enabled
		loopio $1 $dev $2 $3 > /dev/null
		echo 0 > $T/workqueue_stat_enabled
		v=$(stat_awk '{ s += $(idx["EXECUTED"]) } END { print s + 0 }')
		echo "$1-$(($2 / 1024))k $(awk -v a=$v -v b=$3 'BEGIN { printf "%.4f", a / b }')" >> /tmp/loop.per
		echo "#   $1 $2 x $3: $v items: $(stat_awk '$(idx["EXECUTED"]) > 0 { printf "%s %s %s; ", $(idx["WORKQUEUE"]), $(idx["FUNCTION"]), $(idx["EXECUTED"]) }')"
	done
	: > /tmp/loop.samples
	local order nw=$(echo $lways | wc -w)
	for r in $(seq 1 "$loop_rounds"); do
		# the ways in another order each round (rotated), so that none
		# always runs first after a load changes
		order=$(echo $lways $lways | tr ' ' '\n' | tail -n +$(( (r - 1) % nw + 1 )) | head -n $nw | tr '\n' ' ')
		for wl in "${loads[@]}"; do
			set -- $wl
			for w in $order; do
				v=$(run_way $w loopio $1 $dev $2 $3) || v=
				echo "$1-$(($2 / 1024))k $w $(echo "$v" | sed -n 's/.*mbps=\([0-9.]*\) iops=\([0-9]*\).*/\1 \2/p')" >> /tmp/loop.samples
			done
			progress "loop round $r of $loop_rounds, $1 $2: $(tail -n $nw /tmp/loop.samples | awk '{ printf "%s %s ", $2, $3 }')MB/s"
		done
	done
	losetup -d $dev; umount /tmp/lo
	awk -v ways="$lways" "$awk_med"'FILENAME ~ /per$/ { per[$1] = $2; next } NF == 4 { k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3; io[k, n[k]] = $4; wl[$1] = 1 }
		END {
			nw = split(ways, W, " ")
			printf "%-10s %-9s %10s %8s %8s %10s %10s %9s\n", "LOOP_IO", "WAY", "MEDIAN_MBps", "MIN", "MAX", "IOS/s", "ITEMS/s", "xNOTHING"
			for (x in wl) {
				base = med(x SUBSEP "nothing", v)
				for (i = 1; i <= nw; i++) {
					k = x SUBSEP W[i]
					if (!n[k]) continue
					ios = med(k, io); m = med(k, v)
					printf "%-10s %-9s %10.1f %8.1f %8.1f %10d %10d %9.3f\n", x, W[i], m, lo[k], hi[k], ios, ios * per[x], base ? m / base : 0
				}
			}
		}' /tmp/loop.per /tmp/loop.samples | (read -r h; echo "$h"; sort -k1,1 -s)
}

if [ $have_bpftrace = 1 ] && [ $have_stat = 1 ] && [ "$(echo $ways)" != nothing ]; then
	agree
fi
if [ "$(echo $ways)" != nothing ]; then
	loop_bench
fi

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
