#!/bin/bash
# Helpers shared by the guest tests.  Source it first thing.
T=/sys/kernel/tracing
WQT=/sys/kernel/debug/wqtest
MODDIR=/usr/lib/wqtest/modules

# fail MSG: the test fails with MSG
fail() { echo "FAIL: $*"; exit 1; }
# skip REASON: the test is skipped; the reason is the last line printed
skip() { echo "$*"; exit 77; }
# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "$1 = $2 (as expected)"
}
# is_number S: S is an integer or a decimal (an empty or other S is not)
is_number() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; }
# expect_ge WHAT GOT MIN  (integers or decimals; anything else fails)
expect_ge() {
	is_number "$2" && is_number "$3" || fail "$1: got '$2', want a number >= '$3'"
	awk -v g="$2" -v m="$3" 'BEGIN { exit !(g + 0 >= m + 0) }' ||
		fail "$1: got '$2', want >= $3"
	echo "$1 = $2 (>= $3)"
}
# expect_le WHAT GOT MAX
expect_le() {
	is_number "$2" && is_number "$3" || fail "$1: got '$2', want a number <= '$3'"
	awk -v g="$2" -v m="$3" 'BEGIN { exit !(g + 0 <= m + 0) }' ||
		fail "$1: got '$2', want <= $3"
	echo "$1 = $2 (<= $3)"
}

