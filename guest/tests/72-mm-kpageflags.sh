#!/bin/bash
# /proc/kpageflags on pages whose kind is known (guest/tools/mmfault kpf):
# an anonymous page, a page of a file mapping, the head and a tail of a
# transparent huge page, and a pfn in a hole of the physical address space
# (from /proc/iomem).  The flags of seed 007 (MMAP, ANON, SWAPBACKED,
# COMPOUND_HEAD, COMPOUND_TAIL, NOPAGE) must be set where they must be and
# clear where they must not; then page-types, built from the same tree,
# lists the same pages at the same pfns.
. /usr/lib/wqtest/tests/lib.sh
[ -r /proc/kpageflags ] || skip "no /proc/kpageflags (CONFIG_PROC_PAGE_MONITOR)"
command -v page-types > /dev/null || fail "page-types is not in the image"
# a hole: the first gap of at least 128 MiB (a memory section) between two
# top-level System RAM ranges, below the end of RAM
sec=$((128 << 20)) last= hole=
while read -r range _ what; do
	[[ $range == [0-9a-f]*-[0-9a-f]* && $what == "System RAM" ]] || continue
	s=$((16#${range%-*})) e=$((16#${range#*-}))
	if [ -n "$last" ] && [ $((s - last)) -ge $((2 * sec)) ]; then
		hole=$(( ((last + sec - 1) / sec + 1) * sec / 4096 ))
		break
	fi
	last=$((e + 1))
done < <(grep -v "^ " /proc/iomem)
grep 'System RAM' /proc/iomem
[ -n "$hole" ] || skip "no hole of 256 MiB in physical memory below the end of RAM (ci/check.sh boots with 3.5 GiB for one)"
printf "hole pfn: 0x%x\n" "$hole"
mkdir -p /tmp/mmf
mmfault kpf /tmp/mmf $hole > /tmp/mmf/kpf || fail "mmfault kpf failed"
cat /tmp/mmf/kpf
declare -A bit=([MMAP]=11 [ANON]=12 [SWAPBACKED]=14 [COMPOUND_HEAD]=15 [COMPOUND_TAIL]=16 [NOPAGE]=20 [THP]=22)
declare -A pfn_of
n=0
while read -r kind name pfn f set clear; do
	[ "$kind" = flags ] || continue
	pfn=${pfn#pfn=}; f=${f#kpageflags=}; set=${set#set=}; clear=${clear#clear=}
	pfn_of[$name]=$pfn
	for b in ${set//,/ }; do
		(( f >> ${bit[$b]} & 1 )) || fail "$name: $b is clear, must be set"
		n=$((n + 1))
	done
	for b in ${clear//,/ }; do
		(( f >> ${bit[$b]} & 1 )) && fail "$name: $b is set, must be clear"
		n=$((n + 1))
	done
	echo "$name: $set set, $clear clear (kpageflags $f)"
done < /tmp/mmf/kpf
expect_eq "the hole's flags" "$(od -An -t u8 -j $((hole * 8)) -N 8 /proc/kpageflags | tr -d ' ')" $((1 << 20))
expect_ge "flags asserted" "$n" 16
# page-types: the voffset of each page, then its pfn and flags
read -r _ a f < <(grep '^page-types ' /tmp/mmf/kpf)
a=${a#anon=}; f=${f#file=}
pa=$(awk -v v="$a" '$1 == v { print "0x" $2 }' /tmp/mmf/kpf)
pf=$(awk -v v="$f" '$1 == v { print "0x" $2 }' /tmp/mmf/kpf)
expect_eq "page-types: pfn of the anonymous page" "$((pa))" "$((${pfn_of[anon]}))"
expect_eq "page-types: pfn of the file page" "$((pf))" "$((${pfn_of[file]}))"
awk -v v="$a" '$1 == v { print $3 }' /tmp/mmf/kpf | grep -q 'M.*a' || fail "page-types: the anonymous page is not listed as mmap + anonymous"
awk -v v="$f" '$1 == v { print $3 }' /tmp/mmf/kpf | grep -q 'M[^a]*$' || fail "page-types: the file page is not listed as mmap and not anonymous"
# a huge page: the config has THP (kernel-patches/mm.config), so one must be had
if grep -q '^skip thp' /tmp/mmf/kpf; then
	[ -d /sys/kernel/mm/transparent_hugepage ] && fail "$(grep '^skip thp' /tmp/mmf/kpf)"
	echo "no transparent huge pages in this kernel: the compound-page flags were not checked"
fi
