#!/bin/bash
# Prepare and build one guest kernel tree.
#
#   ci/kernel.sh NAME SERIES FRAGMENT...
#
# build/NAME becomes a git tree of Debian's linux-source-$KERNEL (6.1 by
# default, or 6.12: ci/lib.sh, wq_kernel) with every patch
# named in SERIES applied by git am (SERIES may be "none"), configured from
# tinyconfig plus the fragments, validated, and built with ccache.
# Re-running it only rebuilds what changed: the tree is reset to its base
# commit and the series re-applied, so untouched files keep their mtimes.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
name=$1 series=$2
shift 2
fragments=()
for f in "$@"; do
	[ -r "$f" ] || { echo "kernel.sh: config fragment $f: cannot read it" >&2; exit 1; }
	fragments+=("$(realpath "$f")")
done
[ "$series" = none ] || series=$(realpath "$series")
. "$top/ci/lib.sh"
wq_kernel || exit 1
tar=$wq_tar
tree=$top/build/$name
jobs=${JOBS:-$(($(nproc) + 1))}
# gc.auto=0: a commit of a whole kernel tree would start "git gc --auto",
# which packs 80,000 objects for minutes beside the build and holds the
# tree's build lock (inherited) until it is done
git_id=(-c user.name="wqstat build" -c user.email="build@wqstat.invalid"
	-c commit.gpgsign=false -c core.autocrlf=false -c gc.auto=0)

die() { echo "kernel.sh: $*" >&2; exit 1; }

[ -r "$tar" ] || die "$tar: no kernel source (install $wq_pkg or set LINUX_SOURCE_TAR)"

# 1. the tree and its base commit, re-extracted only when the tarball changes
tar_id="$(stat -c '%s %Y' "$tar") $tar"
if [ ! -d "$tree/.git" ] || [ "$(cat "$tree/.wq-source" 2>/dev/null)" != "$tar_id" ]; then
	echo "kernel.sh: extracting $tar into $tree" >&2
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tar" -C "$tree.tmp"
	src=$(find "$tree.tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -f "$src/Makefile" ] || die "$tar does not hold a kernel tree"
	mv "$src" "$tree"
	rm -rf "$tree.tmp"
	echo "kernel.sh: committing it as the base of the series" >&2
	git -C "$tree" init -q
	git -C "$tree" "${git_id[@]}" add -A -f  # Debian's .gitignore ignores "/*"
	git -C "$tree" "${git_id[@]}" commit -q -m "base: $(basename "$tar")"
	git -C "$tree" tag -f base >/dev/null
	echo "$tar_id" > "$tree/.wq-source"
fi

# 2. the series, re-applied when it changed
ver=$(make -s -C "$tree" kernelversion 2>/dev/null)
# the version the series was tested on: its own BASE_VERSION, or the one
# of the kernel's series (for SERIES=none, or ci/placebo's)
kp=$wq_kp
[ "$series" = none ] || [ ! -f "$(dirname "$series")/BASE_VERSION" ] || kp=$(dirname "$series")
tested=$(cat "$kp/BASE_VERSION" 2>/dev/null || echo unknown)
[ "$ver" = "$tested" ] ||
	echo "kernel.sh: warning: the series was last tested on $tested; this source is $ver" >&2

if [ "$series" = none ]; then
	patches=()
else
	mapfile -t patches < <(grep -v -e '^#' -e '^[[:space:]]*$' "$series")
fi
# then the emulator's patches (ci/tcg/VERSION, not part of the series: on
# every guest kernel, vanilla too; WQ_TCG_PATCHES=0 leaves them out)
tcg=()
[ "${WQ_TCG_PATCHES:-1}" = 0 ] || tcg=("$top"/ci/tcg/"$wq_kver"/*.patch)
[ -f "${tcg[0]:-}" ] || tcg=()
series_id=none
[ ${#patches[@]} -eq 0 ] || series_id=$(cd "$(dirname "$series")" && cat -- "${patches[@]}" | sha256sum)
[ ${#tcg[@]} -eq 0 ] || series_id="$series_id tcg $(cat -- "${tcg[@]}" | sha256sum)"
if [ "$(cat "$tree/.wq-series" 2>/dev/null)" != "$series_id" ]; then
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f --detach base
	# am_all PATCH...: git am each, by path
	am_all() {
		local pf
		for pf in "$@"; do
			[ -f "$pf" ] || die "series names ${pf##*/}, which does not exist"
			if ! git -C "$tree" "${git_id[@]}" am -q --committer-date-is-author-date "$pf" >/dev/null 2>"$tree.am.log"; then
				git -C "$tree" am --abort >/dev/null 2>&1 || true
				cat "$tree.am.log" >&2
				die "patch ${pf##*/} does not apply to $ver"
			fi
		done
	}
	am_all "${patches[@]/#/$(dirname "$series")/}"
	# the tag "series": the series' last commit, without ci/tcg's (the
	# cross builds compile its files with -Werror)
	git -C "$tree" tag -f series >/dev/null
	am_all "${tcg[@]}"
	echo "$series_id" > "$tree/.wq-series"
	echo "kernel.sh: applied ${#patches[@]} patches and ${#tcg[@]} of ci/tcg on $ver" >&2
fi

# 3. the config: tinyconfig + fragments, then every fragment line validated
cd "$tree"
echo "kernel.sh: build/$name: the config (tinyconfig and $(echo "${fragments[@]##*/}")), then the build" >&2
[ -f .config ] && cp -p .config .config.prev
make -s tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m .config "${fragments[@]}" >/dev/null
make -s olddefconfig >/dev/null
bad=0
for f in "${fragments[@]}"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n)
			opt=${line%%=*}
			if grep -q "^$opt=[ym]" .config; then
				echo "kernel.sh: $f: $opt is set, but the fragment asks for it off" >&2
				bad=1
			fi ;;
		CONFIG_*=*)
			if ! grep -qxF "$line" .config; then
				opt=${line%%=*}
				got=$(grep -E "^$opt=|^# $opt is not set" .config || echo "absent: no such option")
				echo "kernel.sh: $f: $line was asked for, the .config has: $got" >&2
				bad=1
			fi ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=[ym]" .config; then
				echo "kernel.sh: $f: $opt is set, but the fragment asks for it off" >&2
				bad=1
			fi ;;
		esac
	done < "$f"
done
[ $bad -eq 0 ] || die "config validation failed for build/$name"
# an identical config keeps its old mtime, so nothing is rebuilt for it
if [ -f .config.prev ] && cmp -s .config .config.prev; then
	mv .config.prev .config
else
	rm -f .config.prev
fi

# 4. build
export CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=wqstat KBUILD_BUILD_HOST=guest
start=$(date +%s)
total=$(build_total "$name" "$tree.objects")
: > "$tree.build.log"
build_progress "$tree.build.log" "kernel.sh: building build/$name" "$total" > /dev/null &
watcher=$!
rc=0
make -j"$jobs" CC="ccache gcc" HOSTCC="ccache gcc" bzImage modules > "$tree.build.log" 2>&1 || rc=$?
# the watcher only prints: its end, killed, is not an error
kill "$watcher" 2> /dev/null || :
wait "$watcher" 2> /dev/null || :
progress_end
if [ $rc -ne 0 ]; then
	grep -E -B2 -A8 'error|Error' "$tree.build.log" | tail -n 60 >&2
	die "build/$name failed to build; the whole log is $tree.build.log"
fi
build_remember "$tree.objects" "$tree.build.log"
echo "kernel.sh: build/$name built in $(( $(date +%s) - start )) s" >&2
