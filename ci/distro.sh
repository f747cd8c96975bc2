#!/bin/bash
# The series' files compiled with Debian's own kernel configs, with W=1 and
# sparse (C=2), before and after the series:
#
#   ci/distro.sh FLAVOUR       none (Debian's amd64 kernel) or rt (its
#                              PREEMPT_RT kernel, 6.12 only: 6.1 has no RT
#                              in its source); KERNEL=6.12 for 6.12's
#
# The config is linux-config-VERSION's config.amd64_FLAVOUR_amd64, with
# CONFIG_WORKQUEUE_TRACER=y and the signing keys of Debian's build taken out
# (nothing here is signed).  Only "make prepare" and the objects are built:
# the .c files the series changes, those that instantiate its trace events
# and those that use trace_stat.h (the function profiler), once on the
# unpatched tree and once on the patched one, from a clean checkout of
# build/linux[-6.12] into build/distro-FLAVOUR[-6.12].  Every warning gcc or
# sparse gives for them is counted, by file and message (its line number
# left out: the series moves lines); a warning the patched tree has and
# the unpatched one has not is the series', and fails.  Prints one line:
# the objects, the warnings before and after, the time it took.
# DISTRO_AFTER=REV compiles that revision of build/linux[-6.12] as the
# patched side instead of its series (to see the check fail on a commit
# that adds a warning).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-}
jobs=${JOBS:-$(($(nproc) + 1))}

die() { echo "distro.sh: $*" >&2; exit 1; }

. "$top/ci/lib.sh"
wq_kernel || exit 1
sfx=
[ "$wq_kver" = 6.1 ] || sfx=-$wq_kver
case $flavour in
none|rt) ;;
*)	die "usage: [KERNEL=6.12] ci/distro.sh none|rt" ;;
esac
[ "$flavour" = none ] || [ "$wq_kver" != 6.1 ] || die "rt: 6.1's source has no PREEMPT_RT (Debian patches it in); KERNEL=6.12 ci/distro.sh rt"
cfg=/usr/src/linux-config-$wq_kver/config.amd64_${flavour}_amd64.xz
"$top/ci/deps.sh" "linux-config-$wq_kver" sparse dwarves
[ -r "$cfg" ] || die "$cfg: not found (package linux-config-$wq_kver)"
tree=$top/build/$wq_name
[ -d "$tree/.git" ] || die "build/$wq_name: no patched tree; run make kernel first"
out=$top/build/distro-$flavour$sfx
# a result stands while the series, its base, the config and this script
# are the same (make check's prebuild runs it first, its report again)
after_rev=${DISTRO_AFTER:-series}
key=$( (git -C "$tree" rev-parse base "$after_rev"; sha256sum "$cfg" "$0") | sha256sum)
if [ -s "$out.result" ] && [ "$(cat "$out.key" 2> /dev/null)" = "$key" ]; then
	cat "$out.result"
	exit 0
fi
rm -f "$out.result" "$out.key"
start=$(date +%s)
echo "distro.sh: $flavour$sfx: Debian's config, make prepare and the series' objects, unpatched and patched" >&2

# a clean checkout of build/$wq_name, moved between its base and its series
src=$top/build/distro-src$sfx
if [ ! -d "$src/.git" ]; then
	rm -rf "$src"
	git clone -q --shared --no-checkout "$tree" "$src"
fi
git -C "$src" fetch -q "$tree" '+refs/tags/*:refs/tags/*'
after_sha=$(git -C "$tree" rev-parse "$after_rev^{commit}") || die "DISTRO_AFTER=$after_rev: no such revision in build/$wq_name"
git -C "$src" fetch -q "$tree" "$after_sha"
log=$out.log
mkdir -p "$out"
: > "$log"
kmake=(make -C "$src" O="$out" CC="ccache gcc" -j"$jobs")
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

