#!/bin/bash
# Host tests of wqstat, printed as TAP: the unit tests, then the command line
# against fixtures, malformed files and a fake tracefs.  The tool under test
# is built with ASan and UBSan; a sanitizer report fails the test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
O=${O:-$here/..}
W=$O/wqstat-asan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=exitcode=99:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=99
. "$(dirname "$0")/tap.sh"


# expect_fail CODE NEEDLE DESCRIPTION -- ARGS: exit CODE, one stderr line
# holding NEEDLE, nothing on stdout
expect_fail() {
	local code=$1 needle=$2 what=$3
	shift 4
	"$W" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	local lines
	lines=$(grep -c . "$tmp/err")
	if [ $rc -eq "$code" ] && [ "$lines" = 1 ] && grep -qF -- "$needle" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		t_ok "$what: exit $code, \"$(cat "$tmp/err")\""
	else
		t_fail "$what" "exit $rc (want $code)" "stderr: $(head -c 300 "$tmp/err")" "stdout bytes: $(wc -c < "$tmp/out")"
	fi
}

# fold NAME CMD...: run a TAP producer and take its results as ours,
# renumbered and prefixed with NAME; its comments stay with the failure
# before them, a skip stays a skip, and its plan must match its results
fold() {
	local name=$1 rc got=0 plan= l
	shift
	"$@" > "$tmp/$name.tap" 2> "$tmp/$name.err"
	rc=$?
	while IFS= read -r l; do
		case $l in
		"ok "*"# SKIP"*) got=$((got + 1)); n=$((n + 1)); echo "ok $n - $name: ${l#ok * - }" ;;
		"ok "*) got=$((got + 1)); t_ok "$name: ${l#ok * - }" ;;
		"not ok "*) got=$((got + 1)); t_fail "$name: ${l#not ok * - }" ;;
		"#"*) echo "$l" ;;
		1..*) plan=${l#1..} ;;
		esac
	done < "$tmp/$name.tap"
	[ $rc -eq 0 ] || t_fail "$name: exit status $rc" "$(tail -n 5 "$tmp/$name.err")"
	[ "$plan" = "$got" ] || t_fail "$name: the plan says ${plan:-nothing}, $got results" "$(tail -n 5 "$tmp/$name.err")"
}

# 1. unit tests
fold unit "$O/unit"

HDR="QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us WORKQUEUE FUNCTION"
cat > "$tmp/a.snap" <<EOT
# wqstat snapshot v1
# kernel: 6.1.192+
# time: 2026-12-03T08:00:00Z
# enabled: 0
# rows: 2 of 1024
# dropped: 0 events (table full)
$HDR
20 20 0 40000.000 2000.000 1900.000 2500.000 2400.000 100.000 300.000 290.000 0 0.000 0.000 wqtest wqt_sleep_fn [wqtest]
5 5 0 50.000 10.000 9.000 11.000 11.000 5.000 6.000 6.000 0 0.000 0.000 events vmstat_update
EOT
sed -e 's/^20 20 0 40000.000 2000.000/20 20 0 160000.000 8000.000/' \
    -e 's/^5 5 0 50.000/7 7 0 70.000/' "$tmp/a.snap" > "$tmp/b.snap"

# 2. well-formed input
"$W" show -i "$tmp/a.snap" > "$tmp/out" 2>&1 && grep -q 'wqt_sleep_fn \[wqtest\]' "$tmp/out" &&
	grep -q '2.000ms' "$tmp/out" && t_ok "show -i prints the rows with units" || t_fail "show -i" "$(cat "$tmp/out")"
"$W" show -i "$tmp/a.snap" -n 1 -s executed > "$tmp/out" 2>&1 && ! grep -q vmstat_update "$tmp/out" &&
	grep -q '1 more rows' "$tmp/out" && t_ok "-n 1 -s executed keeps the top row" || t_fail "-n/-s" "$(cat "$tmp/out")"
"$W" show -i "$tmp/a.snap" -w '^events$' > "$tmp/out" && grep -q vmstat_update "$tmp/out" && ! grep -q wqt_ "$tmp/out" &&
	t_ok "-w filters on the workqueue" || t_fail "-w" "$(cat "$tmp/out")"
"$W" show -i "$tmp/a.snap" -f 'sleep' > "$tmp/out" && ! grep -q vmstat_update "$tmp/out" && grep -q wqt_sleep "$tmp/out" &&
	t_ok "-f filters on the function" || t_fail "-f" "$(cat "$tmp/out")"