# us_ns US: a time the tracer printed in us with three decimals, in ns
# (exact: the tracer prints whole ns)
us_ns() {
	[[ $1 =~ ^([0-9]+)\.([0-9]{3})$ ]] || return 1
	echo $((10#${BASH_REMATCH[1]} * 1000 + 10#${BASH_REMATCH[2]}))
}
# win_get KEY [RESULT-FILE]: a bound of the test module's windows, in ns
# (guest/modules/wqtest/win.c: probes right before and right after the stat
# tracer's own, on the same tracepoints and its clock, and the work
# function's first and last statements, so that the tracer's sample of each
# item lies in [lo, hi] whatever the host did meanwhile)
win_get() { sed -n "s/^$1=//p" "${2:-$WQT/result}"; }
# expect_win WHAT PRINTED_us LO_ns HI_ns: what the tracer printed lies in
# the window [LO, HI] that the module measured around its probes: no
# tolerance, the window is what the tracer may have seen
expect_win() {
	local got lo=$3 hi=$4
	got=$(us_ns "$2") && [[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] ||
		fail "$1: got '$2', want a time in the window of the module's probes ['$lo', '$hi'] ns"
	[ "$got" -ge "$lo" ] && [ "$got" -le "$hi" ] ||
		fail "$1: got $2 us, outside the window of the module's probes [$lo, $hi] ns"
	echo "$1 = $2 us, in the window [$lo, $hi] ns (width $((hi - lo)) ns)"
}
# expect_avg_win WHAT AVG_us N LO_ns HI_ns: an average the tracer printed,
# its sum over N samples cut to the ns, against the window [LO, HI] of the
# sum: AVG x N lies in [LO - N, HI]
expect_avg_win() {
	local lo=$4
	[[ $lo =~ ^[0-9]+$ ]] && lo=$((lo > $3 ? lo - $3 : 0))
	expect_win "$1" "$(awk -v a="$2" -v n="$3" 'BEGIN { printf "%.3f", a * n }')" "$lo" "$5"
}
# p99_est NS MIN_ns MAX_ns: the tracer's P99 estimate for a 99th-percentile
# sample of NS ns: the middle of its histogram bucket (64 ns units, eight
# buckets to a power of two from 16 units up), kept within [MIN, MAX]
p99_est() {
	awk -v ns="$1" -v lo="$2" -v hi="$3" 'BEGIN {
		u = int(ns / 64)
		if (u < 16) { b = u; w = 1 }
		else { o = 0; for (x = u; x >= 2; x = int(x / 2)) o++
			w = 2 ^ (o - 3); b = int(u / w) * w }
		m = b * 64 + w * 64 / 2
		if (m < lo) m = lo
		if (m > hi) m = hi
		printf "%.0f\n", m
	}'
}
# expect_p99_win WHAT PRINTED_us LO_ns HI_ns MIN_us MAX_us: the P99 the tracer
# printed is its estimate of a sample in [LO, HI], the window of the sample
# at its rank (the k-th smallest lower bound and upper bound); MIN and MAX
# are the tracer's own, within which it keeps the estimate
expect_p99_win() {
	local mn mx
	mn=$(us_ns "$5") && mx=$(us_ns "$6") || fail "$1: MIN '$5' or MAX '$6' is not a time"
	expect_win "$1 (estimates of the window's ends)" "$2" \
		"$(p99_est "$3" "$mn" "$mx")" "$(p99_est "$4" "$mn" "$mx")"
}
# expect_row_wins WORKQUEUE FUNCTION N [RESULT-FILE]: every time column of
# the row against the windows of its N items, which the last scenario of
# the test module watched (all of them, and only them, in the row): MIN,
# MAX, P99 and TOTAL of the run; AVG (the sum over N, cut to the ns), MAX
# and P99 of the latency (the table has no MIN_LAT_us: the P99's clamp
# takes the smallest latency's low end)
expect_row_wins() {
	local wq=$1 fn=$2 n=$3 r=${4:-$WQT/result} mn
	expect_eq "$fn: items the module's probes saw whole" "$(win_get win_items "$r")" "$n"
	expect_win "$fn: MIN_RUN_us" "$(stat_get MIN_RUN_us "$wq" "$fn")" \
		"$(win_get run_min_lo_ns "$r")" "$(win_get run_min_hi_ns "$r")"
	expect_win "$fn: MAX_RUN_us" "$(stat_get MAX_RUN_us "$wq" "$fn")" \
		"$(win_get run_max_lo_ns "$r")" "$(win_get run_max_hi_ns "$r")"
	expect_win "$fn: TOTAL_RUN_us" "$(stat_get TOTAL_RUN_us "$wq" "$fn")" \
		"$(win_get run_sum_lo_ns "$r")" "$(win_get run_sum_hi_ns "$r")"
	expect_p99_win "$fn: P99_RUN_us" "$(stat_get P99_RUN_us "$wq" "$fn")" \
		"$(win_get run_p99_lo_ns "$r")" "$(win_get run_p99_hi_ns "$r")" \
		"$(stat_get MIN_RUN_us "$wq" "$fn")" "$(stat_get MAX_RUN_us "$wq" "$fn")"
	expect_avg_win "$fn: AVG_LAT_us x $n" "$(stat_get AVG_LAT_us "$wq" "$fn")" "$n" \
		"$(win_get lat_sum_lo_ns "$r")" "$(win_get lat_sum_hi_ns "$r")"
	expect_win "$fn: MAX_LAT_us" "$(stat_get MAX_LAT_us "$wq" "$fn")" \
		"$(win_get lat_max_lo_ns "$r")" "$(win_get lat_max_hi_ns "$r")"
	mn=$(awk -v n="$(win_get lat_min_lo_ns "$r")" 'BEGIN { printf "%.3f", n / 1000 }')
	expect_p99_win "$fn: P99_LAT_us" "$(stat_get P99_LAT_us "$wq" "$fn")" \
		"$(win_get lat_p99_lo_ns "$r")" "$(win_get lat_p99_hi_ns "$r")" \
		"$mn" "$(stat_get MAX_LAT_us "$wq" "$fn")"
}

# progress MSG: tell the host how far a long run is, through the kernel
# log (the console, which the host follows while the guest runs); the
# results channel is left as it is
progress() { echo "wqtest-progress: $*" > /dev/kmsg; }

# on_exit CMD: run CMD when the test exits, passed or failed (the commands
# given run last first), so that what a test changed is put back
on_exit() {
	_wqt_exit="$1; ${_wqt_exit:-}"
	trap "$_wqt_exit" EXIT
}
# buffer_kb: the ring buffer's size per CPU, as a write would set it (the
# size it expands to, while it is still unexpanded)
buffer_kb() {
	sed -n 's/.*(expanded: \([0-9]*\)).*/\1/p; t; s/^\([0-9]*\).*/\1/p' "$T/buffer_size_kb"
}
# keep_buffer: put the ring buffer's size, its clock and the events back
# at exit
keep_buffer() {
	local clock
	clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$T/trace_clock")
	on_exit "echo $(buffer_kb) > $T/buffer_size_kb; echo $clock > $T/trace_clock; trace_clear"
}

# wqt_load: load the test module once
wqt_load() {
	[ -d "$WQT" ] && return 0
	insmod "$MODDIR/wqtest.ko" || fail "insmod wqtest.ko"
	[ -d "$WQT" ] || fail "wqtest loaded but $WQT is missing"
}
# wqt_run SCENARIO ARGS...: run a scenario of the test module, synchronously
wqt_run() {
	echo "$*" > "$WQT/run" || fail "scenario '$*' failed"
}
# wqt_get KEY: a value from the last scenario's result
wqt_get() { sed -n "s/^$1=//p" "$WQT/result"; }

# trace_clear: stop tracing, disable every event and empty the buffer
trace_clear() {
	echo 0 > "$T/tracing_on"
	echo 0 > "$T/events/enable"
	echo > "$T/trace"
}
# trace_events EVENT...: enable these workqueue events and start tracing
trace_events() {
	trace_clear
	local e
	for e in "$@"; do
		echo 1 > "$T/events/workqueue/$e/enable" || fail "enable $e"
	done
	echo 1 > "$T/tracing_on"
}
# trace_lines EVENT [GREP-PATTERN]: the trace lines of EVENT, filtered
trace_lines() {
	grep " $1: " "$T/trace" | grep -e "${2:-.}" || true
}
# field NAME: read key=value field NAME from stdin lines
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

STAT=$T/trace_stat/workqueues
# stat_reset_on: clear the stat tracer's table and turn it on
stat_reset_on() {
	echo 1 > "$T/workqueue_stat_reset" || fail "reset"
	echo 1 > "$T/workqueue_stat_enabled" || fail "enable"
}
# stat_off: turn the stat tracer off
stat_off() { echo 0 > "$T/workqueue_stat_enabled" || fail "disable"; }
# stat_awk [-v VAR=VALUE...] PROGRAM: run an awk PROGRAM over the rows of
# the table ($STAT), the summary lines skipped; idx["COLUMN"] is the field
# number of each column of the header
stat_awk() {
	local prog=${*: -1}
	awk "${@:1:$#-1}" '/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
		'"$prog" "$STAT"
}
# stat_get COLUMN WORKQUEUE FUNCTION: one value of one row of the table
# (empty when there is no such row); FUNCTION matches the symbol name.
stat_get() {
	stat_awk -v col="$1" -v wq="$2" -v fn="$3" \
		'$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) == fn { print $(idx[col]); exit }'
}
# stat_get_full COLUMN WORKQUEUE FUNCTION: as stat_get, but FUNCTION is the
# whole of the column as printed ("fn [module]", "(unloaded)" included)
stat_get_full() {
	stat_awk -v col="$1" -v wq="$2" -v fn="$3" '{
			f = $(idx["FUNCTION"])
			for (i = idx["FUNCTION"] + 1; i <= NF; i++)
				f = f " " $i
		}
		$(idx["WORKQUEUE"]) == wq && f == fn { print $(idx[col]); exit }'
}
# hist_get COLUMN WORKQUEUE FUNCTION: one value of one row of
# trace_stat/workqueues_hist (whose columns are those of the table, then
# TOTAL_LAT_us, RUN_BUCKETS, LAT_BUCKETS, WQ_ID); for RUN_BUCKETS and
# LAT_BUCKETS, the samples in the buckets ("le:count,..."; 0 for "-")
hist_get() {
	awk -v col="$1" -v wq="$2" -v fn="$3" '/^#/ { next }
		!hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
		$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) == fn {
			v = $(idx[col])
			if (col ~ /_BUCKETS$/) {
				n = 0; k = split(v, b, ",")
				for (i = 1; i <= k; i++) { split(b[i], kv, ":"); n += kv[2] }
				v = v == "-" ? 0 : n
			}
			print v; exit
		}' "$T/trace_stat/workqueues_hist"
}
# stat_summary KEY: the value after "# KEY: " in the summary lines
stat_summary() { sed -n "s/^# $1: \([^ ]*\).*/\1/p" "$STAT"; }
# stat_rows: the number of rows in the table
stat_rows() { grep -v '^#' "$STAT" | tail -n +2 | grep -c .; }

