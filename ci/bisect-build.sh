#!/bin/bash
# Check that every patch of the series builds on its own: apply them one at
# a time in build/bisect (a worktree of build/linux's base) with the guest
# config, and build after each.  Options a patch does not know yet are
# dropped by olddefconfig.  Prints one line per patch; exits 1 on a failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/bisect
base=$top/build/linux
git_id=(-c user.name="wqstat build" -c user.email="build@wqstat.invalid")
export CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=wqstat KBUILD_BUILD_HOST=guest
[ -d "$base/.git" ] || { echo "bisect-build: build/linux first (make guest)" >&2; exit 1; }
if [ ! -d "$tree" ]; then
	git -C "$base" worktree add -q --detach "$tree" base
fi
git -C "$tree" am --abort >/dev/null 2>&1
git -C "$tree" checkout -q -f --detach base
cp "$base/.config" "$tree/.config"
status=0
mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/kernel-patches/series")
for p in "${patches[@]}"; do
	git -C "$tree" "${git_id[@]}" am -q "$top/kernel-patches/$p" || { echo "not ok - $p does not apply"; exit 1; }
	make -C "$tree" -s olddefconfig >/dev/null
	if make -C "$tree" -j"$(($(nproc) + 1))" CC="ccache gcc" bzImage > "$tree.log" 2>&1 &&
	   ! grep -q 'warning:' "$tree.log"; then
		echo "ok - builds without warnings after $p"
	else
		grep -E 'warning:|error:' "$tree.log" | head -n 5
		echo "not ok - build fails or warns after $p"
		status=1
	fi
done
exit $status