if "$W" show -i "$tmp/a.snap" --json > "$tmp/out.json" && python3 -c '
import json, sys
d = json.load(sys.stdin)
r = {x["function"]: x for x in d["rows"]}
assert d["version"] == 1 and len(d["rows"]) == 2
assert r["wqt_sleep_fn [wqtest]"]["avg_run_us"] == 2000.0
assert r["vmstat_update"]["executed"] == 5
assert d["summary"]["kernel"] == "6.1.192+"
' < "$tmp/out.json"; then t_ok "show --json is valid JSON with the right values (and wqstat exited 0)"; else t_fail "show --json"; fi
# the strict check of tests/prom/check.py; prom.sh tests the rest
if "$W" show -i "$tmp/a.snap" --prometheus > "$tmp/out.prom" &&
   python3 "$here/prom/check.py" lint "$tmp/out.prom" > "$tmp/out" 2>&1 &&
   grep -qxF 'wqstat_executed_total{workqueue="wqtest",function="wqt_sleep_fn [wqtest]",destroyed="false",unloaded="false"} 20' "$tmp/out.prom" &&
   grep -q '^wqstat_run_seconds_count{' "$tmp/out.prom"; then
	t_ok "show --prometheus is valid textfile format (and wqstat exited 0)"
else
	t_fail "show --prometheus" "$(head -n 5 "$tmp/out")"
fi
"$W" diff "$tmp/a.snap" "$tmp/b.snap" > "$tmp/out" 2>&1 && head -n 2 "$tmp/out" | tail -n 1 | grep -q 'wqt_sleep_fn' &&
	grep 'wqt_sleep_fn' "$tmp/out" | grep -q 'x4.00' && t_ok "diff puts the 4x regression first" || t_fail "diff text" "$(cat "$tmp/out")"
if "$W" diff --json "$tmp/a.snap" "$tmp/b.snap" > "$tmp/diff.json" && python3 -c '
import json, sys
d = json.load(sys.stdin)
top = d["rows"][0]
assert top["function"] == "wqt_sleep_fn [wqtest]", top
assert top["avg_run_ratio"] == 4.0 and top["b_avg_run_us"] == 8000.0
v = [x for x in d["rows"] if x["function"] == "vmstat_update"][0]
assert v["d_executed"] == 2 and v["d_queued"] == 2
' < "$tmp/diff.json"; then t_ok "diff --json: ratio 4, deltas +2 (and wqstat exited 0)"; else t_fail "diff --json"; fi

# 3. malformed input: one line naming file and line, exit 2, no stdout
printf '' > "$tmp/empty"
expect_fail 2 "$tmp/empty: empty" "an empty snapshot" -- diff "$tmp/empty" "$tmp/a.snap"
expect_fail 2 "$tmp/nonexistent: cannot open" "a missing snapshot" -- diff "$tmp/a.snap" "$tmp/nonexistent"
head -c 300 "$tmp/a.snap" > "$tmp/trunc"
expect_fail 2 "$tmp/trunc:" "a truncated snapshot" -- show -i "$tmp/trunc"
sed '8s/ 0 0.000 0.000 wqtest.*//' "$tmp/a.snap" > "$tmp/short"
expect_fail 2 "$tmp/short:8:" "a row cut short" -- show -i "$tmp/short"
sed '8s/^20 /999999999999999999999 /' "$tmp/a.snap" > "$tmp/huge"
expect_fail 2 "$tmp/huge:8: column QUEUED" "a huge number" -- show -i "$tmp/huge"
sed '8s/^20 20 0 40000.000/20 20 0 %s%n%x/' "$tmp/a.snap" > "$tmp/fmt"
expect_fail 2 "$tmp/fmt:8: column TOTAL_RUN_us" "format characters" -- show -i "$tmp/fmt"
sed '1s/v1/v2/' "$tmp/a.snap" > "$tmp/v2"
expect_fail 2 "is not v1" "a snapshot of another version" -- diff "$tmp/v2" "$tmp/a.snap"
# Mutated snapshots: each is either a table (exit 0, strict JSON on stdout,
# nothing on stderr) or refused (exit 2, one line naming the file, nothing
# on stdout); a sanitizer report (exit 99) or anything else fails.  Some
# mutations have one right answer, checked by name.
mkdir -p "$tmp/mut"
python3 - "$tmp/a.snap" "$tmp/mut" <<'PY'
import random, sys
src = open(sys.argv[1], "rb").read()
out = sys.argv[2]
lines = src.split(b"\n")
row = 7                                  # the first row's line index
r = random.Random(20261204)
def put(name, data):
    open("%s/%s" % (out, name), "wb").write(data)
def with_row(fields_fn, idx=row):
    l = list(lines)
    f = l[idx].split(b" ")
    fields_fn(f)
    l[idx] = b" ".join(f)
    return b"\n".join(l)
