#!/bin/bash
# dracut module: the wqstat guest job.  Installs the staged guest files
# (tests, test modules, tools) and a cmdline hook (the first one; there is no root= to find) that runs the job chosen
# on the kernel command line, then reboots (QEMU runs with -no-reboot, so
# the guest stops).

# called by dracut
check() {
	# only when asked for with -m
	return 255
}

# called by dracut
depends() {
	echo base
	return 0
}

# called by dracut
install() {
	local f

	if [ -z "${WQ_STAGE:-}" ] || [ ! -d "$WQ_STAGE" ]; then
		derror "wqtest: WQ_STAGE must name the staged guest files"
		return 1
	fi
	inst_multiple bash cat grep sed awk sort head tail wc sleep date seq tr \
		cut uname sync stat timeout nproc insmod rmmod lsmod env basename \
		dirname mktemp printf od cmp diff taskset dmesg swapon swapoff
	# the staged tree: scripts, modules, data
	cp -a "$WQ_STAGE/." "$initdir/"
	# staged executables get their libraries resolved by dracut
	for f in "$WQ_STAGE"/usr/bin/*; do
		[ -x "$f" ] && inst_binary "$f" "/usr/bin/${f##*/}"
	done
	# perf, for the benchmark's "perf kwork" way of watching
	if [ -n "${WQ_WITH_PERF:-}" ]; then
		inst_binary perf || derror "wqtest: could not install perf"
	fi
	inst_hook cmdline 01 "$moddir/wqtest-hook.sh"
}