# stat_fn_sum COLUMN FUNCTION: COLUMN summed over every row of FUNCTION,
# whatever its workqueue (destroyed ones included); 0 when there is none
stat_fn_sum() {
	stat_awk -v col="$1" -v fn="$2" '$(idx["FUNCTION"]) == fn { s += $(idx[col]) }
		END { print s + 0 }'
}
# stat_wq_sum COLUMN WORKQUEUE [FUNCTION-RE]: COLUMN summed over the rows
# of WORKQUEUE (whose function matches the awk regex FUNCTION-RE); "none"
# when there is no such row
stat_wq_sum() {
	stat_awk -v col="$1" -v wq="$2" -v re="${3:-.}" \
		'$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) ~ re { s += $(idx[col]); n++ }
		END { print n ? s : "none" }'
}
# stress_check_self: the stress scenario's own counts are consistent: every
# successful enqueue ran or was cancelled off its pool (delayed items are
# only cancelled off their timer, so for them enq = exec)
stress_check_self() {
	local fn enq exec cancel
	[ "$(stress_counts | grep -c .)" -ge 1 ] ||
		fail "the stress scenario returned no counts: $(head -c 300 "$WQT/result")"
	while read -r fn enq exec cancel; do
		case $fn in
		wqs_delayed_fn|wqs_free_fn|wqs_life_fn)
			expect_eq "module: $fn enqueues = executions" "$enq" "$exec" ;;
		*)
			expect_eq "module: $fn enqueues = executions + cancels" "$enq" "$((exec + cancel))" ;;
		esac
	done < <(stress_counts)
}
# stress_counts: "FUNCTION ENQ EXEC CANCEL" lines of the last stress run
stress_counts() {
	sed -n 's/^fn=\([^ ]*\) enq=\([0-9]*\) exec=\([0-9]*\) cancel=\([0-9]*\)$/\1 \2 \3 \4/p' "$WQT/result"
}
# stress_run SECONDS: the stress scenario with the tracer on throughout,
# from an empty table; prints the module's counts and the table's summary
stress_run() {
	wqt_load
	stat_reset_on
	wqt_run stress "$1" 40
	stat_off
	cat "$WQT/result"
	head -n 8 "$STAT"
	expect_eq "seconds of stress" "$(wqt_get seconds)" "$1"
	expect_eq "threads (one per vCPU)" "$(wqt_get threads)" "$(nproc)"
}

