#!/bin/bash
# ci/splat.sh CONSOLE-LOG: print the kernel splats found in a console log and
# exit 1 when there is any (0 when the log is clean).
pattern='BUG:|WARNING:|Oops|Call Trace:|Kernel panic|general protection fault'
pattern+='|possible recursive locking|possible circular locking|inconsistent lock state'
pattern+='|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator'
pattern+='|INFO: trying to register non-static key|lock held when returning|bad unlock balance|KASAN|UBSAN|ODEBUG|list_add corruption|list_del corruption'
pattern+='|soft lockup|hard LOCKUP|blocked for more than|workqueue lockup|BUG: workqueue'
pattern+='|sleeping function called from invalid context|scheduling while atomic'
pattern+='|kmemleak|refcount_t:|stack-protector|double fault'
[ -r "$1" ] || { echo "splat.sh: no console log $1"; exit 1; }
if grep -n -E "$pattern" "$1" | head -n 40 | grep .; then
	exit 1
fi
exit 0
