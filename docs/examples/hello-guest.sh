#!/bin/bash
# An ad-hoc guest script: make run-guest SCRIPT=docs/examples/hello-guest.sh
# It runs as root in the guest once tracefs is at /sys/kernel/tracing.
T=/sys/kernel/tracing
echo "kernel $(uname -r), $(nproc) CPUs"
# what the work functions did during a one-second sleep (the report is on stderr)
wqstat run -n 2 -- sleep 1
exit 3
