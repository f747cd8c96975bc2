#!/bin/bash
# Regenerate the series of $KERNEL from its development tree (6.1, the
# default: build/dev into kernel-patches/; KERNEL=6.12: build/dev-6.12 into
# kernel-patches/6.12/; each a branch on top of the tag "base", a commit
# of Debian's source): git format-patch with a cover letter whose
# text is cover-letter.txt there (subject line, blank line, body),
# and the series file.  The series is the source of truth; this is the only
# way the *.patch files are written.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 1
dev=${DEV_TREE:-$top/build/dev}
[ "$wq_kver" = 6.1 ] || dev=${DEV_TREE:-$top/build/dev-$wq_kver}
out=$wq_kp
git_id=(-c user.name="wqstat developers" -c user.email="wqstat-dev@example.org")

[ -d "$dev/.git" ] || [ -f "$dev/.git" ] || { echo "export-patches: no tree at $dev" >&2; exit 1; }
branch=$(git -C "$dev" rev-parse --abbrev-ref HEAD)
git -C "$dev" config "branch.$branch.description" "$(cat "$out/cover-letter.txt")"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
git -C "$dev" "${git_id[@]}" format-patch -q --no-signature --zero-commit \
	--cover-letter --cover-from-description=subject \
	-o "$out" base..HEAD
# A blank context line is written by git as a single space.  checkpatch
# run from inside this repository sees the tracked *.patch files as source
# files (git_is_single_file) and flags those spaces, so write blank
# context lines the way GNU diff --suppress-blank-empty does; git am takes
# both.  The series is then applied from scratch and must give the same
# tree as the development branch.
sed -i 's/^ $//' "$out"/[0-9][0-9][0-9][0-9]-*.patch
check=$(mktemp -d)
trap 'git -C "$dev" worktree remove --force "$check" 2>/dev/null || true; rm -rf "$check"' EXIT
git -C "$dev" worktree add -q --detach "$check" base
git -C "$check" "${git_id[@]}" am -q $(ls "$out"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-)
want=$(git -C "$dev" rev-parse 'HEAD^{tree}')
got=$(git -C "$check" rev-parse 'HEAD^{tree}')
[ "$want" = "$got" ] || { echo "export-patches: the exported series does not rebuild $branch ($got != $want)" >&2; exit 1; }

{
	echo "# Applied in this order by ci/kernel.sh with git am."
	(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-')
} > "$out/series"
ls "$out"
