#!/bin/bash
# A smoke run of the benchmark module (make bench runs it at full size):
# each workload runs the items it says, the stat tracer counts exactly those
# executions, a serial chain's run time fits in the module's own wall time,
# and the rows of the module's queue stay readable, marked destroyed, after
# it is unloaded; the workloads make bench added (spin, scale, destroy) and
# its loop device, against their own counts.
# requires: trace_stat/workqueues events/workqueue/workqueue_queue_work
. /usr/lib/wqtest/tests/lib.sh
B=/sys/kernel/debug/wqbench
[ -d $B ] || insmod $MODDIR/wqbench.ko || fail "insmod wqbench.ko"
on_exit 'rmmod wqbench 2> /dev/null'
for wl in "chain 300" "burst 32 4" "many 512 1"; do
	stat_reset_on
	echo "$wl" > $B/run || fail "wqbench '$wl' failed"
	stat_off
	cat $B/result
	items=$(sed -n 's/^items=\([0-9]*\).*/\1/p' $B/result)
	ns=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' $B/result)
	want=$(echo "$wl" | awk '{ print $1 == "chain" ? $2 : $2 * $3 }')
	expect_eq "items of '$wl'" "$items" "$want"
	# the tracer's count against the module's own (flush_work() adds
	# wq_barrier_func rows, as many as it had to wait)
	expect_eq "EXECUTED of the wqbench rows of its functions after '$wl'" \
		"$(stat_wq_sum EXECUTED wqbench '^wqb_')" "$want"
	if [ "${wl%% *}" = chain ]; then
		# one item at a time: their run time is within the wall time
		run_ns=$(us_ns "$(stat_get TOTAL_RUN_us wqbench wqb_chain_fn)")
		expect_ge "TOTAL_RUN of the chain, ns" "$run_ns" 1
		expect_le "TOTAL_RUN of the chain, ns (the module's wall time: $ns)" "$run_ns" "$ns"
	fi
done
# the 512 functions are distinct: 512 rows of wqbench
expect_eq "rows of the wqbench queue with distinct functions" "$(grep -c ' wqbench wqb_fn_' "$STAT")" 512

rmmod wqbench || fail "rmmod wqbench"
# the rows of the unloaded module's destroyed queue stay readable, each
# with its one execution: none lost, none merged into another
expect_eq "rows of wqbench(destroyed)" "$(grep -c ' wqbench(destroyed) wqb_fn_' "$STAT")" 512
expect_eq "EXECUTED of the wqbench(destroyed) rows of wqb_fn_*" \
	"$(stat_wq_sum EXECUTED 'wqbench(destroyed)' '^wqb_fn_')" 512

# the workloads make bench added, on the module loaded again
insmod $MODDIR/wqbench.ko || fail "insmod wqbench.ko again"

# spin: 8 items of 300 us, twice: 16 executions, each of them at least
# 300 us (the function spins that long on ktime); and all of them within
# the module's wall time, on at most as many vCPUs as the guest has
stat_reset_on
echo "spin 8 300 2" > $B/run || fail "wqbench 'spin 8 300 2' failed"
stat_off
wall_ns=$(sed -n 's/.* ns=\([0-9]*\).*/\1/p' $B/result)
expect_eq "EXECUTED of wqb_spin_fn" "$(stat_get EXECUTED wqbench wqb_spin_fn)" 16
expect_ge "MIN_RUN_us of wqb_spin_fn" "$(stat_get MIN_RUN_us wqbench wqb_spin_fn | cut -d. -f1)" 300
expect_le "TOTAL_RUN of wqb_spin_fn, ns ($(nproc) vCPUs x the module's wall time $wall_ns ns)" \
	"$(us_ns "$(stat_get TOTAL_RUN_us wqbench wqb_spin_fn)")" $(( $(nproc) * wall_ns ))

# scale: 4 functions on each of 3 kept queues, 2 rounds: 12 live rows of
# 2 executions; the queues stay between calls, then go with "scale 1 0 0"
stat_reset_on
echo "scale 4 3 2" > $B/run || fail "wqbench 'scale 4 3 2' failed"
stat_off
for q in wqbs_0 wqbs_1 wqbs_2; do
	expect_eq "rows of $q" "$(stat_awk -v wq=$q '$(idx["WORKQUEUE"]) == wq && $(idx["FUNCTION"]) ~ /^wqb_fn_/' | wc -l)" 4
	expect_eq "EXECUTED of $q" "$(stat_wq_sum EXECUTED $q '^wqb_fn_')" 8
