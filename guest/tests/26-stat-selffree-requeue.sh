#!/bin/bash
# Items that free themselves are counted without a splat (the probe never
# touches the item after its function started); an item that re-queues
# itself from its own function is counted once per run.
# requires: trace_stat/workqueues
. /usr/lib/wqtest/tests/lib.sh
wqt_load
stat_reset_on
wqt_run selffree 300
wqt_run chain 500
stat_off
grep -e wqt_ -e QUEUED "$STAT"
expect_eq "EXECUTED of the self-freeing items" "$(stat_get EXECUTED wqtest wqt_selffree_fn)" 300
expect_eq "EXECUTED of the chain" "$(stat_get EXECUTED wqtest wqt_chain_fn)" 500
expect_eq "QUEUED of the chain" "$(stat_get QUEUED wqtest wqt_chain_fn)" 500
