#!/bin/bash
# make check's cross builds of the series, for the machines the guest is not:
#
#   ci/cross.sh i386    32-bit x86: vmlinux is built and linked, which is
#                       what catches a 64-bit division (no __udivdi3 there)
#   ci/cross.sh arm64   Debian's aarch64-linux-gnu-gcc: the objects only
#
# Both configure tinyconfig plus the guest's fragments and ci/cross.config,
# and then compile every object of the series again with -Werror: a
# warning in the series is a failure, one in the rest of 6.1 is not ours.
# The source is a clean checkout of build/linux (ci/kernel.sh's patched
# tree, built in place), so that the builds can go in build/cross-ARCH;
# KERNEL=6.12: of build/linux-6.12, into build/cross-ARCH-6.12.
# Prints one line of what was built and how long it took; exits non-zero
# on a failure, with the build's last lines on stderr.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-}
jobs=${JOBS:-$(($(nproc) + 1))}

die() { echo "cross.sh: $*" >&2; exit 1; }
# logged CMD...: run CMD with its output in $log; on failure show its end
logged() {
	"$@" >> "$log" 2>&1 && return 0
	tail -n 30 "$log" >&2
	die "$arch: $* failed (whole log: $log)"
}

. "$top/ci/lib.sh"
wq_kernel || exit 1
sfx=
[ "$wq_kver" = 6.1 ] || sfx=-$wq_kver
case $arch in
i386)	cross= ;;
arm64)	cross=aarch64-linux-gnu- ;;
*)	die "usage: ci/cross.sh i386|arm64" ;;
esac
tree=$top/build/$wq_name
[ -d "$tree/.git" ] || die "build/$wq_name: no patched tree; run make kernel first"
if [ -n "$cross" ]; then
	"$top/ci/deps.sh" gcc-aarch64-linux-gnu
else
	"$top/ci/deps.sh"
fi
start=$(date +%s)
echo "cross.sh: $arch: a checkout of build/$wq_name, the config, then the build" >&2

# 1. a clean checkout of the patched tree; objects are shared with it
src=$top/build/cross-src$sfx
head=$(git -C "$tree" rev-parse HEAD)
if [ ! -d "$src/.git" ]; then
	rm -rf "$src"
	git clone -q --shared --no-checkout "$tree" "$src"
fi
if [ ! -f "$src/Makefile" ] ||
   [ "$(git -C "$src" rev-parse -q --verify HEAD 2>/dev/null || true)" != "$head" ]; then
	git -C "$src" checkout -q -f --detach "$head"
fi

# 2. the config
out=$top/build/cross-$arch$sfx
log=$top/build/cross-$arch$sfx.log
mkdir -p "$out"
kmake=(make -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross"
       CC="ccache ${cross}gcc" -j"$jobs")
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
[ -f "$out/.config" ] && cp -p "$out/.config" "$out/.config.prev"
: > "$log"
logged "${kmake[@]}" -s tinyconfig
logged "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"$top/kernel-patches/guest.config" "$top/kernel-patches/wqstat.config" \
	"$top/kernel-patches/mm.config" "$top/ci/cross.config"
logged "${kmake[@]}" -s olddefconfig
if [ -f "$out/.config.prev" ] && cmp -s "$out/.config" "$out/.config.prev"; then
	mv "$out/.config.prev" "$out/.config"
else
	rm -f "$out/.config.prev"
fi
for opt in CONFIG_WORKQUEUE_TRACER=y CONFIG_MODULES=y CONFIG_MODULE_UNLOAD=y \
	   CONFIG_SMP=y CONFIG_SWAP=y; do
	grep -qxF "$opt" "$out/.config" || die "$arch: $opt did not stick in $out/.config"
done
if [ "$arch" = i386 ]; then
	grep -q '^CONFIG_64BIT=y' "$out/.config" && die "i386: the config is 64-bit"
	grep -qx 'CONFIG_X86_32=y' "$out/.config" || die "i386: CONFIG_X86_32 is not set"
fi

# 3. the build: all of vmlinux for i386, what the objects need for arm64
if [ "$arch" = i386 ]; then
	goal=vmlinux
else
	goal=prepare
fi
total=$(build_total "cross-$arch$sfx" "$out.objects")
build_progress "$log" "cross.sh: building $goal for $arch" "$total" > /dev/null &
watcher=$!
rc=0
"${kmake[@]}" "$goal" >> "$log" 2>&1 || rc=$?
# the watcher only prints: its end, killed, is not an error
kill "$watcher" 2> /dev/null || :
wait "$watcher" 2> /dev/null || :
progress_end
if [ $rc -ne 0 ]; then
	tail -n 30 "$log" >&2
	die "$arch: make $goal failed (whole log: $log)"
fi
build_remember "$out.objects" "$log"

# 4. the series' objects again, with -Werror: the .c files it changes and
# those that instantiate the trace events of the headers it changes
objs=()
while read -r f; do
	case $f in
	*.c) objs+=("${f%.c}.o") ;;
	include/trace/events/workqueue.h) objs+=(kernel/workqueue.o) ;;
	include/trace/events/mm_fault.h) objs+=(mm/memory.o) ;;
	esac
done < <(git -C "$src" diff --name-only base "$(git -C "$tree" rev-parse series)")
[ ${#objs[@]} -ge 4 ] || die "$arch: only ${#objs[@]} objects of the series found: ${objs[*]}"
mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)
# the other users of trace_stat, which patch 7 changes too, are built only
# with their tracers, which these configs leave out: the [ftrace] kernels
# of make check and Debian's configs (ci/distro.sh) compile them
declare -A needs=([kernel/trace/ftrace.o]=CONFIG_FUNCTION_TRACER
	[kernel/trace/trace_branch.o]=CONFIG_TRACE_BRANCH_PROFILING)
keep=() left=()
for o in "${objs[@]}"; do
	if [ -n "${needs[$o]:-}" ] && ! grep -qx "${needs[$o]}=y" "$out/.config"; then
		left+=("$o")
	else
		keep+=("$o")
	fi
done
objs=("${keep[@]}")
for o in "${objs[@]}"; do
	rm -f "$out/$o"
done
if ! "${kmake[@]}" KCFLAGS=-Werror "${objs[@]}" >> "$log" 2>&1; then
	grep -E 'error|warning' "$log" | tail -n 30 >&2
	die "$arch: the series does not build with -Werror (whole log: $log)"
fi
for o in "${objs[@]}"; do
	[ -s "$out/$o" ] || die "$arch: $o was not built"
done
what="${#objs[@]} objects of the series with -Werror (${objs[*]})"
[ ${#left[@]} = 0 ] || what+=", not ${left[*]} (their tracers are off)"
[ "$arch" = i386 ] && what="vmlinux linked ($(stat -c %s "$out/vmlinux") bytes); $what"
echo "$arch: $what; $(( $(date +%s) - start )) s"
