# TAP helpers of the host test scripts, sourced by each: they count in
# $n and $bad, which the script ends with "1..$n" and [ $bad -eq 0 ].
n=0 bad=0
# t_ok WHAT: a test that passed
t_ok() { n=$((n + 1)); echo "ok $n - $1"; }
# t_fail WHAT [DETAIL...]: a failed test; every line of the details is a
# TAP comment (a raw "1..N" in them would read as a second plan)
t_fail() {
	n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $1"
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/# /'
}
# t_skip WHAT WHY: a test whose requirement is missing: a skip, not a pass
t_skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
