#!/bin/bash
# ci/splat.sh CONSOLE-LOG: print the kernel splats found in a console log and
# exit 1 when there is any (0 when the log is clean).
#
# One known upstream WARN is tolerated, and only when it is whole and in its
# place (docs/pipeline.md, "The timer WARN"): timers_prepare_cpu() resets the
# timer base of a CPU coming online with two unlocked stores, and a
# __mod_timer() of a timer that last ran on that CPU, run between them,
# finds next_expiry below the new clk.  6.1 and 6.12 have the race; no
# upstream fix exists.  A block from "------------[ cut here ]" to
# "---[ end trace" is that WARN when
#   - its WARNING line is "at kernel/time/timer.c:N forward_timer_base+..."
#     (the only WARN of that function),
#   - the first frame of its call trace is __mod_timer (maybe "? "),
#   - and the next smpboot line after it is "Booting Node N Processor N":
#     the WARN came while a CPU was being prepared to come online.
#
# And one known stall of upstream code that only the kernels without the
# series run (the reference boots of [ftrace]): trace_stat.c of 6.1 builds
# a stat file's table at open() in an rbtree, one kmalloc() per entry and
# no resched point, under the file's mutex; for the 14,000 entries of
# trace_stat/branch_annotated, on a slob kernel with kmemleak and a busy
# host, that kept a CPU past the RCU stall timeout (21 s).  Patch 6 of
# the series replaces insert_stat() and calls cond_resched() in that loop.
# A block is that stall when
#   - it starts "rcu: INFO: rcu_sched self-detected stall on CPU",
#   - it ends at the first "</TASK>" after its "Call Trace:", within 60
#     lines,
#   - and its call trace has the frames insert_stat+ and then
#     tracing_stat_open+, which exist only in the kernel without the
#     series.
# Such blocks are left out of the search and named on stderr; anything
# else in the log, or a part of such a block outside it, is still a splat.
pattern='BUG:|WARNING:|Oops|Call Trace:|Kernel panic|general protection fault'
pattern+='|possible recursive locking|possible circular locking|inconsistent lock state'
pattern+='|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator'
pattern+='|INFO: trying to register non-static key|lock held when returning|bad unlock balance|KASAN|UBSAN|ODEBUG|list_add corruption|list_del corruption'
pattern+='|soft lockup|hard LOCKUP|blocked for more than|workqueue lockup|BUG: workqueue'
pattern+='|sleeping function called from invalid context|scheduling while atomic'
pattern+='|kmemleak: [0-9]+ new suspected|refcount_t:|stack-protector|double fault'
[ -r "$1" ] || { echo "splat.sh: no console log $1"; exit 1; }
# known_blocks: "FIRST LAST" line numbers of each tolerated block
known_blocks() {
	awk '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (line[i] !~ /------------\[ cut here \]------------/)
				continue
			w = i + 1
			if (line[w] !~ /WARNING: CPU: [0-9]+ PID: [0-9]+ at kernel\/time\/timer\.c:[0-9]+ forward_timer_base\+0x[0-9a-f]+\/0x[0-9a-f]+/)
				continue
			end = 0; frame = ""
			for (j = w + 1; j <= NR && j <= w + 60; j++) {
				if (line[j] ~ /---\[ end trace [0-9a-f]+ \]---/) { end = j; break }
				if (line[j] ~ /(cut here|WARNING:|BUG:)/)
					break
				if (frame == "" && seen_trace && line[j] !~ /<TASK>|<IRQ>/)
					frame = line[j]
				if (line[j] ~ /Call Trace:/)
					seen_trace = 1
			}
			seen_trace = 0
			if (!end || frame !~ /\] +(\? )?__mod_timer\+0x[0-9a-f]+\/0x[0-9a-f]+/)
				continue
			for (j = end + 1; j <= NR; j++)
				if (line[j] ~ /smpboot: (Booting Node [0-9]+ Processor [0-9]+|CPU [0-9]+ is now offline)/)
					break
			if (j > NR || line[j] !~ /Booting Node/)
				continue
			print i, end
			i = end
		}
	}' "$1"
}
# stat_stall_blocks: "FIRST LAST" line numbers of each tolerated stall
stat_stall_blocks() {
	awk '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (line[i] !~ /rcu: INFO: rcu_sched self-detected stall on CPU$/)
				continue
			end = 0; trace = 0; ins = 0; opn = 0
			for (j = i + 1; j <= NR && j <= i + 60; j++) {
				if (line[j] ~ /(cut here|WARNING:|BUG:|self-detected stall)/)
					break
				if (line[j] ~ /Call Trace:/)
					trace = 1
				else if (trace && line[j] ~ /\] +insert_stat\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
					ins = j
				else if (trace && ins && line[j] ~ /\] +tracing_stat_open\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
					opn = j
				else if (trace && line[j] ~ /\] +<\/TASK>$/) {
					end = j
					break
				}
			}
			if (!end || !opn)
				continue
			print i, end
			i = end
		}
	}' "$1"
}
blocks=$(known_blocks "$1")
stalls=$(stat_stall_blocks "$1")
keep=$(mktemp)
trap 'rm -f "$keep"' EXIT
if [ -n "$blocks" ]; then
	echo "$blocks" | while read -r a b; do
		echo "splat.sh: tolerated the known upstream forward_timer_base WARN of a CPU coming online (timers_prepare_cpu race) at lines $a-$b of $1" >&2
	done
fi
if [ -n "$stalls" ]; then
	echo "$stalls" | while read -r a b; do
		echo "splat.sh: tolerated the known RCU stall of the unpatched trace_stat.c (insert_stat() at open(), no resched point) at lines $a-$b of $1" >&2
	done
fi
blocks=$(printf '%s\n%s\n' "$blocks" "$stalls" | grep .)
if [ -n "$blocks" ]; then
	# the log without those blocks, with its own line numbers kept
	awk -v blocks="$blocks" '
	BEGIN { n = split(blocks, b, /[ \n]/); for (k = 1; k < n; k += 2) for (l = b[k]; l <= b[k + 1]; l++) drop[l] = 1 }
	!(FNR in drop) { print FNR ":" $0 }' "$1" > "$keep"
else
	awk '{ print FNR ":" $0 }' "$1" > "$keep"
fi
if grep -E "^[0-9]+:.*($pattern)" "$keep" | head -n 40 | grep .; then
	exit 1
fi
exit 0
