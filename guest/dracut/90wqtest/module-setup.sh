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
		dirname mktemp printf od cmp diff taskset dmesg swapon swapoff \
		losetup join dd
	# the staged tree: scripts, modules, data
	cp -a "$WQ_STAGE/." "$initdir/"
	# staged executables get their libraries resolved by dracut
	for f in "$WQ_STAGE"/usr/bin/*; do
		[ -x "$f" ] && inst_binary "$f" "/usr/bin/${f##*/}"
	done
	# perf, bpftrace and trace-cmd: the benchmark's "perf kwork" and
	# "bpftrace" ways of watching, and the clients suite of make check
	# (bpftrace brings LLVM: about 200 MB, in this image only)
	if [ -n "${WQ_WITH_PERF:-}" ]; then
		inst_binary perf || derror "wqtest: could not install perf"
		inst_binary bpftrace || derror "wqtest: could not install bpftrace"
		inst_binary trace-cmd || derror "wqtest: could not install trace-cmd"
		# bpftrace parses its programs with clang, which includes the
		# kernel's UAPI types (linux-libc-dev)
		mkdir -p "$initdir/usr/include/x86_64-linux-gnu"
		cp -a /usr/include/linux /usr/include/asm-generic "$initdir/usr/include/" &&
			cp -a /usr/include/x86_64-linux-gnu/asm "$initdir/usr/include/x86_64-linux-gnu/" ||
			derror "wqtest: could not install the UAPI headers for bpftrace"
	fi
	# fio, for the benchmark's real I/O (its libraries, Ceph's among
	# them, are about 80 MB: in the benchmark's image only)
	if [ -n "${WQ_WITH_FIO:-}" ]; then
		inst_binary fio || derror "wqtest: could not install fio"
	fi
	inst_hook cmdline 01 "$moddir/wqtest-hook.sh"
}