done
echo "scale 1 0 0" > $B/run || fail "wqbench 'scale 1 0 0' failed"
expect_eq "rows of wqbs_0(destroyed) once the queues are gone" \
	"$(stat_awk '$(idx["WORKQUEUE"]) == "wqbs_0(destroyed)" && $(idx["FUNCTION"]) ~ /^wqb_fn_/' | wc -l)" 4

# destroy: 6 queues, each ran one item, destroyed one after the other and
# read at once: the probe only notes a destruction, and the read must find
# each queue's row retired all the same
stat_reset_on
echo "destroy 6" > $B/run || fail "wqbench 'destroy 6' failed"
got=$(stat_awk '$(idx["WORKQUEUE"]) ~ /^wqbd_[0-5]\(destroyed\)$/ && $(idx["FUNCTION"]) == "wqb_fn_100" { n++; s += $(idx["EXECUTED"]) } END { print n + 0, s + 0 }')
stat_off
expect_eq "rows of wqbd_N(destroyed) and their executions" "$got" "6 6"
expect_eq "live rows of wqbd_N left" "$(stat_awk '$(idx["WORKQUEUE"]) ~ /^wqbd_[0-9]+$/' | wc -l)" 0

# the loop device: 200 direct writes of 4 KiB; the block layer's own count
# of writes (/sys/block/loopN/stat) says they all went through the loop
# queue.  How many work items carried them depends on timing: the driver
# adds each request to its worker's list and queues the worker's one item,
# which is not queued again while it is pending, so a busy host folds more
# requests into an item.  The oracle of QUEUED is the stock
# workqueue_queue_work events of that queue in the same run: every
# queueing happens inside loopio's writes, inside both windows.  An item
# queued while the one before it was running may start after the writes
# are done, with an empty list: at most one (the queue has one item per
# cgroup, and this guest's I/O is the root's), so EXECUTED is QUEUED or one
# less.
if [ -e /dev/loop-control ] && command -v losetup > /dev/null; then
	mkdir -p /tmp/lo && mount -t tmpfs -o size=8m tmpfs /tmp/lo || fail "mount tmpfs"
	head -c $((4 << 20)) /dev/zero > /tmp/lo/img
	dev=$(losetup -f --show /tmp/lo/img) || fail "losetup"
	name=${dev#/dev/}
	w0=$(awk '{ print $5 }' /sys/block/$name/stat)
	keep_buffer
	trace_events workqueue_queue_work
	stat_reset_on
	out=$(loopio write $dev 4096 200) || fail "loopio: $out"
	stat_off
	echo 0 > "$T/tracing_on"
	w1=$(awk '{ print $5 }' /sys/block/$name/stat)
	events=$(trace_lines workqueue_queue_work " workqueue=$name " | wc -l)
	trace_clear
	queued=$(stat_wq_sum QUEUED $name)
	items=$(stat_wq_sum EXECUTED $name)
	losetup -d $dev; umount /tmp/lo
	echo "# loopio: $out; the block layer: $((w1 - w0)) writes; the $name queue: $queued queued, $items run; workqueue_queue_work of $name: $events"
	expect_eq "writes the block layer completed on $dev" $((w1 - w0)) 200
	expect_eq "ios loopio reports" "$(echo "$out" | sed -n 's/^ios=\([0-9]*\) .*/\1/p')" 200
	expect_eq "QUEUED of the $name queue (its workqueue_queue_work events)" "$queued" "$events"
	expect_ge "items of the $name queue" "$queued" 1
	expect_le "items of the $name queue (one per request at most)" "$queued" 200
	expect_le "EXECUTED of the $name queue (QUEUED - 1 at least)" $((queued - 1)) "$items"
	expect_le "EXECUTED of the $name queue (QUEUED at most)" "$items" "$queued"
else
	# the project's kernels build the loop driver in (guest.config)
	fail "no /dev/loop-control or no losetup in this guest"
fi
