#!/bin/bash
# An ad-hoc guest script: make run-guest SCRIPT=docs/examples/hello-guest.sh
# It runs as root in the guest once tracefs is at /sys/kernel/tracing.
T=/sys/kernel/tracing
echo "kernel $(uname -r), $(nproc) CPUs"
echo 1 > $T/workqueue_stat_reset
wqstat run -- sleep 1 | head -n 4
exit 3
