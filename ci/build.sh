#!/bin/bash
# Build everything the guest needs and stage it in build/stage-NAME:
#   ci/build.sh [NAME [FRAGMENT...]]
# NAME: the kernel tree in build/, by default the normal kernel of $KERNEL
# (linux for 6.1, the default; linux-6.12 for KERNEL=6.12); another tree
# name with its own fragments is set up by its caller.  SERIES: the series
# to apply (by default the kernel's own, kernel-patches/[6.12/]series).
# Steps: packages, kernel tree + config + build, test modules, wqstat, stage.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 2
name=${1:-$wq_name}
[ $# -eq 0 ] || shift
fragments=("$@")
[ ${#fragments[@]} -gt 0 ] || fragments=("$top/kernel-patches/guest.config" "$top/kernel-patches/wqstat.config" "$top/kernel-patches/mm.config")
series=${SERIES:-$wq_kp/series}

"$top/ci/deps.sh" "$wq_pkg"
# one build of a tree at a time: a second target waits, then finds it built
mkdir -p "$top/build"
exec 8> "$top/build/$name.lock"
flock 8
"$top/ci/kernel.sh" "$name" "$series" "${fragments[@]}"
tree=$top/build/$name

# out-of-tree test modules, built in build/ so the source stays clean
mods=$top/build/modules-$name
mkdir -p "$mods"
cp -pru "$top/guest/modules/." "$mods/"
for m in "$mods"/*/; do
	if ! make -C "$tree" M="$m" CC="ccache gcc" modules > "$m/build.log" 2>&1; then
		cat "$m/build.log" >&2
		echo "build.sh: test module $m failed to build" >&2
		exit 1
	fi
done

# userspace tools
make -s -C "$top/stat-tracer" O="$top/build/stat-tracer" WERROR=-Werror >&2

# page-types, built from the kernel tree itself (tools/vm in 6.1, tools/mm
# in 6.12)
pt=$tree/tools/vm
[ -f "$pt/page-types.c" ] || pt=$tree/tools/mm
if [ -f "$pt/page-types.c" ]; then
	if ! make -C "$pt" page-types > "$top/build/page-types-$name.log" 2>&1; then
		cat "$top/build/page-types-$name.log" >&2
		echo "build.sh: tools/vm/page-types failed to build" >&2
		exit 1
	fi
fi

# small guest helpers
mkdir -p "$top/build/tools"
for c in "$top"/guest/tools/*.c; do
	b=$top/build/tools/$(basename "$c" .c)
	[ "$b" -nt "$c" ] || gcc -O2 -Wall -Wextra -Werror -o "$b" "$c"
done

# the staged guest tree, copied into the initramfs by guest/dracut; made
# aside and swapped in under the lock ci/guest.sh reads it under
stage=$top/build/stage-$name
new=$stage.new
rm -rf "$new"
mkdir -p "$new/usr/lib/wqtest/tests" "$new/usr/lib/wqtest/modules" "$new/usr/bin"
cp "$top"/guest/*.sh "$new/usr/lib/wqtest/"
cp "$top"/guest/tests/*.sh "$new/usr/lib/wqtest/tests/"
# the stock events' formats of this kernel, as its unpatched build has them
mkdir -p "$new/usr/lib/wqtest/golden"
cp "$top/guest/golden/$wq_kver"/*.format "$new/usr/lib/wqtest/golden/"
echo "$wq_kver" > "$new/usr/lib/wqtest/kernel"
cp -r "$top"/guest/bench "$new/usr/lib/wqtest/"
find "$mods" -name '*.ko' -exec cp {} "$new/usr/lib/wqtest/modules/" \;
cp "$top"/build/tools/* "$new/usr/bin/"
cp "$top/build/stat-tracer/wqstat" "$new/usr/bin/"
[ ! -x "$pt/page-types" ] || cp "$pt/page-types" "$new/usr/bin/"
# a kernel with the annotated branch profiler (kernel-patches/ftrace.config):
# the number of its entries (struct ftrace_likely_data, 48 bytes on
# x86_64) between the section's two symbols, for 92-ftrace-branch
if grep -q '^CONFIG_PROFILE_ANNOTATED_BRANCHES=y' "$tree/.config"; then
	read -r a b < <(awk '$3 == "__start_annotated_branch_profile" { s = $1 }
		$3 == "__stop_annotated_branch_profile" { e = $1 } END { print s, e }' "$tree/System.map")
	[ -z "$b" ] || echo $(((16#$b - 16#$a) / 48)) > "$new/usr/lib/wqtest/branch-sites"
fi
exec 9> "$top/build/dracut.lock"
flock 9
rm -rf "$stage"
mv "$new" "$stage"
echo "$tree/arch/x86/boot/bzImage" > "$stage.kernel"