def setf(i, v):
    return lambda f: f.__setitem__(i, v)
# one right answer each: "ok" or "refused:NEEDLE"
put("ok-negative-late", with_row(setf(11, b"0")))
put("refused-negative-queued", with_row(setf(0, b"-20")))
put("refused-nan-avg", with_row(setf(4, b"nan")))
put("refused-inf-total", with_row(setf(3, b"inf")))
put("refused-huge-executed", with_row(setf(1, b"18446744073709551616")))
put("refused-exp-lat", with_row(setf(8, b"1e3")))
put("ok-crlf", src.replace(b"\n", b"\r\n"))
put("refused-cr-inside", with_row(setf(14, b"wq\rx")))
put("refused-long-name", with_row(setf(14, b"w" * 40000)))
put("ok-long-name", with_row(setf(14, b"w" * 3000)))
put("ok-invalid-utf8", with_row(setf(14, b"wq\xff\xc3(\xe2\x82")))
put("ok-repeated-rows", b"\n".join(lines[:row + 1] + [lines[row]] * 50 + lines[row + 1:]))
put("ok-max-u64", with_row(setf(1, b"18446744073709551615")))
# many of each kind, any answer but a crash
for i in range(0, len(src), 7):
    put("any-trunc-%d" % i, src[:i])
for i in range(120):
    b = bytearray(src); p = r.randrange(len(b)); b[p] ^= 1 << r.randrange(8)
    put("any-flip-%d" % i, bytes(b))
for i in range(40):
    b = bytearray(src); p = r.randrange(len(b))
    b[p:p] = r.choice([b"9" * r.randrange(1, 30), b"-", b".", b" ", b"\t", b"\xff", b"#", b"\n"])
    put("any-insert-%d" % i, bytes(b))
for i in range(20):
    ls = list(lines); j = r.randrange(len(ls)); k = r.randrange(len(ls))
    ls.insert(k, ls[j])
    put("any-dupline-%d" % i, b"\n".join(ls))