# the objects: each .c file of the series, the users of the headers it
# changes (the events' instances, trace_stat.h's tracers)
objs=()
while read -r f; do
	case $f in
	*.c) objs+=("${f%.c}.o") ;;
	include/trace/events/workqueue.h) objs+=(kernel/workqueue.o) ;;
	include/trace/events/mm_fault.h) objs+=(mm/memory.o mm/filemap.o) ;;
	kernel/trace/trace_stat.h) objs+=(kernel/trace/ftrace.o) ;;
	esac
done < <(git -C "$src" diff --name-only base "$after_sha")
mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)
[ ${#objs[@]} -ge 5 ] || die "only ${#objs[@]} objects of the series found: ${objs[*]}"

# side REV NAME: REV checked out, configured and prepared; the objects
# that exist there built again with W=1 and sparse; their warnings, as
# "FILE: MESSAGE" (no line), in $out.NAME.warnings
side() {
	local rev=$1 name=$2 o have=() c
	git -C "$src" checkout -q -f --detach "$rev"
	xz -dc "$cfg" > "$out/.config"
	"$src/scripts/config" --file "$out/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--disable MODULE_SIG_ALL --enable WORKQUEUE_TRACER
	echo "== $name: $rev $(git -C "$src" rev-parse --short HEAD)" >> "$log"
	"${kmake[@]}" -s olddefconfig >> "$log" 2>&1 || { tail -n 20 "$log" >&2; die "$name: olddefconfig failed ($log)"; }
	c=$(grep -c '^CONFIG_WORKQUEUE_TRACER=y' "$out/.config" || true)
	[ "$name" = before ] || [ "$c" = 1 ] || die "$name: CONFIG_WORKQUEUE_TRACER=y did not stick"
	[ "$flavour" != rt ] || grep -qx 'CONFIG_PREEMPT_RT=y' "$out/.config" || die "$name: CONFIG_PREEMPT_RT is not set"
	"${kmake[@]}" prepare >> "$log" 2>&1 || { tail -n 20 "$log" >&2; die "$name: make prepare failed ($log)"; }
	for o in "${objs[@]}"; do
		[ -f "$src/${o%.o}.c" ] || continue
		have+=("$o")
		rm -f "$out/$o"
	done
	echo "== $name: ${have[*]}" >> "$log"
	"${kmake[@]}" W=1 C=2 "${have[@]}" > "$out.$name.build" 2>&1 ||
		{ cat "$out.$name.build" >> "$log"; grep -E 'error' "$out.$name.build" | head -n 20 >&2; die "$name: the objects did not build ($log)"; }
	cat "$out.$name.build" >> "$log"
	for o in "${have[@]}"; do
		[ -s "$out/$o" ] || die "$name: $o was not built"
	done
	# gcc's and sparse's "FILE:LINE:COL: warning: ..." (and sparse's
	# errors, which do not stop the build), the path made relative to the
	# source and the line left out
	sed -n -E 's#^(([^: ]*/)?distro-src[^/]*/)?([^: ]+):[0-9]+:([0-9]+:)? (warning|error): #\3: \5: #p' \
		"$out.$name.build" | sort > "$out.$name.warnings"
	echo "${#have[@]}"
}
nb=$(side base before)
na=$(side "$after_sha" after)
before=$(grep -c . "$out.before.warnings" || true)
after=$(grep -c . "$out.after.warnings" || true)
# what the patched tree warns of and the unpatched does not (as many times)
comm -13 "$out.before.warnings" "$out.after.warnings" > "$out.new.warnings"
if [ -s "$out.new.warnings" ]; then
	cat "$out.new.warnings" >&2
	die "$flavour$sfx: $(grep -c . "$out.new.warnings") warnings of W=1 or sparse that the unpatched tree has not (above; whole log: $log)"
fi
echo "$key" > "$out.key"
echo "$flavour$sfx: $na objects of the series (${objs[*]}) with W=1 and sparse under Debian's config.amd64_${flavour}_amd64: $before warnings unpatched ($nb objects), $after patched, none new; $(( $(date +%s) - start )) s" | tee "$out.result"
