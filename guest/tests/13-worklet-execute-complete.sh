#!/bin/bash
# worklet_execute / worklet_complete: one of each per execution, the same
# function, the worker's pid; an item that frees itself completes cleanly
# (the harness fails the run on any splat in the kernel log).
# requires: events/workqueue/worklet_execute events/workqueue/worklet_complete
. /usr/lib/wqtest/tests/lib.sh
wqt_load
trace_events worklet_execute worklet_complete
wqt_run burst 20
wqt_run selffree 50
echo 0 > "$T/tracing_on"

expect_eq "executions of wqt_spin_fn" "$(trace_lines worklet_execute 'function=wqt_spin_fn' | grep -c .)" 20
expect_eq "completions of wqt_spin_fn" "$(trace_lines worklet_complete 'function=wqt_spin_fn' | grep -c .)" 20
expect_eq "executions of wqt_selffree_fn" "$(trace_lines worklet_execute 'function=wqt_selffree_fn' | grep -c .)" 50
expect_eq "completions of wqt_selffree_fn" "$(trace_lines worklet_complete 'function=wqt_selffree_fn' | grep -c .)" 50
expect_eq "workqueue of the completions" "$(trace_lines worklet_complete 'function=wqt_' | field workqueue | sort -u)" wqtest

# the worker field is the pid of the task the event was recorded in: a kworker
l=$(trace_lines worklet_execute 'function=wqt_spin_fn' | head -n 1)
pid=$(echo "$l" | field worker)
echo "$l" | grep -q -- "kworker/[^ ]*-$pid " || fail "worker=$pid is not the recording kworker: $l"
echo "worker pid $pid matches the recording task"

# every execute of the module's items is followed by a complete of the same
# work on the same task (the module's only: a system item that was running
# when tracing started has a complete and no execute, and a busy host makes
# items run longer)
awk '/ worklet_execute: .*function=wqt_/{ split($1, t, "-"); match($0, /work=[^ ]*/); w[t[length(t)] SUBSEP substr($0, RSTART, RLENGTH)]++ }
     / worklet_complete: .*function=wqt_/{ split($1, t, "-"); match($0, /work=[^ ]*/); k = t[length(t)] SUBSEP substr($0, RSTART, RLENGTH); if (w[k]-- <= 0) bad++ }
     END { exit bad > 0 }' "$T/trace" || fail "a worklet_complete without a worklet_execute on the same task"
echo "every completion pairs with an execution on the same task"
