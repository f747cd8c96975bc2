#!/bin/bash
# Build the initramfs with dracut and boot it in QEMU.
#   ci/guest.sh NAME MODE OUTDIR [KERNEL-ARGS...]
# NAME: the staged build (build/stage-NAME), MODE: wqtest.mode, OUTDIR: where
# console.log (ttyS0, the whole kernel log) and results.txt (ttyS1, the
# results channel) are written.  Environment: QEMU_ACCEL (tcg by default;
# kvm opts in), GUEST_TIMEOUT (seconds, hard limit), GUEST_CPUS, GUEST_MEM,
# WQ_USER_SCRIPT (a script for MODE=script), GUEST_DISK (a raw image
# attached as a virtio disk, /dev/vda in the guest), QEMU_ICOUNT (a value
# for QEMU's -icount, e.g. shift=0,sleep=off: the guest's clocks then count
# executed instructions, 2^shift ns each; TCG only), QEMU_EXTRA (more QEMU
# arguments, split on spaces: e.g. a -monitor socket to debug a stuck guest).
# Exit status: QEMU's, or 124 when the guest hit the timeout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=$1 mode=$2 out=$3
shift 3
stage=$top/build/stage-$name
kernel=$(cat "$stage.kernel")
mkdir -p "$out"
rm -f "$out/console.log" "$out/results.txt"

if [ "$mode" = script ]; then
	[ -r "${WQ_USER_SCRIPT:-}" ] || { echo "guest.sh: no script to run (SCRIPT=...)" >&2; exit 2; }
	cp "$WQ_USER_SCRIPT" "$stage/usr/lib/wqtest/user.sh"
fi

# a private copy of dracut's base dir holding our module, so the host's
# dracut installation is never touched
dbase=$top/build/dracut
mkdir -p "$top/build/dracut-conf.d"
if [ ! -x "$dbase/dracut-install" ] || [ /usr/lib/dracut -nt "$dbase" ]; then
	rm -rf "$dbase"
	cp -a /usr/lib/dracut "$dbase"
fi
rm -rf "$dbase/modules.d/90wqtest"
cp -a "$top/guest/dracut/90wqtest" "$dbase/modules.d/90wqtest"

img=$out/initramfs.img
rm -f "$img"
dracutbasedir=$dbase WQ_STAGE=$stage dracut --quiet --force --no-hostonly \
	--no-hostonly-cmdline --no-kernel --no-compress --no-early-microcode \
	--modules "base wqtest" --confdir "$top/build/dracut-conf.d" --conf /dev/null \
	"$img" > "$out/dracut.log" 2>&1 || true
rm -f "$stage/usr/lib/wqtest/user.sh"
if [ ! -s "$img" ]; then
	cat "$out/dracut.log" >&2
	echo "guest.sh: dracut made no image" >&2
	exit 2
fi

accel=${QEMU_ACCEL:-tcg}
timeout_s=${GUEST_TIMEOUT:-900}
append="console=ttyS0,115200 panic=-1 oops=panic rd.shell=0 rd.emergency=reboot"
append+=" loglevel=7 no_hash_pointers wqtest.mode=$mode $*"
disk=()
[ -z "${GUEST_DISK:-}" ] || disk=(-drive "file=$GUEST_DISK,if=virtio,format=raw")
icount=()
[ -z "${QEMU_ICOUNT:-}" ] || icount=(-icount "$QEMU_ICOUNT")
read -r -a extra <<< "${QEMU_EXTRA:-}"
set +e
timeout -k 10 "$timeout_s" qemu-system-x86_64 "${disk[@]}" "${icount[@]}" "${extra[@]}" \
	-accel "$accel" -smp "${GUEST_CPUS:-2}" -m "${GUEST_MEM:-1024}" \
	-nodefaults -display none -no-reboot \
	-kernel "$kernel" -initrd "$img" -append "$append" \
	-serial "file:$out/console.log" -serial "file:$out/results.txt" \
	</dev/null > "$out/qemu.log" 2>&1
rc=$?
set -e
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "guest.sh: the guest did not stop within ${timeout_s} s (GUEST_TIMEOUT); killed" >&2
	rc=124
fi
# the serial ports write CRLF; keep plain text
sed -i 's/\r$//' "$out/console.log" "$out/results.txt" 2>/dev/null || true
exit $rc
