#!/bin/bash
# Make sure the Debian packages the build needs are installed, and the ones
# named as arguments (the kernel source of $KERNEL is named by ci/build.sh:
# linux-source-6.12 is installed only when KERNEL=6.12 or make check asks
# for it).  Costs one dpkg-query when everything is present; runs apt-get
# only when something is missing.
set -euo pipefail

pkgs=(qemu-system-x86 dracut gcc make perl bc flex bison
      libelf-dev libssl-dev cpio xz-utils ccache kmod python3 git
      clang libclang-rt-14-dev)
pkgs+=("$@")

declare -A have=()
while read -r name status; do
	[ "$status" = "installed" ] && have[$name]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${pkgs[@]}" 2>/dev/null || true)
missing=()
for p in "${pkgs[@]}"; do
	[ -n "${have[$p]:-}" ] || missing+=("$p")
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install ${missing[*]} (run as root or install them)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
