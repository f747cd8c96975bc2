#!/bin/bash
# Build everything the guest needs and stage it in build/stage-NAME:
#   ci/build.sh [NAME]   (NAME: linux, the default; another kernel tree name
#                         with its own fragments is set up by its caller)
# Steps: packages, kernel tree + config + build, test modules, wqstat, stage.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-linux}
[ $# -eq 0 ] || shift
fragments=("$@")
[ ${#fragments[@]} -gt 0 ] || fragments=("$top/kernel-patches/guest.config" "$top/kernel-patches/wqstat.config" "$top/kernel-patches/mm.config")
series=${SERIES:-$top/kernel-patches/series}

"$top/ci/deps.sh"
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
if [ -f "$top/stat-tracer/Makefile" ]; then
	make -s -C "$top/stat-tracer" O="$top/build/stat-tracer" >&2
fi

# page-types, built from the kernel tree itself (tools/vm)
if [ -f "$tree/tools/vm/page-types.c" ]; then
	if ! make -C "$tree/tools/vm" page-types > "$top/build/page-types-$name.log" 2>&1; then
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

# the staged guest tree, copied into the initramfs by guest/dracut
stage=$top/build/stage-$name
rm -rf "$stage"
mkdir -p "$stage/usr/lib/wqtest/tests" "$stage/usr/lib/wqtest/modules" "$stage/usr/bin"
cp "$top"/guest/*.sh "$stage/usr/lib/wqtest/"
cp "$top"/guest/tests/*.sh "$stage/usr/lib/wqtest/tests/"
cp -r "$top"/guest/golden "$stage/usr/lib/wqtest/"
find "$mods" -name '*.ko' -exec cp {} "$stage/usr/lib/wqtest/modules/" \;
cp "$top"/build/tools/* "$stage/usr/bin/"
[ -x "$top/build/stat-tracer/wqstat" ] && cp "$top/build/stat-tracer/wqstat" "$stage/usr/bin/"
[ -x "$tree/tools/vm/page-types" ] && cp "$tree/tools/vm/page-types" "$stage/usr/bin/"
echo "$tree/arch/x86/boot/bzImage" > "$stage.kernel"