# mm_trace_on: enable the mm_fault events for the processes named mmfault
# only, on an empty buffer
mm_trace_on() {
	trace_clear
	echo 'comm == "mmfault"' > "$T/events/mm_fault/filter" || fail "set the mm_fault filter"
	echo 1 > "$T/events/mm_fault/enable" || fail "enable the mm_fault events"
	echo 1 > "$T/tracing_on"
}
# mm_trace_match PID EVENT KEY=VALUE...: the trace lines of EVENT by task
# PID that carry every KEY=VALUE given
mm_trace_match() {
	local pid=$1 ev=$2
	shift 2
	awk -v pid="$pid" -v ev="$ev" -v toks="$*" '
		BEGIN { n = split(toks, want, " ") }
		$0 ~ ("-" pid " +\\[") && index($0, " " ev ": ") {
			l = $0 " "
			for (i = 1; i <= n; i++)
				if (!index(l, " " want[i] " "))
					next
			print
		}' "$T/trace"
}
# mm_check_expectations FILE: each "expect PID EVENT K=V..." line of FILE is
# exactly one trace line (printed); each "absent PID EVENT WHY K=V..." none
mm_check_expectations() {
	local kind pid ev rest why l n
	while read -r kind pid ev rest; do
		case $kind in
		expect)	l=$(mm_trace_match "$pid" "$ev" $rest)
			n=$(grep -c . <<< "$l")
			[ "$n" = 1 ] || { grep " $ev: " "$T/trace" | tail -n 20; fail "$ev $rest by $pid: $n trace lines, want 1"; }
			echo "found: $l" ;;
		absent)	why=${rest%% *} rest=${rest#* }
			n=$(mm_trace_match "$pid" "$ev" $rest | grep -c .)
			[ "$n" = 0 ] || fail "$ev $rest by $pid: $n trace lines, want none ($why)"
			echo "not reported, as it must not be ($why): $ev $rest" ;;
		esac
	done < "$1"
}

# The tests of the events' clients (8x-client-*): trace-cmd, perf and
# bpftrace read the series' events, and each must render every field as the
# kernel's own trace file does, from the same events.
CLIENT_WQ_EVENTS="worklet_enqueue worklet_enqueue_delayed worklet_execute worklet_complete worklet_cancel workqueue_flush workqueue_creation workqueue_destruction"
CLIENT_MM_EVENTS="mm_fault_anon mm_fault_swapin mm_fault_file mm_fault_anon_cow mm_fault_file_cow mm_unmap_anon mm_unmap_file"
# the kernel filters of the workload: the test module's workqueues, the
# processes named mmfault
CLIENT_WQ_FILTER='workqueue ~ "wqtest*"'
CLIENT_MM_FILTER='comm == "mmfault"'
CL=/tmp/client

