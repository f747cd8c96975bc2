#!/bin/bash
# Build the initramfs with dracut and boot it in QEMU.
#   ci/guest.sh NAME MODE OUTDIR [KERNEL-ARGS...]
# NAME: the staged build (build/stage-NAME), MODE: wqtest.mode, OUTDIR: where
# console.log (ttyS0, the whole kernel log) and results.txt (ttyS1, the
# results channel) are written.  Environment: QEMU_ACCEL (tcg by default;
# kvm opts in), GUEST_TIMEOUT (seconds, hard limit), GUEST_STALL (MODE=check:
# seconds without a result line that mean a hung guest), GUEST_CPUS, GUEST_MEM,
# WQ_USER_SCRIPT (a script for MODE=script), WQ_USER_TREE (MODE=script: a
# directory laid over the guest's / beside the script), GUEST_DISK (a raw image
# attached as a virtio disk, /dev/vda in the guest), QEMU_ICOUNT (a value
# for QEMU's -icount, e.g. shift=0,sleep=off: the guest's clocks then count
# executed instructions, 2^shift ns each; TCG only), QEMU_EXTRA (more QEMU
# arguments, split on spaces: e.g. a -monitor socket to debug a stuck guest),
# WQ_PROGRESS (a label: the test results are printed on stderr as the guest
# writes them, with a line after each minute without one).
# Exit status: QEMU's, or 124 when the guest hit a timeout or stalled.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=$1 mode=$2 out=$3
shift 3
stage=$top/build/stage-$name
kernel=$(cat "$stage.kernel")
mkdir -p "$out"
rm -f "$out/console.log" "$out/results.txt"

die() { echo "guest.sh: $*" >&2; exit 2; }

