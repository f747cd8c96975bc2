# ci/lib.sh: what the host scripts share: which kernel they build, and what
# a finished guest run left.  Source it; $top must name the repository.

# wq_kernel [VERSION]: the kernel the build and the guest are for, from
# VERSION or else $KERNEL (6.1 when unset; 6.1 and 6.12 are supported).
# Sets wq_kver (6.1 or 6.12), wq_kp (its directory of kernel-patches/: the
# series, BASE_VERSION and cover-letter.txt), wq_tar (Debian's source
# tarball, or $LINUX_SOURCE_TAR), wq_pkg (the package that has it) and
# wq_name (the tree of its normal kernel in build/: linux for 6.1,
# linux-6.12 for 6.12).  Fails, saying so, for another version.
wq_kernel() {
	wq_kver=${1:-${KERNEL:-6.1}}
	case $wq_kver in
	6.1)	wq_kp=$top/kernel-patches wq_name=linux ;;
	6.12)	wq_kp=$top/kernel-patches/6.12 wq_name=linux-6.12 ;;
	*)	echo "KERNEL=$wq_kver: not a kernel this project supports (6.1, the default, or 6.12)" >&2
		return 1 ;;
	esac
	wq_pkg=linux-source-$wq_kver
	wq_tar=${LINUX_SOURCE_TAR:-/usr/src/$wq_pkg.tar.xz}
}
# wq_run_kernel VERSION CMD...: run CMD for the kernel VERSION (the
# scripts read it from $KERNEL), without a $LINUX_SOURCE_TAR that was
# given for the other one
wq_run_kernel() {
	local v=$1
	shift
	if [ "$v" = "${KERNEL:-6.1}" ]; then
		KERNEL=$v "$@"
	else
		env -u LINUX_SOURCE_TAR KERNEL="$v" "$@"
	fi
}

# wq_ftrace_frags [vanilla]: the fragments of the ftrace kernel (the other
# users of trace_stat: the function and branch profilers, and kmemleak) in
# the array wq_frags; without "vanilla", with wqstat.config, whose option
# the unpatched tree does not have.  check.sh, ftracetest.sh, mutants.sh
wq_ftrace_frags() {
	wq_frags=("$top/kernel-patches/guest.config" "$top/kernel-patches/mm.config"
		"$top/kernel-patches/ftrace.config")
	[ "${1:-}" = vanilla ] || wq_frags+=("$top/kernel-patches/wqstat.config")
}

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

# Progress of long work, on stderr: a terminal gets one line rewritten in
# place every 30 s, anything else (a CI log) a new line every 60 s.
progress_every() { if [ -t 2 ]; then echo 30; else echo 60; fi; }
progress_line() {
	if [ -t 2 ]; then printf '\r%s\033[K' "$1" >&2; else echo "$1" >&2; fi
}
progress_end() { [ ! -t 2 ] || printf '\r\033[K' >&2; }
# nap SECONDS: a watcher's sleep, ended with the watcher when it is killed:
# a sleep left behind would hold the caller's pipes open for up to a minute
# (a $(...) or a "| ts" would wait for it)
nap() {
	trap 'kill $_nap 2> /dev/null; exit 0' TERM
	sleep "$1" &
	_nap=$!
	wait $_nap
}

# build_progress LOG WHAT TOTAL [REGEX NOUN]: while a build writes LOG
# (make's short lines "  CC  file.o"), say how many objects it has made, of
# about TOTAL when an earlier build told (empty: unknown), and how long it
# has run, once at the start and then every interval; REGEX and NOUN count
# other lines (TAP results, say).  Run it in
# the background with its stdout away from the caller's (it prints on
# stderr); kill it when the build ends.
build_re='^  (CC|AS|LD|AR|HOSTCC|OBJCOPY)'
build_progress() {
	local log=$1 what=$2 total=$3 re=${4:-$build_re} noun=${5:-objects}
	local start every n
	start=$(date +%s)
	every=$(progress_every)
	while :; do
		n=$(grep -c -E "$re" "$log" 2> /dev/null || :)
		progress_line "$what: ${n:-0}${total:+ of about $total} $noun, $(( $(date +%s) - start )) s (tail -f $log)"
		nap "$every"
	done
}

# build_total NAME FILE: the objects a full build of NAME makes, as far as
# known: FILE keeps the most any build of it logged, ci/objects the count
# measured here for a first build
build_total() {
	cat "$2" 2> /dev/null || awk -v n="$1" '$1 == n { print $2 }' "$top/ci/objects"
}
# build_remember FILE LOG: after a build, keep in FILE the most objects a
# build logged (a full build's count; an incremental one logs fewer)
build_remember() {
	local n old
	n=$(grep -c -E "$build_re" "$2" || :)
	old=$(cat "$1" 2> /dev/null || echo 0)
	[ "${n:-0}" -le "$old" ] || echo "$n" > "$1"
}

# stream_guest DIR LABEL: while a guest runs into DIR, print each result
# line (ok / not ok) the moment the guest writes it, the lines the guest
# logs as "wqtest-progress: ..." (make bench's rounds), and after each 55 s
# without either, which test is running.  Run it in the background; kill it
# when QEMU exits.  It only reads: the result files stay as they are.
stream_guest() {
	local dir=$1 label=$2 start seen=0 quiet=0 t n line cseen=0 cur
	start=$(date +%s)
	while nap 2; do
		t=$(( $(date +%s) - start ))
		n=$(wc -l < "$dir/results.txt" 2> /dev/null || echo 0)
		if [ "$n" -gt "$seen" ]; then
			while IFS= read -r line; do
				line=${line%$'\r'}
				case $line in
				"ok "*|"not ok "*) echo "  [$label ${t}s] $line" >&2; quiet=$t ;;
				esac
			done < <(sed -n "$((seen + 1)),${n}p" "$dir/results.txt")
			seen=$n
		fi
		n=$(wc -l < "$dir/console.log" 2> /dev/null || echo 0)
		if [ "$n" -gt "$cseen" ]; then
			while IFS= read -r line; do
				line=${line%$'\r'}
				case $line in
				*"wqtest-progress: "*) echo "  [$label ${t}s] ${line#*wqtest-progress: }" >&2; quiet=$t ;;
				*"wqtest-running: "*) cur=${line#*wqtest-running: } ;;
				esac
			done < <(sed -n "$((cseen + 1)),${n}p" "$dir/console.log")
			cseen=$n
		fi
		# polled every 2 s: 55 keeps the silence under a minute
		if [ $((t - quiet)) -ge 55 ]; then
			echo "  [$label ${t}s] still running${cur:+: $cur}" >&2
			quiet=$t
		fi
	done
}