PY
mut_bad=0 mut_n=0 mut_parsed=0 mut_cols=0
for f in "$tmp"/mut/*; do
	name=$(basename "$f")
	mut_n=$((mut_n + 1))
	"$W" show -i "$f" --json > "$tmp/out" 2> "$tmp/err"
	rc=$?
	why=
	if [ $rc -eq 0 ]; then
		mut_parsed=$((mut_parsed + 1))
		[ ! -s "$tmp/err" ] || why="exit 0 with stderr: $(head -c 200 "$tmp/err")"
		python3 -c '
import json, sys
def bad(c): raise ValueError("not JSON: " + c)
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), parse_constant=bad)
' "$tmp/out" 2> "$tmp/pyerr" || why="exit 0 but not strict JSON: $(tail -n 1 "$tmp/pyerr")"
		case $name in refused-*) why="${why:-accepted, but it must be refused}" ;; esac
	elif [ $rc -eq 2 ]; then
		grep -q 'column' "$tmp/err" && mut_cols=$((mut_cols + 1))
		if [ -s "$tmp/out" ] || [ "$(grep -c . "$tmp/err")" != 1 ] || ! grep -qF "$f" "$tmp/err"; then
			why="refused, but not with one line naming the file and an empty stdout: $(head -c 200 "$tmp/err")"
		fi
		case $name in ok-*) why="refused, but it is a table: $(cat "$tmp/err")" ;; esac
	else
		why="exit $rc: $(head -c 300 "$tmp/err")"
	fi
	if [ -n "$why" ]; then
		mut_bad=$((mut_bad + 1))
		echo "# $name: $why"
	fi
done
# the invalid UTF-8 name comes out as U+FFFD, the long one whole
"$W" show -i "$tmp/mut/ok-invalid-utf8" --json > "$tmp/out.json" && python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [r["workqueue"] for r in d["rows"]].count("wq\ufffd\ufffd(\ufffd\ufffd") == 1, d' < "$tmp/out.json" &&
	t_ok "a name with bytes that are not UTF-8: each becomes U+FFFD in JSON (and wqstat exited 0)" || t_fail "invalid UTF-8 in JSON"
[ $mut_bad -eq 0 ] && [ $mut_cols -gt 0 ] && [ $mut_parsed -gt 0 ] &&
	t_ok "$mut_n mutated snapshots: $mut_parsed tables, the others refused with one line ($mut_cols by a column's number parser)" ||
	t_fail "mutated snapshots: $mut_bad of $mut_n misbehaved ($mut_parsed parsed, $mut_cols refused by column)"

# libFuzzer over the parser, printers and diff, for a fixed time; its
# corpus is in the repository, what it finds new goes to a scratch dir
if [ -x "$O/fuzz" ]; then
	mkdir -p "$tmp/fuzz-new"
	(cd "$tmp" && "$O/fuzz" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=1024 \
		-dict="$here/fuzz.dict" "$tmp/fuzz-new" "$here/corpus") > "$tmp/fuzz.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$tmp/fuzz.log")
	[ $rc -eq 0 ] && [ -n "$runs" ] && t_ok "libFuzzer: $runs runs in ${FUZZ_SECONDS:-30} s, no crash, leak or UB" ||
		t_fail "libFuzzer exited $rc" "$(grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$tmp/fuzz.log")" \
			"reproduce: $O/fuzz $(ls "$tmp"/crash-* 2> /dev/null | head -n 1)"
	cp "$tmp"/crash-* "$O/" 2> /dev/null
else
	t_fail "libFuzzer: $O/fuzz was not built"
fi

# 4. usage errors: exit 2, like every error (1 is diff's verdict)
expect_fail 2 "unknown command 'frobnicate'" "an unknown subcommand" -- frobnicate
expect_fail 2 "unknown option" "an unknown option" -- show --frob
expect_fail 2 "unknown sort key 'speed'" "a bad sort key" -- show -s speed
expect_fail 2 "-n takes a count" "a bad -n" -- show -n -3
expect_fail 2 "needs two snapshot files" "diff with one file" -- diff "$tmp/a.snap"
expect_fail 2 "-o FILE is required" "snapshot without -o" -- snapshot
expect_fail 2 "no command" "run without a command" -- run
expect_fail 2 "-w '(': " "a bad regex" -- show -i "$tmp/a.snap" -w '('
expect_fail 2 "unknown column 'p98_lat'" "--fail-above with an unknown column" -- diff "$tmp/a.snap" "$tmp/b.snap" --fail-above p98_lat=2
expect_fail 2 "'0' is not a positive ratio" "--fail-above with a ratio of 0" -- diff "$tmp/a.snap" "$tmp/b.snap" --fail-above p99_lat=0
expect_fail 2 "'nan' is not a positive ratio" "--fail-above with a NaN ratio" -- diff "$tmp/a.snap" "$tmp/b.snap" --fail-above p99_lat=nan
expect_fail 2 "-x takes one character" "-x with two characters" -- show -i "$tmp/a.snap" -x ';;'
expect_fail 2 "exclude each other" "--json with -x" -- show -i "$tmp/a.snap" --json -x ,
expect_fail 2 "option '--prometheus' does not apply" "diff --prometheus" -- diff "$tmp/a.snap" "$tmp/b.snap" --prometheus
"$W" --help > "$tmp/out" 2>&1
missing=
for o in --top --sort --workqueue --function --input --output --save --json --prometheus \
	--field-separator --fail-above --min-executed --version --help show enable disable reset run snapshot diff top; do
	grep -q -- "$o" "$tmp/out" || missing="$missing $o"
done
[ -z "$missing" ] && t_ok "--help documents every option and command" || t_fail "--help lacks:$missing"
v=$("$W" --version) && [ "$v" = "wqstat $(sed -n 's/^VERSION := //p' "$here/../Makefile")" ] &&
	t_ok "--version: $v (the Makefile's VERSION)" || t_fail "--version" "$v"

# values no output may carry: refused with the line that holds them
for line in '# since reset: nan s' '# since reset: inf s' '# since reset: -1.000 s' '# dropped: -5 events (table full)' \
	'# unmatched: 1e3 executions without an enqueue'; do
	{ echo "$line"; sed -n '4,$p' "$tmp/a.snap"; } > "$tmp/bad.snap"
	expect_fail 2 "$tmp/bad.snap:1: " "a summary line '$line'" -- show -i "$tmp/bad.snap" --json
done

# bucket columns that are not the kernel's: refused, naming the column
HH="QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us TOTAL_LAT_us RUN_BUCKETS LAT_BUCKETS WQ_ID WORKQUEUE FUNCTION"
for b in '2048:3,1024:1 -' '1024:0 -' 'inf:1,2048:1 -' '1024:1, -' '1024 -' '- 1024:x' '-1024:1 -' '1024:1,1024:1 -'; do
	printf '%s\n3 3 0 3.000 1.000 1.000 1.000 1.000 0.000 0.000 0.000 0 0.000 0.000 0.000 %s 1b0809e7 wq fn\n' "$HH" "$b" > "$tmp/bad.snap"
	expect_fail 2 "$tmp/bad.snap:2: column " "buckets '$b'" -- show -i "$tmp/bad.snap"
done

# CSV: as perf stat -x, read back by python's csv module
sed 's/wqt_sleep_fn \[wqtest\]/wqt_sleep_fn,"x" [wqtest]/' "$tmp/a.snap" > "$tmp/csv.snap"
if "$W" show -i "$tmp/csv.snap" -x , > "$tmp/out.csv" && python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]
assert h[:3] == ["queued", "executed", "cancelled"] and h[-2:] == ["workqueue", "function"], h
assert len(rows) == 3 and all(len(r) == len(h) for r in rows), rows
r = {x[h.index("function")]: dict(zip(h, x)) for x in rows[1:]}
s = r["wqt_sleep_fn,\"x\" [wqtest]"]
assert s["executed"] == "20" and s["avg_run_us"] == "2000.000" and s["workqueue"] == "wqtest", s
' "$tmp/out.csv"; then t_ok "show -x ,: a header and 2 rows, a function with a comma and quotes read back whole"
else t_fail "show -x ," "$(cat "$tmp/out.csv")"; fi

# diff: options after the operands, -w, -s, and the --fail-above gate
"$W" diff "$tmp/a.snap" "$tmp/b.snap" --json -w '^events$' > "$tmp/out.json" && python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [r["function"] for r in d["rows"]] == ["vmstat_update"], d' < "$tmp/out.json" &&
	t_ok "diff A B --json -w RE: options after the operands; only the events row" || t_fail "diff options after operands" "$(cat "$tmp/out.json")"
"$W" diff -s executed "$tmp/a.snap" "$tmp/b.snap" > "$tmp/out" && sed -n 2p "$tmp/out" | grep -q vmstat_update &&
	t_ok "diff -s executed: the row whose executions grew (5 -> 7) first" || t_fail "diff -s" "$(cat "$tmp/out")"
gate() { # gate WANT_RC WHAT ARGS...: exit status and, for 1, the rows named on stderr
	local want=$1 what=$2
	shift 2
	"$W" diff "$tmp/a.snap" "$tmp/b.snap" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [ $rc -eq "$want" ] && [ -s "$tmp/out" ] && { [ "$want" = 1 ] || [ ! -s "$tmp/err" ]; }; then
		t_ok "diff $*: exit $rc ($what)$([ "$want" = 0 ] || echo "; $(tail -n 1 "$tmp/err")")"
	else
		t_fail "diff $*: exit $rc, want $want ($what)" "$(cat "$tmp/err")"
	fi
}
gate 1 "avg run 2 ms -> 8 ms is x4" --fail-above avg_run=1.5
grep -q '^wqstat: diff: avg_run 2.000ms -> 8.000ms is x4.00, above x1.5: wqtest wqt_sleep_fn \[wqtest\]$' "$tmp/err" &&
	[ "$(grep -c 'above x' "$tmp/err")" = 1 ] && t_ok "the gate names the one row beyond it, with both values" || t_fail "gate's message" "$(cat "$tmp/err")"
gate 0 "x4 is not above x4.5" --fail-above avg_run=4.5
gate 1 "total run 40 ms -> 160 ms; the second gate trips" --fail-above avg_run=5 --fail-above total_run=3
gate 0 "20 executions < --min-executed 21" --fail-above avg_run=1.5 --min-executed 21
gate 1 "20 executions >= --min-executed 20" --fail-above avg_run=1.5 --min-executed 20
"$W" diff "$tmp/a.snap" "$tmp/a.snap" --fail-above avg_run=1.01 > /dev/null 2>&1 && t_ok "a snapshot against itself passes the gate" || t_fail "self gate"

# diff of two 100,000-row snapshots: a sort-merge, not all pairs
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
hdr = "QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us WQ_ID WORKQUEUE FUNCTION"
for name, k in (("big-a", 1), ("big-b", 2)):
    with open("%s/%s.snap" % (d, name), "w") as f:
        f.write("# wqstat snapshot v1\n%s\n" % hdr)
        # B lists the rows in the other order, and every 1000th row has an
        # instance of another boot (another id) to pair
        rng = range(100000) if k == 1 else range(99999, -1, -1)
        for i in rng:
            wid = "%08x" % (i if k == 1 or i % 1000 else i + 0x10000000)
            f.write("10 10 0 %d.000 %d.000 1.000 9.000 9.000 5.000 9.000 9.000 0 0.000 0.000 %s wq%d fn_%d\n"
                    % (10 * k, k, wid, i % 997, i))
PY
# cpu_ms OUT CMD...: run CMD, its output in OUT; $rc is its exit status
# and $ms the CPU time it used (user and system) in ms.  The bounds below
# are on CPU time: a busy host stretched the wall time of the same diff to
# 24.7 s (ASan) and 8.7 s (-O2) beside two loaded make checks
cpu_ms() {
	local out=$1 t TIMEFORMAT='%3U %3S'
	shift
	t=$( { time "$@" > "$out" 2> "$tmp/cpu.err"; } 2>&1 )
	rc=$?
	ms=$(awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%d", (a[1] + a[2]) * 1000 }')
}
cpu_ms "$tmp/out.json" "$W" diff "$tmp/big-a.snap" "$tmp/big-b.snap" --json
python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["rows"]) == 100000, len(d["rows"])
assert all(r["in"] == "both" and r["avg_run_ratio"] == 2.0 for r in d["rows"])' < "$tmp/out.json" && [ $rc -eq 0 ] && [ $ms -lt 20000 ] &&
	t_ok "diff of two 100,000-row snapshots (ASan build): $ms ms of CPU, all 100,000 rows paired, 100 of them across instance ids" ||
	t_fail "100k-row diff: exit $rc in $ms ms of CPU"
if [ -x "$O/wqstat" ]; then
	cpu_ms /dev/null "$O/wqstat" diff "$tmp/big-a.snap" "$tmp/big-b.snap"
	[ $rc -eq 0 ] && [ $ms -lt 5000 ] && t_ok "the same diff with the -O2 build: $ms ms of CPU" ||
		t_fail "100k-row diff with the -O2 build: exit $rc in $ms ms of CPU"
fi

# 5. against a fake tracefs: the control files and run
fake=$tmp/tracefs
mkdir -p "$fake/trace_stat"
: > "$fake/workqueue_stat_enabled"; : > "$fake/workqueue_stat_reset"
sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
export WQSTAT_TRACEFS=$fake
"$W" enable && [ "$(cat "$fake/workqueue_stat_enabled")" = 1 ] && "$W" disable &&
	[ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && "$W" reset && [ "$(cat "$fake/workqueue_stat_reset")" = 1 ] &&
	t_ok "enable, disable and reset write their control files" || t_fail "enable/disable/reset"
: > "$fake/workqueue_stat_reset"
# the workload: 7 more runs of wqt_sleep_fn, 14 ms more, as the kernel would count them
cat > "$tmp/work.sh" <<'EOT'
#!/bin/sh
tbl=$WQSTAT_TRACEFS/trace_stat/workqueues
echo "enabled while CMD runs: $(cat "$WQSTAT_TRACEFS/workqueue_stat_enabled")" > "$WQSTAT_TRACEFS/seen"
sed 's/^20 20 0 40000.000 2000.000 1900.000 2500.000 2400.000 100.000 300.000 290.000/27 27 0 54000.000 2000.000 1900.000 2600.000 2500.000 100.000 300.000 290.000/' "$tbl" > "$tbl.new" && mv "$tbl.new" "$tbl"
echo "CMD's own output"
exit "${1:-0}"
EOT
chmod +x "$tmp/work.sh"
echo 0 > "$fake/workqueue_stat_enabled"
"$W" run -- "$tmp/work.sh" 3 > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 3 ] && [ "$(cat "$tmp/out")" = "CMD's own output" ] && [ "$(cat "$fake/seen")" = "enabled while CMD runs: 1" ] &&
	[ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && [ ! -s "$fake/workqueue_stat_reset" ] &&
	grep -Eq '^ +7 +7 +0 +14.000ms +2.000ms +- +2.600ms .* wqt_sleep_fn \[wqtest\]$' "$tmp/err" &&
	! grep -q vmstat_update "$tmp/err"; then
	t_ok "run, tracer off: on while CMD runs, off after, never reset; stdout is CMD's alone; the report (stderr) has the 7 runs and 14 ms of the interval; exit 3"
else
	t_fail "run, tracer off" "exit $rc" "stdout: $(cat "$tmp/out")" "stderr: $(cat "$tmp/err")" "enabled: $(cat "$fake/workqueue_stat_enabled")"
fi
sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
echo 1 > "$fake/workqueue_stat_enabled"
"$W" run -o "$tmp/r.json" --json --save "$tmp/run.snap" -- "$tmp/work.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(cat "$fake/workqueue_stat_enabled")" = 1 ] && python3 -c '
import json, sys
def bad(c): raise ValueError(c)
d = json.loads(open(sys.argv[1]).read(), parse_constant=bad)
(r,) = d["rows"]
assert r["executed"] == 7 and r["total_run_us"] == 14000.0 and r["min_run_us"] is None and r["max_run_us"] == 2600.0, r
assert d["summary"]["interval_s"] is None or d["summary"]["interval_s"] >= 0, d["summary"]
' "$tmp/r.json" && head -n 1 "$tmp/run.snap" | grep -qx '# wqstat snapshot v1' &&
	"$W" show -i "$tmp/run.snap" --json | python3 -c '
import json, sys
(r,) = json.load(sys.stdin)["rows"]
assert r["executed"] == 7 and r["min_run_us"] is None, r'; then
	t_ok "run -o FILE --json --save SNAP, tracer on: left on; stdout and stderr clean; the JSON report and the saved snapshot hold the interval (7 runs, MIN unknown: null)"
else
	t_fail "run -o --json --save, tracer on" "exit $rc" "$(cat "$tmp/err")" "$(cat "$tmp/r.json" 2>&1)"
fi
"$W" run -o "$tmp/nodir/r.txt" -- touch "$tmp/ran" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/ran" ] && grep -q "run: -o $tmp/nodir/r.txt: cannot create" "$tmp/err" &&
	t_ok "run -o into a missing directory: exit 2 before CMD starts (it never ran)" || t_fail "run -o checked first" "exit $rc" "$(cat "$tmp/err")"
# a wqstat failure after CMD: CMD's failure stands, or 2 if CMD succeeded; the tracer is off again
for want in 0 5; do
	echo 0 > "$fake/workqueue_stat_enabled"
	sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
	"$W" run -- sh -c 'echo garbage > "$WQSTAT_TRACEFS/trace_stat/workqueues"; exit '$want > /dev/null 2> "$tmp/err"
	rc=$?
	exp=$([ $want = 0 ] && echo 2 || echo $want)
	[ $rc -eq "$exp" ] && [ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && grep -q 'not a workqueue stat header' "$tmp/err" &&
		t_ok "run, the table unreadable after CMD exited $want: exit $rc, tracer off again, \"$(cat "$tmp/err")\"" ||
		t_fail "run, unreadable table after CMD exited $want" "exit $rc (want $exp)" "$(cat "$tmp/err")"
done
sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
# signals to wqstat: passed on to CMD, the tracer restored, CMD's fate as
# status.  Each disposition the test relies on is set here, not inherited:
# under nohup HUP comes in ignored, and the shell ignores INT and QUIT for
# a job in the background
for sig in TERM HUP INT; do
	echo 0 > "$fake/workqueue_stat_enabled"
	rm -f "$tmp/child"
	env --default-signal=TERM,HUP,INT,QUIT "$W" run -- sh -c 'echo $$ > "$1"; exec sleep 30' sh "$tmp/child" > /dev/null 2> "$tmp/err" &
	wpid=$!
	for _ in $(seq 50); do [ -s "$tmp/child" ] && break; sleep 0.1; done
	on=$(cat "$fake/workqueue_stat_enabled")
	kill -s "$sig" $wpid
	wait $wpid
	rc=$?
	child=$(cat "$tmp/child")
	want=$((128 + $(kill -l "$sig")))
	if [ $rc -eq $want ] && [ "$on" = 1 ] && [ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && ! kill -0 "$child" 2> /dev/null; then
		t_ok "SIG$sig to wqstat run: tracer 0 -> 1 while CMD ran -> 0; CMD (pid $child) killed by it; exit $rc; report on stderr: $(grep -c . "$tmp/err") lines"
	else
		t_fail "SIG$sig to wqstat run" "exit $rc (want $want); on while running: $on; after: $(cat "$fake/workqueue_stat_enabled")" \
			"child $child alive: $(kill -0 "$child" 2>&1 && echo yes)" "$(cat "$tmp/err")"
		kill "$child" 2> /dev/null
	fi
done
# a signal ignored on entry (HUP under nohup) stays ignored, by wqstat and
# by CMD: CMD runs to its end, and its status and the report stand
echo 0 > "$fake/workqueue_stat_enabled"
rm -f "$tmp/child"
env --ignore-signal=HUP "$W" run -- sh -c 'echo $$ > "$1"; sleep 2; exit 3' sh "$tmp/child" > /dev/null 2> "$tmp/err" &
wpid=$!
for _ in $(seq 50); do [ -s "$tmp/child" ] && break; sleep 0.1; done
kill -s HUP $wpid
kill -s HUP "$(cat "$tmp/child")"
wait $wpid
rc=$?
if [ $rc -eq 3 ] && [ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && grep -q '^tracer ' "$tmp/err"; then
	t_ok "SIGHUP ignored on entry (nohup): wqstat run and CMD keep it ignored; CMD's exit 3 stands, the report printed, the tracer off again"
else
	t_fail "SIGHUP ignored on entry" "exit $rc (want 3); enabled after: $(cat "$fake/workqueue_stat_enabled")" "$(cat "$tmp/err")"
fi
# fork() fails after the tracer was turned on (one process allowed, as
# nobody): the error, exit 2, and the tracer off again.  The -O2 build:
# LeakSanitizer forks at exit, which one process allowed forbids
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && [ -x "$O/wqstat" ]; then
	echo 0 > "$fake/workqueue_stat_enabled"
	chown -R 65534 "$fake"; chmod 0755 "$tmp"
	cp "$O/wqstat" "$tmp/wqstat-fork"; chmod 0755 "$tmp/wqstat-fork"
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'ulimit -u 1 && exec "$0" run -- touch "$1"' \
		"$tmp/wqstat-fork" "$tmp/forked" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q '^wqstat: run: fork failed: Resource temporarily unavailable$' "$tmp/err" &&
		[ "$(cat "$fake/workqueue_stat_enabled")" = 0 ] && [ ! -e "$tmp/forked" ] &&
		t_ok "run, fork() failing once the tracer is on: exit 2, \"$(cat "$tmp/err")\", the tracer off again" ||
		t_fail "run, fork() failing" "exit $rc" "$(cat "$tmp/err")" "enabled: $(cat "$fake/workqueue_stat_enabled")"
	chown -R 0 "$fake"
else
	t_skip "run, fork() failing" "needs root and setpriv to run as nobody with one process"
fi
"$W" run -- /nonexistent/cmd > "$tmp/out" 2> "$tmp/err"
[ $? -eq 127 ] && grep -q "cannot run '/nonexistent/cmd'" "$tmp/err" && t_ok "run: a command that cannot start exits 127" || t_fail "run 127"
"$W" snapshot -o "$tmp/s1" && "$W" diff "$tmp/s1" "$tmp/s1" > /dev/null && t_ok "snapshot of the live table diffs against itself" || t_fail "snapshot"
printf 'garbage\n' > "$fake/trace_stat/workqueues"
expect_fail 2 "$fake/trace_stat/workqueues:1: not a workqueue stat header" "a garbled live table" -- show
sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
expect_fail 2 "$tmp/nosnap/x: cannot create" "snapshot into a missing directory" -- snapshot -o "$tmp/nosnap/x"
export WQSTAT_TRACEFS=$tmp/notracer
mkdir -p "$WQSTAT_TRACEFS"
expect_fail 2 "this kernel has no workqueue stat tracer" "a kernel without the tracer" -- show
expect_fail 2 "this kernel has no workqueue stat tracer" "enable without the tracer" -- enable
# no permission: a file only root may read, read as nobody
export WQSTAT_TRACEFS=$fake
sed -n '4,$p' "$tmp/a.snap" > "$fake/trace_stat/workqueues"
chmod 0600 "$fake/trace_stat/workqueues"; chmod 0755 "$tmp" "$fake" "$fake/trace_stat"
cp "$W" "$tmp/wqstat-nobody"; chmod 0755 "$tmp/wqstat-nobody"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/wqstat-nobody" show > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q 'permission denied' "$tmp/err" && [ ! -s "$tmp/out" ] &&
		t_ok "no permission: exit 2, \"$(cat "$tmp/err")\"" || t_fail "no permission" "exit $rc" "$(cat "$tmp/err")"
	# tracefs not mounted: a private mount namespace without it, as nobody
	unset WQSTAT_TRACEFS
	if unshare --mount --propagation private true 2> /dev/null; then
		unshare --mount --propagation private sh -c '
			for m in $(awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" {print \$2}" /proc/mounts | sort -r); do
				umount -l "$m" || exit 9
			done
			exec setpriv --reuid=65534 --regid=65534 --clear-groups "$1" show' sh "$tmp/wqstat-nobody" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 2 ] && grep -q 'tracefs is not mounted' "$tmp/err" &&
			t_ok "tracefs not mounted: exit 2, \"$(cat "$tmp/err")\"" || t_fail "tracefs not mounted" "exit $rc" "$(cat "$tmp/err")"
	else
		n=$((n + 1)); echo "ok $n - tracefs not mounted # SKIP cannot make a private mount namespace here"
	fi
else
	n=$((n + 1)); echo "ok $n - no permission # SKIP needs root and setpriv to drop to nobody"
	n=$((n + 1)); echo "ok $n - tracefs not mounted # SKIP needs root"
fi

# 6. top in a terminal (tmux), and the Prometheus output read by promtool,
# node_exporter and a Prometheus server
unset WQSTAT_TRACEFS
fold top "$here/top.sh" "$W"
fold man "$here/man.sh" "$W"
fold prometheus "$here/prom.sh" "$O/wqstat"

echo "1..$n"
[ $bad -eq 0 ]
