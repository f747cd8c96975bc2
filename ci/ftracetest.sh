#!/bin/bash
# make ftracetest: the kernel's own ftracetest (tools/testing/selftests/ftrace
# of the same tree), its test.d/00basic and test.d/ftrace, in the guest of
# the ftrace kernel (kernel-patches/ftrace.config) with the series and
# without it, one boot after the other: every test case that passes without
# the series must pass with it.  KERNEL=6.12 picks 6.12's pair.
# Not part of make check: beside a busy host both kernels stall in 00basic's
# "Basic test for tracers" (docs/kernels.md); run it on a quiet one.
# FTRACETEST_DIRS overrides the directories of test.d (space-separated).
# Exit status: 0 when no case regressed, 1 when one did or a guest failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/ci/lib.sh"
wq_kernel || exit 2
sfx=
[ "$wq_kver" = 6.1 ] || sfx=-$wq_kver
dirs=${FTRACETEST_DIRS:-00basic ftrace}
for d in $dirs; do
	[[ $d =~ ^[A-Za-z0-9_-]+$ ]] || { echo "ftracetest: FTRACETEST_DIRS: '$d' is not a directory name of test.d" >&2; exit 2; }
done
status=0

# tree NAME: build/ftracetest-NAME, laid over the guest's /: ftracetest and
# the commands it runs that the image does not have, with their libraries
tree() {
	local t=$top/build/ftracetest-$1 b p lib
	rm -rf "$t"
	mkdir -p "$t/usr/lib/wqtest" "$t/usr/bin"
	cp -r "$top/build/$1/tools/testing/selftests/ftrace" "$t/usr/lib/wqtest/ftracetest" || return 1
	for b in find tee id expr which xargs uniq realpath rmdir kill touch md5sum yes nl tac ps chmod chown chgrp ln; do
		p=$(type -P "$b") || { echo "ftracetest: no $b on the host" >&2; return 1; }
		cp -L "$p" "$t/usr/bin/$b" || return 1
		for lib in $(ldd "$p" 2> /dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			[ -e "$t$lib" ] || { mkdir -p "$t$(dirname "$lib")" && cp -L "$lib" "$t$lib"; } || return 1
		done
	done
}

# run NAME: ftracetest's directories in a guest of build/NAME; the cases
# as "DIR<TAB>CASE<TAB>RESULT" in build/guest/ftracetest-NAME/cases
run() {
	local name=$1 out=$top/build/guest/ftracetest-$1 rc script
	tree "$name" || { echo "ftracetest: could not lay out build/ftracetest-$name" >&2; return 1; }
	mkdir -p "$out"
	script=$out/in-guest.sh
	{
		echo '#!/bin/bash'
		echo 'cd /usr/lib/wqtest/ftracetest || exit 1'
		echo "for d in $dirs; do"
		echo '	echo "# dir $d"; s=$(date +%s)'
		echo '	./ftracetest -l /tmp/ftlog "test.d/$d" 2>&1 | sed "s/\x1b\[[0-9;]*m//g"'
		echo '	echo "# dir $d took $(( $(date +%s) - s )) s"'
		echo 'done'
	} > "$script"
	echo "# ftracetest: build/$name ($dirs)" >&2
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-3600} WQ_USER_SCRIPT=$script WQ_USER_TREE=$top/build/ftracetest-$name \
		"$top/ci/guest.sh" "$name" script "$out"
	rc=$?
	guest_done "ftracetest $name" "$out" "$rc" || return 1
	# "[N] (instance)  ftrace - name<TAB>[PASS]"
	awk '/^# dir / && NF == 3 { d = $3; next }
		/^\[[0-9]+\] .*\t\[[A-Z]+\]$/ {
			sub(/^\[[0-9]+\] /, ""); n = split($0, f, "\t")
			r = f[n]; gsub(/[][]/, "", r); print d "\t" f[1] "\t" r }' "$out/results.txt" > "$out/cases"
	[ -s "$out/cases" ] || { echo "ftracetest $name: no test case reported (see $out/results.txt)" >&2; return 1; }
}

wq_ftrace_frags
wq_run_kernel "$wq_kver" "$top/ci/build.sh" "ftrace$sfx" "${wq_frags[@]}" >&2 &&
	wq_ftrace_frags vanilla &&
	SERIES=none wq_run_kernel "$wq_kver" "$top/ci/build.sh" "ftrace-vanilla$sfx" "${wq_frags[@]}" >&2 ||
	{ echo "ftracetest: the ftrace kernels did not build" >&2; exit 1; }
run "ftrace-vanilla$sfx" || status=1
run "ftrace$sfx" || status=1
[ $status = 0 ] || exit 1

# side by side; a case that passed without the series and does not with it
# is a regression
van=$top/build/guest/ftracetest-ftrace-vanilla$sfx/cases pat=$top/build/guest/ftracetest-ftrace$sfx/cases
awk -F '\t' -v OFS='\t' 'NR == FNR { v[$1 FS $2] = $3; next }
	{ k = $1 FS $2; seen[k] = 1
	  printf "%-8s %-10s %-12s %s: %s\n", ($3 == "PASS" || v[k] != "PASS") ? "ok" : "REGRESSED", k in v ? v[k] : "-", $3, $1, $2
	  if (v[k] == "PASS" && $3 != "PASS") bad++ }
	END { for (k in v) if (!(k in seen)) { split(k, f, FS); printf "%-8s %-10s %-12s %s: %s\n", v[k] == "PASS" ? "MISSING" : "ok", v[k], "-", f[1], f[2]; if (v[k] == "PASS") bad++ }
	      exit bad > 0 }' "$van" "$pat" | sed '1i # result   without    with         case'
rc=$?
for f in "$van" "$pat"; do
	echo "# $(basename "$(dirname "$f")"): $(cut -f3 "$f" | sort | uniq -c | awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }');" \
		"$(sed -n 's/^# dir \(.*\) took \(.*\)$/\1 \2/p' "$(dirname "$f")/results.txt" | paste -sd, | sed 's/,/, /g')"
done
if [ $rc = 0 ]; then
	echo "ftracetest: every case that passes without the series passes with it ($(grep -c . "$pat") cases)"
else
	echo "ftracetest: a case that passes without the series does not with it" >&2
	exit 1
fi