# client_trace_on: the series' events and the stock workqueue_queue_work (a
# control: what a client renders differently for it, it renders differently
# for any event) on, filtered to the workload, on an empty buffer of 4 MB
# a CPU; everything is put back at exit
client_trace_on() {
	local e
	keep_buffer
	on_exit client_trace_off
	trace_clear
	echo 4096 > "$T/buffer_size_kb" || fail "set the buffer size"
	for e in $CLIENT_WQ_EVENTS workqueue_queue_work; do
		echo "$CLIENT_WQ_FILTER" > "$T/events/workqueue/$e/filter" || fail "filter $e"
		echo 1 > "$T/events/workqueue/$e/enable" || fail "enable $e"
	done
	for e in $CLIENT_MM_EVENTS; do
		echo "$CLIENT_MM_FILTER" > "$T/events/mm_fault/$e/filter" || fail "filter $e"
		echo 1 > "$T/events/mm_fault/$e/enable" || fail "enable $e"
	done
	echo 1 > "$T/tracing_on"
}
# client_trace_off: the events off and unfiltered
client_trace_off() {
	local e
	echo 0 > "$T/tracing_on"
	for e in $CLIENT_WQ_EVENTS workqueue_queue_work; do
		echo 0 > "$T/events/workqueue/$e/filter"
	done
	for e in $CLIENT_MM_EVENTS; do
		echo 0 > "$T/events/mm_fault/$e/filter"
	done
	echo 0 > "$T/events/enable"
}
# client_workload: work of the test module that fires each workqueue event
# (a workqueue created and destroyed, delayed items, cancels, flushes of
# every kind), and mmfault's faults and swap-ins, which fire each mm_fault
# event; needs the swap disk (/dev/vda), which it puts back off
client_workload() {
	wqt_load
	wqt_run create 4
	wqt_run delayed 3
	wqt_run cancel
	wqt_run flush
	mkdir -p "$CL/mmf"
	mmfault faults "$CL/mmf" > "$CL/mmf/expect" || fail "mmfault faults failed"
	grep -q '^/dev/vda ' /proc/swaps || swapon /dev/vda || fail "swapon /dev/vda"
	mmfault swap > "$CL/mmf/swap"
	local rc=$?
	swapoff /dev/vda
	[ $rc = 0 ] || fail "mmfault swap failed: $(tail -n 1 "$CL/mmf/swap")"
}
# client_canon FORMAT: lines of a trace, as FORMAT prints them (trace: the
# kernel's trace file; report: trace-cmd report; perf: perf script), as
# "CPU<TAB>PID<TAB>TIME<TAB>EVENT<TAB>FIELDS", the fields as the kernel
# prints them once two conventions of libtraceevent are undone (each is
# how it prints any event, the stock ones too; test 80 shows that on
# workqueue_queue_work): a %p value is printed as 0x and hex digits, or
# (nil), where the kernel (no_hash_pointers) prints 16 hex digits; and %ps
# of a module's function leaves out the " [module]" the kernel adds.  A
# line that is none of these is printed as "BAD<TAB>LINE".
client_canon() {
	awk -v fmt="$1" '
	# ptr V: a pointer value in one spelling (hex digits, no 0x, no
	# leading zeros), its trailing ":" kept
	function ptr(v,   c) {
		c = ""
		if (v ~ /:$/) { c = ":"; sub(/:$/, "", v) }
		if (v == "(nil)") v = "0"
		sub(/^0x/, "", v)
		sub(/^0+/, "", v)
		return (v == "" ? "0" : v) c
	}
	/^#/ || /^$/ || /^CPU [0-9]+ is empty$/ || /^cpus=[0-9]+$/ { next }
	{
		line = $0
		if (!match(line, /\[[0-9]+\] /)) { print "BAD\t" line; next }
		left = substr(line, 1, RSTART - 1)
		cpu = substr(line, RSTART + 1, RLENGTH - 3) + 0
		rest = substr(line, RSTART + RLENGTH)
		sub(/ +$/, "", left)
		if (fmt == "perf") {
			pid = left; sub(/.* /, "", pid)
		} else {
			pid = left; sub(/.*-/, "", pid)
		}
		if (!match(rest, /[0-9]+\.[0-9]+: +/)) { print "BAD\t" line; next }
		ts = substr(rest, RSTART, RLENGTH); sub(/: +$/, "", ts)
		rest = substr(rest, RSTART + RLENGTH)
		if (!match(rest, /^[a-z_0-9:]+: */)) { print "BAD\t" line; next }
		ev = substr(rest, 1, RLENGTH); sub(/: *$/, "", ev); sub(/.*:/, "", ev)
		f = substr(rest, RLENGTH + 1)
		gsub(/ \[[A-Za-z0-9_]+\]/, "", f)
		n = split(f, tok, " ")
		out = ""
		for (i = 1; i <= n; i++) {
			t = tok[i]
			if (t ~ /^(work|struct)=/) {
				k = t; sub(/=.*/, "", k); v = t; sub(/^[a-z]+=/, "", v)
				t = k "=" ptr(v)
			} else if (i > 1 && tok[i - 1] == "struct")
				t = ptr(t)
			out = out (i > 1 ? " " : "") t
		}
		printf "%d\t%s\t%s\t%s\t%s\n", cpu, pid, ts, ev, out
	}'
}
# client_counts FILE: "EVENT COUNT" for every event of a canonical trace
client_counts() { cut -f 4 "$1" | sort | uniq -c | awk '{ print $2, $1 }'; }
# client_check_whole: the ring buffer lost nothing (every entry written is
# in the buffer), so that the trace file holds every event of the workload
client_check_whole() {
	local w
	w=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' "$CL/trace.txt")
	[ -n "$w" ] || fail "the trace file has no entries-in-buffer line"
	expect_eq "entries in the buffer (= entries written: none lost)" "${w% *}" "${w#* }"
}
# client_coverage FILE: each of the series' events is in the canonical
# trace FILE, workqueue_queue_work too
client_coverage() {
	local e n
	for e in $CLIENT_WQ_EVENTS $CLIENT_MM_EVENTS workqueue_queue_work; do
		n=$(cut -f 4 "$1" | grep -c -x "$e")
		expect_ge "$e: events of the workload" "$n" 1
	done
}
# client_verdict CLIENT OUTPUT FULL: what the client printed (OUTPUT) has no
# event it could not render, $CL/kernel and $CL/client (the canonical
# lines compared) hold events only, the workload's canonical trace FULL
# has every event, and the two are the same
client_verdict() {
	expect_eq "lines $1 could not render" "$(grep -c -E 'FAILED TO PARSE|\[UNKNOWN' "$2")" 0
	expect_eq "lines of the trace file that are not events" "$(grep -c '^BAD' "$CL/kernel")" 0
	expect_eq "lines of $1 that are not events" "$(grep -c '^BAD' "$CL/client")" 0
	client_coverage "$3"
	client_compare "$1 against the trace file" "$CL/kernel" "$CL/client"
}
# client_lost FILE...: how many lines of FILEs speak of lost events
client_lost() { cat "$@" | grep -c -i 'lost'; }
# client_compare WHAT KERNEL CLIENT: two canonical traces, sorted, are the
# same line for line; on a difference, the first lines that differ
client_compare() {
	if ! cmp -s "$2" "$3"; then
		diff "$2" "$3" | head -n 20
		fail "$1: $(grep -c . "$2") lines from the kernel, $(grep -c . "$3") from the client, not the same (first differences above: < kernel, > client)"
	fi
	echo "$1: the same $(grep -c . "$2") lines"
}

# The function profiler's tables (the [ftrace] tests).  PROF: its switch.
# PROF_ROW: a row of trace_stat/function<N> with the function graph tracer,
# the name in 30 columns, the hits in 10, then three durations
# (trace_print_graph_duration(): us with up to three decimals, " us ",
# padding).
PROF=$T/function_profile_enabled
PROF_ROW='^  .{30}  [ 0-9]{9}[0-9]    [0-9]+(\.[0-9]{1,3})? us +[0-9]+(\.[0-9]{1,3})? us +[0-9]+(\.[0-9]{1,3})? us +$'
# prof_setup: the profiler off and the filter emptied at exit, and the
# exact header of 6.1 and 6.12 (Time, Avg, s^2) in /tmp/prof.hdr
prof_setup() {
	on_exit "echo 0 > $PROF; echo > $T/set_ftrace_filter"
	printf '%s\n' "  Function                               Hit    Time            Avg             s^2" \
		"  --------                               ---    ----            ---             ---" > /tmp/prof.hdr
}
