# ci/lib.sh: what the host scripts share about a finished guest run.  Source
# it; $top must name the repository.

# guest_problems RESULTS CONSOLE QEMU-STATUS: print what went wrong with a
# guest run, one problem a line (the lines of a splat follow it, indented);
# status 0 when nothing did: QEMU exited 0, the results end with the job's
# "# wqtest-done" and the console log holds no kernel splat.
guest_problems() {
	local results=$1 console=$2 qrc=$3 bad=0 splats
	if [ "$qrc" = 124 ]; then
		echo "timeout: the guest never stopped (GUEST_TIMEOUT)"
		bad=1
	elif [ "$qrc" != 0 ]; then
		echo "qemu exited with status $qrc"
		bad=1
	fi
	if [ ! -s "$results" ]; then
		echo "no result came out of the guest (see $console)"
		bad=1
	elif ! grep -qx '# wqtest-done' "$results"; then
		echo "the result is incomplete: the guest job did not finish (see $console)"
		bad=1
	fi
	if ! splats=$("$top/ci/splat.sh" "$console"); then
		echo "kernel splat in the console log $console:"
		echo "$splats" | sed 's/^/    /'
		bad=1
	fi
	return $bad
}

# guest_output RESULTS: what the guest job printed, without the harness's
# own marker lines.
guest_output() {
	sed -e '/^# wqtest: mode=/d' -e '/^# wqtest-done$/d' -e '/^# exit-status: [0-9]*$/d' "$1"
}

# guest_done WHO DIR QEMU-STATUS: for the scripts that show a guest's output
# (demo, run-guest, bench): 0 when the run in DIR is whole and clean, else
# print the problems on stderr, prefixed with WHO, and return 2 when the
# guest did not finish, 1 for a splat in a finished run.
guest_done() {
	local who=$1 dir=$2 qrc=$3 problems
	problems=$(guest_problems "$dir/results.txt" "$dir/console.log" "$qrc") && return 0
	echo "$problems" | sed "s/^/$who: /" >&2
	if [ "$qrc" = 0 ] && grep -qx '# wqtest-done' "$dir/results.txt" 2>/dev/null; then
		return 1
	fi
	return 2
}

# suite_tests NAME: the tests of suite NAME in ci/suites, one a line.
suite_tests() {
	awk -v s="[$1]" '/^#/ || NF == 0 { next } /^\[/ { on = ($0 == s); next } on { print $1 }' "$top/ci/suites"
}

# suites_unlisted: the guest tests that are in no suite, one a line.
suites_unlisted() {
	local f n
	for f in "$top"/guest/tests/[0-9]*.sh; do
		n=$(basename "$f" .sh)
		grep -qx -- "$n" "$top/ci/suites" || echo "$n"
	done
}