# The image: dracut runs once per staged tree (and per WQ_WITH_PERF and
# WQ_WITH_FIO, the extra programs of the benchmark's images), and
# every boot of that tree reuses it until the stage's content changes.  The
# private copy of dracut's base dir (so the host's installation is never
# touched) and the image are made under a lock: two targets may run at once.
dbase=$top/build/dracut
img=$stage.initramfs${WQ_WITH_PERF:+-perf}${WQ_WITH_FIO:+-fio}.img
id=$( (cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum
	cat "$top"/guest/dracut/90wqtest/*; echo "perf=${WQ_WITH_PERF:-} fio=${WQ_WITH_FIO:-}") | sha256sum)
exec 9> "$top/build/dracut.lock"
flock 9
if [ "$(cat "$img.id" 2> /dev/null)" != "$id" ] || [ ! -s "$img" ]; then
	if [ ! -x "$dbase/dracut-install" ] || [ /usr/lib/dracut -nt "$dbase" ]; then
		rm -rf "$dbase"
		cp -a /usr/lib/dracut "$dbase" || die "cannot copy /usr/lib/dracut into $dbase"
	fi
	rm -rf "$dbase/modules.d/90wqtest"
	cp -a "$top/guest/dracut/90wqtest" "$dbase/modules.d/90wqtest" || die "cannot copy the dracut module"
	mkdir -p "$top/build/dracut-conf.d"
	rm -f "$img" "$img.id"
	if ! dracutbasedir=$dbase WQ_STAGE=$stage dracut --quiet --force --no-hostonly \
		--no-hostonly-cmdline --no-kernel --no-compress --no-early-microcode \
		--modules "base wqtest" --confdir "$top/build/dracut-conf.d" --conf /dev/null \
		"$img.tmp" > "$stage.dracut.log" 2>&1 || [ ! -s "$img.tmp" ]; then
		cat "$stage.dracut.log" >&2
		die "dracut made no image for build/stage-$name (log: $stage.dracut.log)"
	fi
	mv "$img.tmp" "$img"
	echo "$id" > "$img.id"
	echo "guest.sh: dracut: a new image for build/stage-$name" >&2
fi
flock -u 9
exec 9>&-

# MODE=script: the user's script goes in as a second archive after the
# image (the kernel unpacks both), so the shared image stays untouched
initrd=$img
if [ "$mode" = script ]; then
	[ -r "${WQ_USER_SCRIPT:-}" ] || die "no script to run (SCRIPT=...)"
	u=$(mktemp -d)
	mkdir -p "$u/usr/lib/wqtest"
	cp "$WQ_USER_SCRIPT" "$u/usr/lib/wqtest/user.sh" || die "cannot copy $WQ_USER_SCRIPT"
	if [ -n "${WQ_USER_TREE:-}" ]; then
		[ -d "$WQ_USER_TREE" ] || die "WQ_USER_TREE=$WQ_USER_TREE: not a directory"
		cp -a "$WQ_USER_TREE/." "$u/" || die "cannot copy $WQ_USER_TREE"
	fi
	(cd "$u" && find usr | cpio -o -H newc --quiet) > "$out/user.cpio" || die "cpio failed"
	rm -rf "$u"
	cat "$img" "$out/user.cpio" > "$out/initramfs.img"
	initrd=$out/initramfs.img
fi

accel=${QEMU_ACCEL:-tcg}
# Two hang detectors, neither a measure of speed.  In MODE=check the guest
# writes a result line at least once per test, and kills a test after its
# own limit (wqtest.timeout, 300 s by default); a guest whose results
# channel stays silent for that limit and 300 s more has hung as a whole,
# and is stopped then (GUEST_STALL overrides).  A slow guest that moves is
# never stopped by it: beside two busy loops and another make check, the
# 6.12 kernel's main boot took 919 s (255 s of CPU; 321 s quiet) and met
# the old fixed limit of 900 s with 7 tests left.  GUEST_TIMEOUT is a hard
# limit on the whole boot: 900 s by default, and in MODE=check only a
# backstop, 4 hours.
stall_s=
if [ "$mode" = check ]; then
	per_test=300
	for a in "$@"; do
		case $a in wqtest.timeout=*) per_test=${a#wqtest.timeout=} ;; esac
	done
	[[ $per_test =~ ^[0-9]+$ ]] || per_test=300
	stall_s=${GUEST_STALL:-$((per_test + 300))}
fi
timeout_s=${GUEST_TIMEOUT:-$([ -n "$stall_s" ] && echo 14400 || echo 900)}
# no_timer_check: the IO-APIC timer check counts timer interrupts during a
# delay loop early in boot; a vCPU the host deschedules there misses them
# and the kernel panics ("IO-APIC + timer doesn't work!"), as a debug boot
# did beside two loaded make checks.  Virtual machines' images skip it.
# initramfs_async=0: unpack the image before the device initcalls, not
# beside them.  Beside them, on 6.1's tinyconfig (SLOB: one global lock
# for every small allocation), the unpacking of the clients' 250 MB image
# and the ACPI probes of the virtio devices took turns at that lock for
# seconds, with interrupts off, and a host busy enough to starve one vCPU
# made that an RCU stall in boot, before any test (F4, 2026-12-07).
append="console=ttyS0,115200 panic=-1 oops=panic rd.shell=0 rd.emergency=reboot no_timer_check"
append+=" initramfs_async=0"
# tsc_early_khz: the TSC's frequency, which the guest would otherwise
# measure against the PIT in a busy loop early in boot.  Under TCG the
# guest's TSC is the host's counter (QEMU reads it), so the host's
# frequency is the right value, measured by ci/tsc/tsc-khz.c.  A vCPU the
# host deschedules during that loop measures nonsense, and the kernel
# trusts the PIT when the PIT and the HPET disagree: beside three loaded
# make checks (load 30 to 38 on 2 cores, H1-H3 on 2026-12-07) 3 of about
# 45 boots took a 2,300 MHz TSC for 77, 266 and 437 MHz, so that their
# clocks ran up to 30 times too fast until the clocksource watchdog
# switched to the HPET minutes later, and one of them reported an RCU
# stall in boot.  Not with -icount (the TSC counts instructions then),
# with KVM, or on a host whose TSC does not tick at a constant rate.
tsc_khz() {
	local src=$top/ci/tsc/tsc-khz.c bin=$top/build/host/tsc-khz
	if ! [ "$bin" -nt "$src" ]; then
		mkdir -p "${bin%/*}"
		gcc -O2 -Wall -Wextra -Werror -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin" || return 1
	fi
	"$bin"
}
if [ "$accel" = tcg ] && [ -z "${QEMU_ICOUNT:-}" ]; then
	flags=$(grep -m 1 '^flags' /proc/cpuinfo || true)
	if [[ " $flags " == *" constant_tsc "* && " $flags " == *" nonstop_tsc "* ]] &&
		khz=$(tsc_khz) && [[ $khz =~ ^[1-9][0-9]{5,7}$ ]]; then
		append+=" tsc_early_khz=$khz"
	else
		echo "guest.sh: the host's TSC frequency is unknown: the guest calibrates its own" >&2
	fi
fi
append+=" loglevel=7 no_hash_pointers wqtest.mode=$mode $*"
disk=()
[ -z "${GUEST_DISK:-}" ] || disk=(-drive "file=$GUEST_DISK,if=virtio,format=raw")
icount=()
[ -z "${QEMU_ICOUNT:-}" ] || icount=(-icount "$QEMU_ICOUNT")
read -r -a extra <<< "${QEMU_EXTRA:-}"
# WQ_PROGRESS=LABEL: print the results as the guest writes them
streamer=
if [ -n "${WQ_PROGRESS:-}" ]; then
	. "$top/ci/lib.sh"
	stream_guest "$out" "$WQ_PROGRESS" > /dev/null &
	streamer=$!
fi
set +e
# --foreground: QEMU stays in this script's process group, so that make
# check's cleanup (and a Ctrl-C) reaches it; it has no children to time out
timeout --foreground -k 10 "$timeout_s" qemu-system-x86_64 "${disk[@]}" "${icount[@]}" "${extra[@]}" \
	-accel "$accel" -smp "${GUEST_CPUS:-2}" -m "${GUEST_MEM:-1024}" \
	-nodefaults -display none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-serial "file:$out/console.log" -serial "file:$out/results.txt" \
	</dev/null > "$out/qemu.log" 2>&1 &
qemu=$!
# in the background, QEMU ignores a Ctrl-C (SIGINT): pass it on, and a TERM
trap 'kill $qemu ${watch:-} $streamer 2> /dev/null; exit 130' INT
trap 'kill $qemu ${watch:-} $streamer 2> /dev/null; exit 143' TERM
# the stall watch: the results channel's size, every 10 s
watch=
rm -f "$out/stalled"
if [ -n "$stall_s" ]; then
	(
		last=-1 since=$SECONDS
		while sleep 10; do
			size=$(stat -c %s "$out/results.txt" 2> /dev/null || echo 0)
			[ "$size" = "$last" ] || { last=$size since=$SECONDS; }
			if [ $((SECONDS - since)) -ge "$stall_s" ]; then
				echo "$((SECONDS - since))" > "$out/stalled"
				kill "$qemu" 2> /dev/null
				exit 0
			fi
		done
	) < /dev/null > /dev/null 2>&1 &
	watch=$!
fi
wait "$qemu"
rc=$?
for p in $watch $streamer; do
	# they only watch and print: their end, killed, is not an error
	kill "$p" 2> /dev/null
	wait "$p" 2> /dev/null
done
set -e
if [ -s "$out/stalled" ]; then
	echo "guest.sh: no result from the guest for $(cat "$out/stalled") s (GUEST_STALL, $stall_s s): it hung; killed" >&2
	rc=124
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "guest.sh: the guest did not stop within ${timeout_s} s (GUEST_TIMEOUT); killed" >&2
	rc=124
fi
# the serial ports write CRLF; keep plain text
for f in "$out/console.log" "$out/results.txt"; do
	[ ! -f "$f" ] || sed -i 's/\r$//' "$f"
done
exit $rc
