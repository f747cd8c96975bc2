#!/bin/bash
# Control files refuse every write but "0"/"1" (and "1" alone for reset)
# with EINVAL, and the state stays as it was.  wqwrite issues exactly one
# write(2) of the given bytes, so empty and offset writes are real.
# requires: workqueue_stat_enabled workqueue_stat_reset
. /usr/lib/wqtest/tests/lib.sh
wqt_load
refused=0
# try_bad FILE DESCRIPTION [wqwrite options] BYTES
try_bad() {
	local f=$1 what=$2 before after rows_before out
	shift 2
	before=$(cat "$T/workqueue_stat_enabled")
	rows_before=$(stat_rows)
	out=$(wqwrite "$@" 2>&1 | tail -n 1)
	case $out in
	"error EINVAL"|"error E2BIG") ;;
	*) fail "$f: $what: wanted EINVAL, got '$out'" ;;
	esac
	after=$(cat "$T/workqueue_stat_enabled")
	[ "$before" = "$after" ] || fail "$f: $what changed the state from $before to $after"
	# while on, other work of the system adds rows; while off, nothing may
	[ "$before" = 1 ] || [ "$rows_before" = "$(stat_rows)" ] || fail "$f: $what changed the table"
	refused=$((refused + 1))
}
stat_reset_on
wqt_run burst 3
stat_off
expect_ge "rows before the bad writes" "$(stat_rows)" 1
for state in 0 1; do
	echo $state > "$T/workqueue_stat_enabled"
	for f in workqueue_stat_enabled workqueue_stat_reset; do
		p=$T/$f
		try_bad $f "empty" "$p" ''
		try_bad $f "2" "$p" '2'
		try_bad $f "abc" "$p" 'abc'
		try_bad $f "-1" "$p" '-1'
		try_bad $f "1 1" "$p" '1 1'
		try_bad $f "11" "$p" '11'
		try_bad $f "a huge number" "$p" '99999999999999999999999'
		try_bad $f "binary bytes" "$p" '\x01\xff\x00'
		try_bad $f "1 then a NUL" "$p" '1\x00'
		try_bad $f "a 1 MiB write" -n 1048576 "$p" '1'
		try_bad $f "a write at offset 1" -o 1 "$p" '1'
	done
	try_bad workqueue_stat_reset "0" "$T/workqueue_stat_reset" '0'
done
stat_off
expect_eq "good write: 1" "$(wqwrite "$T/workqueue_stat_enabled" '1')" "ok 1"
expect_eq "state" "$(cat "$T/workqueue_stat_enabled")" 1
expect_eq "good write: 0 and a newline" "$(wqwrite "$T/workqueue_stat_enabled" '0\x0a')" "ok 2"
expect_eq "state" "$(cat "$T/workqueue_stat_enabled")" 0
echo "bad writes refused: $refused"
