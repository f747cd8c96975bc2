#!/bin/bash
# Regenerate kernel-patches/ from the development tree (build/dev, branch
# wq, on top of the tag "base"): git format-patch with a cover letter whose
# text is kernel-patches/cover-letter.txt (subject line, blank line, body),
# and the series file.  The series is the source of truth; this is the only
# way kernel-patches/*.patch are written.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dev=${DEV_TREE:-$top/build/dev}
out=$top/kernel-patches
git_id=(-c user.name="wqstat developers" -c user.email="wqstat-dev@example.org")

[ -d "$dev/.git" ] || [ -f "$dev/.git" ] || { echo "export-patches: no tree at $dev" >&2; exit 1; }
branch=$(git -C "$dev" rev-parse --abbrev-ref HEAD)
git -C "$dev" config "branch.$branch.description" "$(cat "$out/cover-letter.txt")"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
git -C "$dev" "${git_id[@]}" format-patch -q --no-signature --zero-commit \
	--cover-letter --cover-from-description=subject \
	-o "$out" base..HEAD
{
	echo "# Applied in this order by ci/kernel.sh with git am."
	(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-')
} > "$out/series"
ls "$out"
