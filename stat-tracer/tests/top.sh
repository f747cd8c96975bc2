#!/bin/bash
# Tests of wqstat top, printed as TAP: batch and JSON output, and the full
# screen in tmux, against a fake tracefs whose table a background writer
# keeps moving at known rates.  Usage: tests/top.sh WQSTAT
#
# The writer stamps each table with "# since reset:" and derives every
# count from that same stamp (EXECUTED = rate x stamp, whole milliseconds),
# as the kernel's table does; top measures its intervals by those stamps,
# so a rate of 1000/s comes out as exactly 1000.0, and any rate r within
# one execution per interval (+-1/0.5 s = +-2/s at -I 500) of r.  A run
# without the stamp falls back on top's own clock: each read then sees a
# table up to one write period (50 ms) plus scheduling old, an error of up
# to (50 + 50) ms / 500 ms = 20%, checked as 25%.
set -u
W=${1:?usage: top.sh WQSTAT}
case $W in /*) ;; *) W=$PWD/$W ;; esac
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
fake=$tmp/tracefs
writer_pid=
. "$(dirname "$0")/tap.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=99}

# Nothing outlives the script: the writer, the tmux server and its panes.
cleanup() {
	if [ -n "$writer_pid" ]; then
		kill "$writer_pid" 2> /dev/null
		wait "$writer_pid" 2> /dev/null
	fi
	tmux -S "$sock" kill-server 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM


# The fake table: four rows at known rates, an idle row and a row with only
# a cancel, neither of which moves; counting stops while
# workqueue_stat_enabled is 0.  Written whole to a temporary name and
# renamed into place, every 50 ms.
cat > "$tmp/writer.py" <<'EOF'
import os, sys, time
d, stamp = sys.argv[1], sys.argv[2] == "stamp"
# every "since reset" stamp written, in ms, one a line: what top may have
# read (a busy host delays the writer, so they are not 50 ms apart)
log = open(sys.argv[3], "w", buffering=1)
# executions/s, run us, latency us, WQ_ID, workqueue, function
rows = [
    (1000, 2000, 50, "1b0809e7", "wqtest", "wqt_sleep_fn [wqtest]"),
    (10, 20000, 1000, "8f51643b", "events", "vmstat_update"),
    (300, 500, 10, "aaaaaaaa", "wqtest", "wqt_spin_fn [wqtest]"),
    (100, 500, 10, "bbbbbbbb", "wqtest", "wqt_spin_fn [wqtest]"),
]
hdr = ("QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us "
       "P99_RUN_us AVG_LAT_us MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us "
       "WQ_ID WORKQUEUE FUNCTION")
path = d + "/trace_stat/workqueues"
t0 = time.monotonic()
last = counted = 0
while True:
    ms = int((time.monotonic() - t0) * 1000)
    try:
        on = open(d + "/workqueue_stat_enabled").read().strip() != "0"
    except OSError:
        on = True
    if on:
        counted += ms - last
    last = ms
    out = ["# enabled: %d" % on, "# rows: 6 of 1024", "# dropped: 0 events (table full)",
           "# lost pairs: 0 (pairing tables full)",
           "# unmatched: 0 executions without an enqueue"]
    if stamp:
        out.append("# since reset: %d.%03d s" % (ms // 1000, ms % 1000))
        log.write("%d\n" % ms)
    out += ["# resets: 0", hdr]
    for rate, run, lat, wid, wq, fn in rows:
        k = rate * counted // 1000
        a, l = (run, lat) if k else (0, 0)
        out.append("%d %d 0 %d.000 %d.000 %d.000 %d.000 %d.000 %d.000 %d.000 %d.000 0 0.000 0.000 %s %s %s"
                   % (k, k, k * run, a, a, a, a, l, 3 * l, 2 * l, wid, wq, fn))
    out.append("7 7 0 140.000 20.000 20.000 20.000 20.000 5.000 5.000 5.000 0 0.000 0.000 db7cd3e0 events_unbound idle_fn")
    out.append("1 0 1 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0 0.000 0.000 1b0809e7 wqtest wqt_cancel_fn [wqtest]")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)
    time.sleep(0.05)
EOF

# Check tables of top, batch or a screen capture, against the writer's rates.
# check.py MODE FILE TABLES SORT REL ORDER [STAMPS]: MODE batch or screen;
# TABLES how many; SORT the key in the header; REL the relative tolerance of
# the rates (besides one execution per interval); ORDER the first rows, by
# short name; STAMPS the writer's log of its "since reset" stamps.  With
# STAMPS the intervals must be the tracer's: differences of stamps it wrote,
# each table's starting where the one before ended (a busy host delays the
# writer, so they are not 0.5 s); without (no stamps: top's own clock),
# on its schedule (their sum 0.5 s a table or more: a busy host makes one
# late and the next short).  TOP_START_MS: see below.
cat > "$tmp/check.py" <<'EOF'
import os, re, sys
mode, path, ntab, sort, rel, order = sys.argv[1:7]
stamps = set(int(x) for x in open(sys.argv[7]).read().split()) if len(sys.argv) > 7 else None
ivs = []
ntab, rel, order = int(ntab), float(rel), order.split(",")
# (workqueue as shown, function) -> short name, executions/s, run s, AVG_RUN, AVG_LAT
EXP = {
    ("wqtest", "wqt_sleep_fn [wqtest]"): ("sleep", 1000, 0.002, "2.000ms", "50.000us"),
    ("events", "vmstat_update"): ("vmstat", 10, 0.020, "20.000ms", "1.000ms"),
    ("wqtest@aaaaaaaa", "wqt_spin_fn [wqtest]"): ("spinA", 300, 0.0005, "500.000us", "10.000us"),
    ("wqtest@bbbbbbbb", "wqt_spin_fn [wqtest]"): ("spinB", 100, 0.0005, "500.000us", "10.000us"),
}
HEAD = "EXEC/s RUN% AVG_RUN P99_RUN AVG_LAT P99_LAT MAX_LAT QUEUED/s WORKQUEUE FUNCTION".split()
when = (r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z" if mode == "batch"
        else r"wqstat top - \d\d:\d\d:\d\d")
title = re.compile(when + r"  interval (\d+\.\d{3}) s  sort (\w+)  (\d+\.\d) exec/s  "
                   r"rows (\d+) of (\d+)  tracer on  dropped 0$")
lines = open(path).read().split("\n")
bad, tables, times = [], 0, []
i = 0
while i < len(lines):
    m = title.match(lines[i])
    if not m:
        i += 1
        continue
    tables += 1
    g = m.groups()
    if mode == "batch":
        from datetime import datetime
        times.append(datetime.fromisoformat(g[0]).timestamp())
        g = g[1:]
    secs, key, total, shown, nrows = float(g[0]), g[1], float(g[2]), int(g[3]), int(g[4])
    ivs.append(round(secs * 1000))
    if secs <= 0:
        bad.append("interval %.3f s" % secs)
    if key != sort:
        bad.append("sort %s, not %s" % (key, sort))
    i += 2 if mode == "screen" else 1          # the status line
    if lines[i].split() != HEAD:
        bad.append("column names: %r" % lines[i])
    i += 1
    seen, tot = [], 0.0
    while i < len(lines) and lines[i].strip():
        f = lines[i].split()
        i += 1
        wq, fn = f[8], " ".join(f[9:])
        if (wq, fn) not in EXP:
            bad.append("unexpected row: %s %s" % (wq, fn))
            continue
        name, rate, run, avg, lat = EXP[(wq, fn)]
        seen.append(name)
        ex, pct, q = float(f[0]), float(f[1]), float(f[7])
        tot += ex
        tol = 1 / secs + 0.05 + rel * rate
        if abs(ex - rate) > tol:
            bad.append("%s: EXEC/s %.1f, not %d +- %.1f" % (name, ex, rate, tol))
        if abs(pct - ex * run * 100) > 0.15 + run * 100 * 0.05:
            bad.append("%s: RUN%% %.1f, not EXEC/s x %g s x 100 = %.1f" % (name, pct, run, ex * run * 100))
        if q != ex:
            bad.append("%s: QUEUED/s %.1f, not EXEC/s %.1f" % (name, q, ex))
        if f[2:7] != [avg, "-", lat, "-", "-"]:
            bad.append("%s: AVG_RUN..MAX_LAT %s, not %s" % (name, f[2:7], [avg, "-", lat, "-", "-"]))
    if seen[:len(order)] != order:
        bad.append("rows in the order %s, not %s first" % (",".join(seen), ",".join(order)))
    if nrows != 4 or shown != len(seen):
        bad.append("'rows %d of %d' with %d rows shown, not 4 in all" % (shown, nrows, len(seen)))
    if abs(total - tot) > 0.25:
        bad.append("total %.1f exec/s, the rows add up to %.1f" % (total, tot))
if tables != ntab:
    bad.append("%d tables, not %d" % (tables, ntab))
# a run of stamps s, s + i1, s + i1 + i2, ... all written by the writer
def chained(ivs, stamps):
    for s0 in stamps:
        t = s0
        for iv in ivs:
            t += iv
            if iv <= 0 or t not in stamps:
                break
        else:
            return True
    return False
# top takes its own clock instead where the stamps' difference is under
# half or over twice it (a stale stamp): a writer late by 250 ms or more
def diffs(stamps):
    return set(b - a for a in stamps for b in stamps if b > a)
if stamps is not None and not chained(ivs, stamps):
    st = sorted(stamps)
    gap = max((b - a for a, b in zip(st, st[1:])), default=0)
    d = diffs(stamps)
    if gap < 250 or any(iv not in d and abs(iv - 500) > 100 for iv in ivs):
        bad.append("intervals %s ms: no run of the writer's stamps has these differences (its longest gap %d ms)" % (ivs, gap))
# on top's own clock the intervals keep its schedule: late ones are made
# up by shorter ones, so their sum is at least 0.5 s a table (to the ms)
if stamps is None and sum(ivs) < 500 * tables - len(ivs):
    bad.append("intervals %s ms: %d ms in all, before top's schedule of %d" % (ivs, sum(ivs), 500 * tables))
# top keeps a schedule (like perf stat -I): table k is taken at or after
# its start + k x 0.5 s, late when the host does not run it (and the next
# ones then catch up), never early.  TOP_START_MS: the wall clock just
# before top started (the tables print theirs to the ms, cut)
start = os.environ.get("TOP_START_MS")
if start is not None:
    for k, t in enumerate(times, 1):
        if t * 1000 < int(start) + k * 500 - 1:
            bad.append("table %d at %.3f s after top's start, before its %.1f s" % (k, t - int(start) / 1000, k * 0.5))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# start_writer stamp|nostamp; returns once every row has counts, so that no
# interval of a test starts at a row's first execution (where its maxima
# move, and so are known) or at the empty table (whose stamp is 0)
counting() { [ -s "$fake/trace_stat/workqueues" ] && ! grep -qs '^0 0 0 ' "$fake/trace_stat/workqueues"; }
start_writer() {
	rm -f "$fake/trace_stat/workqueues"
	python3 "$tmp/writer.py" "$fake" "$1" "$tmp/stamps" &
	writer_pid=$!
	wait_for 5 counting
}
stop_writer() {
	kill "$writer_pid"
	wait "$writer_pid" 2> /dev/null
	writer_pid=
}

# wait_for SECONDS CMD...: run CMD every 50 ms until it succeeds, or fail
wait_for() {
	local i=0 tries=$(($1 * 20))
	shift
	until "$@"; do
		i=$((i + 1))
		[ $i -lt $tries ] || return 1
		sleep 0.05
	done
}

# the exit statuses as top -h documents them (checked below)
"$W" top -h > "$tmp/help" 2>&1
usage_rc=$(grep -oE '[0-9]+ usage error' "$tmp/help" | cut -d ' ' -f 1)
data_rc=$(grep -oE '[0-9]+ data or' "$tmp/help" | cut -d ' ' -f 1)

mkdir -p "$fake/trace_stat"
echo 1 > "$fake/workqueue_stat_enabled"
export WQSTAT_TRACEFS=$fake
start_writer stamp || t_fail "the fake table's writer did not start"

# 1. batch output
start_ms=$(date +%s%3N)
"$W" top -I 500 -c 3 > "$tmp/b.out" 2> "$tmp/b.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/b.err" ] && TOP_START_MS=$start_ms python3 "$tmp/check.py" batch "$tmp/b.out" 3 total 0 \
		sleep,vmstat,spinA,spinB "$tmp/stamps" > "$tmp/why"; then
	t_ok "-I 500 -c 3: 3 tables on top's 0.5 s schedule (none early), each over the tracer's interval (a run of the fake tracer's stamps), 1000.0 EXEC/s and RUN% 200.0 for the 1000/s x 2 ms row, each rate within one execution, worst first"
else
	t_fail "-I 500 -c 3" "exit $rc, stderr: $(cat "$tmp/b.err")" "$(cat "$tmp/why")" "$(cat "$tmp/b.out")"
fi

"$W" top --json -I 500 -c 3 > "$tmp/j.out" 2> "$tmp/j.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/j.err" ] && python3 - "$tmp/j.out" "$tmp/stamps" > "$tmp/why" 2>&1 <<'EOF'
import json, re, sys
def bad(c):
    raise ValueError("not JSON: " + c)
stamps = set(int(x) for x in open(sys.argv[2]).read().split())
st = sorted(stamps)
gap = max((b - a for a, b in zip(st, st[1:])), default=0)
prev = None
text = open(sys.argv[1], "rb").read().decode("utf-8")
assert text.endswith("\n"), "no newline at the end"
lines = text[:-1].split("\n")
assert len(lines) == 3, "%d lines, not 3" % len(lines)
for l in lines:
    d = json.loads(l, parse_constant=bad)
    assert list(d) == ["time", "interval_s", "sort", "summary", "rows"], list(d)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", d["time"]), d["time"]
    secs = d["interval_s"]
    s = d["summary"]
    # the tracer's interval: from the stamp of the last table (or of the
    # first read) to this one's, both written by the fake tracer
    end = round(s["since_reset_s"] * 1000)
    start = end - round(secs * 1000)
    assert secs > 0 and end in stamps, (secs, s["since_reset_s"])
    iv = round(secs * 1000)
    if prev is None:
        assert start in stamps or gap >= 250, ("the first interval from", start, "no stamp")
    elif iv != end - prev:
        # top's own clock (iv) where the stamps' difference is under
        # half or over twice it (a stale stamp), else the stamps'
        assert end - prev < iv / 2 or end - prev > iv * 2, \
            ("interval", iv, "ms, the stamps'", end - prev)
    prev = end
    assert s["enabled"] is True and s["dropped"] == 0 and s["rows"] == 4 and s["reset"] is False, s
    r = {(x["workqueue"], x["function"], x["wq_id"]): x for x in d["rows"]}
    assert len(r) == 4, sorted(r)
    for key, rate, run_us in [(("wqtest", "wqt_sleep_fn [wqtest]", "1b0809e7"), 1000, 2000),
                              (("events", "vmstat_update", "8f51643b"), 10, 20000),
                              (("wqtest", "wqt_spin_fn [wqtest]", "aaaaaaaa"), 300, 500),
                              (("wqtest", "wqt_spin_fn [wqtest]", "bbbbbbbb"), 100, 500)]:
        x = r[key]
        assert abs(x["exec_per_s"] - rate) <= 1 / secs + 0.001, (key, x["exec_per_s"])
        assert abs(x["executed"] - x["exec_per_s"] * secs) < 0.01 + x["executed"] * 0.002, x
        assert x["avg_run_us"] == run_us and x["total_run_us"] == run_us * x["executed"], x
        assert abs(x["run_pct"] - x["exec_per_s"] * run_us / 1e4) < 0.01, x
        assert x["p99_run_us"] is None and x["p99_lat_us"] is None and x["max_lat_us"] is None, x
    assert r[("wqtest", "wqt_sleep_fn [wqtest]", "1b0809e7")]["exec_per_s"] == 1000.0
EOF
then
	t_ok "--json -I 500 -c 3: 3 lines of strict JSON (no NaN/Infinity), each interval the tracer's (since_reset_s of the last table to this one's), the rates as in text, unknowns null"
else
	t_fail "--json -I 500 -c 3" "exit $rc, stderr: $(cat "$tmp/j.err")" "$(cat "$tmp/why")" "$(cat "$tmp/j.out")"
fi

"$W" top -b -d 0.5 -c 1 -w '^wqtest$' -f spin -n 1 -s executed > "$tmp/f.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q ' sort executed .* rows 1 of 2 ' "$tmp/f.out" &&
		[ "$(grep -c 'wqt_' "$tmp/f.out")" = 1 ] && grep -q 'wqtest@aaaaaaaa *wqt_spin_fn' "$tmp/f.out"; then
	t_ok "-b -w -f -n 1 -s executed: the busier of the two spin rows, 'rows 1 of 2'"
else
	t_fail "-w -f -n -s" "exit $rc" "$(cat "$tmp/f.out")"
fi

echo 0 > "$fake/workqueue_stat_enabled"
wait_for 5 grep -qs '^# enabled: 0' "$fake/trace_stat/workqueues"
"$W" top -I 500 -c 1 > "$tmp/off.out" 2>&1
rc=$?
echo 1 > "$fake/workqueue_stat_enabled"
if [ $rc -eq 0 ] && grep -q ' rows 0 of 0  tracer OFF  dropped 0$' "$tmp/off.out" && ! grep -q wqt_ "$tmp/off.out" &&
		[ "$(cat "$fake/workqueue_stat_enabled")" = 1 ]; then
	t_ok "a disabled tracer: 'tracer OFF' in the header, no rows"
else
	t_fail "tracer disabled" "exit $rc" "$(cat "$tmp/off.out")"
fi

# 2. without the kernel's stamps: top's own clock
stop_writer
start_writer nostamp
start_ms=$(date +%s%3N)
"$W" top -I 500 -c 2 > "$tmp/n.out" 2> "$tmp/n.err"
rc=$?
if [ $rc -eq 0 ] && TOP_START_MS=$start_ms python3 "$tmp/check.py" batch "$tmp/n.out" 2 total 0.25 sleep > "$tmp/why"; then
	t_ok "without '# since reset': the rates by top's clock, within 25% (a 50 ms write period over 500 ms)"
else
	t_fail "without since reset" "exit $rc, stderr: $(cat "$tmp/n.err")" "$(cat "$tmp/why")" "$(cat "$tmp/n.out")"
fi
stop_writer
start_writer stamp

# 3. usage
"$W" top -c 1 > "$tmp/out" 2> "$tmp/err" < /dev/null
rc=$?
if [ $rc -eq "${usage_rc:-1}" ] && [ ! -s "$tmp/out" ] && [ "$(grep -c . "$tmp/err")" = 1 ] &&
		grep -q 'standard output is not a terminal; use -b' "$tmp/err"; then
	t_ok "stdout not a terminal, no -b: exit $rc (usage), \"$(cat "$tmp/err")\""
else
	t_fail "stdout not a terminal" "exit $rc" "$(cat "$tmp/err")"
fi
why=
for args in "-d 0" "-d 0.05" "-d 4000" "-d nan" "-d 1x" "-I 50" "-I 500 -d 1" "--json" "-c 0" \
	    "-n x" "-s speed" "-b extra" "--frob" "-b -w (" "-d"; do
	# shellcheck disable=SC2086
	"$W" top $args > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne "${usage_rc:-1}" ] || [ -s "$tmp/out" ] || [ "$(grep -c . "$tmp/err")" != 1 ] || ! grep -q '^wqstat: ' "$tmp/err"; then
		why="$why top $args: exit $rc, $(head -c 200 "$tmp/err")
"
	fi
done
[ -z "$why" ] && t_ok "15 bad command lines: exit ${usage_rc:-1} (usage), one line on stderr each" ||
	t_fail "usage errors" "$why"
"$W" top -h > "$tmp/out" 2>&1
rc=$?
missing=
[ -n "$usage_rc" ] && [ -n "$data_rc" ] && [ "$usage_rc" != 0 ] && [ "$data_rc" != 0 ] || missing=" the exit statuses"
for o in -d --delay -n --top -s --sort -w --workqueue -f --function -c --count -b --batch -I --interval-ms \
	 --json -h --help "q quit" space p99lat EXEC/s RUN% MAX_LAT; do
	grep -q -- "$o" "$tmp/out" || missing="$missing $o"
done
[ $rc -eq 0 ] && [ -z "$missing" ] && t_ok "top -h documents every option, the keys and the columns" ||
	t_fail "top -h: exit $rc, lacks:$missing"

# 4. full screen, in tmux: a private server, one 160x40 session per run.
# fg.py PIDFILE CMD...: runs CMD as the terminal's foreground process group
# and waits for it to end, as a job-control shell does (the pane's own group
# is orphaned: the kernel would discard a SIGTSTP sent to it); exits with
# CMD's status, 128+N for signal N.
cat > "$tmp/fg.py" <<'EOF'
import os, signal, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpid())
    for s in (signal.SIGTTOU, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
        signal.signal(s, signal.SIG_DFL)
    open(sys.argv[1], "w").write("%d\n" % os.getpid())
    os.execv(sys.argv[2], sys.argv[2:])
try:
    os.setpgid(pid, pid)
except OSError:
    pass
signal.signal(signal.SIGINT, signal.SIG_IGN)
_, st = os.waitpid(pid, 0)
os.tcsetpgrp(0, os.getpgrp())
sys.exit(os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))
EOF
# pane.sh TAG ARGS: runs wqstat top ARGS, then, in the same pane, records
# its exit status and stty -a, and stays for capture-pane.
cat > "$tmp/pane.sh" <<EOF
#!/bin/sh
tag=\$1
shift
export WQSTAT_TRACEFS='$fake' ASAN_OPTIONS='$ASAN_OPTIONS' UBSAN_OPTIONS='$UBSAN_OPTIONS'
python3 '$tmp/fg.py' '$tmp/'"\$tag.pid" '$W' top "\$@"
rc=\$?
stty -a > '$tmp/'"\$tag.stty"
echo \$rc > '$tmp/'"\$tag.rc"
exec sleep 60
EOF
chmod +x "$tmp/pane.sh"
pane() {
	local tag=$1
	shift
	tmux -S "$sock" -f /dev/null new-session -d -s "$tag" -x 160 -y 40 "$tmp/pane.sh $tag $*"
}
cap() { tmux -S "$sock" capture-pane -p -t "$1"; }
shows() { cap "$1" | grep -qE -- "$2"; }
fmt() { tmux -S "$sock" display -p -t "$1" "$2"; }
ended() { [ -s "$tmp/$1.rc" ]; }
# restored TAG: wqstat ended; main screen, cursor shown, stty -a after it
# with icanon and echo
restored() {
	[ "$(fmt "$1" '#{alternate_on} #{cursor_flag}')" = "0 1" ] &&
		grep -qE '(^| )icanon( |;|$)' "$tmp/$1.stty" && grep -qE '(^| )echo( |;|$)' "$tmp/$1.stty"
}
state() {
	echo "alternate_on cursor_flag: $(fmt "$1" '#{alternate_on} #{cursor_flag}')"
	echo "stty: $(grep -oE '(^| )-?(icanon|echo)( |;|$)' "$tmp/$1.stty" 2> /dev/null | tr -d '\n')"
	echo "exit: $(cat "$tmp/$1.rc" 2> /dev/null)"
	echo "pane:"
	cap "$1"
}

# q, after s and < and a resize
pane t1 -d 0.5
if wait_for 5 shows t1 'rows 4 of 4' && sleep 0.1 && cap t1 > "$tmp/t1.cap" &&
		[ "$(fmt t1 '#{alternate_on} #{cursor_flag}')" = "1 0" ] &&
		python3 "$tmp/check.py" screen "$tmp/t1.cap" 1 total 0 sleep,vmstat,spinA,spinB "$tmp/stamps" > "$tmp/why"; then
	t_ok "full screen (alternate screen, no cursor): the header and the rows with their rates, @WQ_ID on the twins"
else
	t_fail "full screen" "$(cat "$tmp/why" 2> /dev/null)" "$(state t1)"
fi
tmux -S "$sock" send-keys -t t1 s
if wait_for 2 shows t1 '  sort avg  ' && cap t1 > "$tmp/t1s.cap" &&
		python3 "$tmp/check.py" screen "$tmp/t1s.cap" 1 avg 0 vmstat,sleep "$tmp/stamps" > "$tmp/why"; then
	tmux -S "$sock" send-keys -t t1 '<'
	if wait_for 2 shows t1 '  sort total  '; then
		t_ok "s sorts by avg (the 20 ms row first), < back to total"
	else
		t_fail "<" "$(state t1)"
	fi
else
	t_fail "s" "$(cat "$tmp/why" 2> /dev/null)" "$(state t1)"
fi
tmux -S "$sock" resize-window -t t1 -x 120 -y 6
if wait_for 2 shows t1 'rows 3 of 4' && cap t1 > "$tmp/t1r.cap" &&
		[ "$(awk 'length > 120' "$tmp/t1r.cap" | wc -l)" = 0 ] && [ "$(grep -c 'wqt_\|vmstat' "$tmp/t1r.cap")" = 3 ]; then
	t_ok "SIGWINCH to 120x6: three rows, every line clipped to 120 columns"
else
	t_fail "resize" "$(state t1)"
fi
tmux -S "$sock" send-keys -t t1 q
if wait_for 3 ended t1 && [ "$(cat "$tmp/t1.rc")" = 0 ] && restored t1; then
	t_ok "q: exit 0, the main screen and the cursor back, stty shows icanon and echo"
else
	t_fail "q" "$(state t1)"
fi

# the first screen, and SIGTERM while it is up
pane t2 -d 2
if wait_for 3 shows t2 '^collecting\.\.\. the first interval ends in' && cap t2 > "$tmp/t2.cap" &&
		grep -qE '^wqstat top - [0-9:]{8}  interval 2\.000 s  sort total  tracer on  dropped 0$' "$tmp/t2.cap" &&
		! grep -q 'wqt_\|exec/s' "$tmp/t2.cap"; then
	t_ok "the first screen: the header, 'collecting...', no rows until an interval has passed"
else
	t_fail "first screen" "$(state t2)"
fi
kill -TERM "$(cat "$tmp/t2.pid")"
if wait_for 3 ended t2 && [ "$(cat "$tmp/t2.rc")" = 143 ] && restored t2; then
	t_ok "SIGTERM: exit 143, the terminal restored"
else
	t_fail "SIGTERM" "$(state t2)"
fi

# space, then Ctrl-Z's SIGTSTP and SIGCONT
pane t3 -d 60
wait_for 3 shows t3 '^collecting'
sleep 0.3	# some work to see: the table moves every 50 ms
tmux -S "$sock" send-keys -t t3 Space
if wait_for 2 shows t3 'rows 4 of 4'; then
	t_ok "space: an interval at once (of -d 60)"
else
	t_fail "space" "$(state t3)"
fi
pid=$(cat "$tmp/t3.pid")
kill -TSTP "$pid"
tty=$(fmt t3 '#{pane_tty}')
if wait_for 3 grep -q '^[^)]*) T' "/proc/$pid/stat" && [ "$(fmt t3 '#{alternate_on} #{cursor_flag}')" = "0 1" ] &&
		stty -F "$tty" -a > "$tmp/t3.stopped" && grep -qE '(^| )icanon( |;|$)' "$tmp/t3.stopped" &&
		grep -qE '(^| )echo( |;|$)' "$tmp/t3.stopped"; then
	kill -CONT "$pid"
	if wait_for 3 shows t3 'rows 4 of 4' && [ "$(fmt t3 '#{alternate_on} #{cursor_flag}')" = "1 0" ]; then
		t_ok "SIGTSTP: stopped with the terminal restored; SIGCONT: the full screen again"
	else
		t_fail "SIGCONT" "$(state t3)"
	fi
else
	kill -CONT "$pid"
	t_fail "SIGTSTP" "$(cat "/proc/$pid/stat" 2> /dev/null)" "$(cat "$tmp/t3.stopped" 2> /dev/null)" "$(state t3)"
fi
tmux -S "$sock" send-keys -t t3 q
wait_for 3 ended t3 && [ "$(cat "$tmp/t3.rc")" = 0 ] && restored t3 &&
	t_ok "q after a stop: exit 0, the terminal restored" || t_fail "q after SIGCONT" "$(state t3)"

# Ctrl-C from the terminal
pane t5 -d 0.5
wait_for 3 shows t5 '^wqstat top'
tmux -S "$sock" send-keys -t t5 C-c
wait_for 3 ended t5 && [ "$(cat "$tmp/t5.rc")" = 130 ] && restored t5 &&
	t_ok "Ctrl-C (SIGINT): exit 130, the terminal restored" || t_fail "Ctrl-C" "$(state t5)"

# batch: SIGTERM ends it between two lines (a job in the background: the
# shell has SIGINT ignored for it, and top leaves it so).  It is killed
# once four lines are out, however long a busy host takes to get there
# (a fixed 0.75 s gave 2 lines beside a loaded make check); at -I 100 it
# cannot have written more than one line per 100 ms it ran, and one more.
t0=$(date +%s%N)
"$W" top --json -I 100 > "$tmp/k.out" 2> "$tmp/k.err" &
pid=$!
four_lines() { [ "$(wc -l < "$tmp/k.out")" -ge 4 ]; }
wait_for 30 four_lines
kill -TERM $pid
t1=$(date +%s%N)
wait $pid
rc=$?
ran_ms=$(( (t1 - t0) / 1000000 ))
most=$(( ran_ms / 100 + 1 ))
if [ $rc -eq 143 ] && [ ! -s "$tmp/k.err" ] && python3 - "$tmp/k.out" "$most" "$ran_ms" > "$tmp/why" 2>&1 <<'EOF2'
import json, sys
def bad(c):
    raise ValueError("not JSON: " + c)
text = open(sys.argv[1], "rb").read().decode("utf-8")
most, ran_ms = int(sys.argv[2]), int(sys.argv[3])
assert text.endswith("\n"), "the last line is cut: %r" % text[-80:]
lines = text[:-1].split("\n")
assert 4 <= len(lines) <= most, \
    "%d lines in %d ms at -I 100 (want 4 to %d)" % (len(lines), ran_ms, most)
for l in lines:
    json.loads(l, parse_constant=bad)
EOF2
then
	t_ok "--json -I 100, SIGTERM once 4 lines are out: exit 143, $(wc -l < "$tmp/k.out") whole lines of JSON, at most $most in the $ran_ms ms it ran"
else
	t_fail "batch SIGTERM" "exit $rc" "$(cat "$tmp/k.err" "$tmp/why")" "$(tail -c 300 "$tmp/k.out")"
fi

# the table vanishes: wq_die()'s message, after the terminal is restored
pane t4 -d 0.5
wait_for 5 shows t4 'rows 4 of 4'
stop_writer
rm -f "$fake/trace_stat/workqueues"
if wait_for 3 ended t4 && [ "$(cat "$tmp/t4.rc")" = "${data_rc:-2}" ] && restored t4 &&
		cap t4 | grep -q "^wqstat: $fake/trace_stat/workqueues: no such file"; then
	t_ok "the table vanishes: exit ${data_rc:-2}, \"$(cap t4 | grep -m 1 '^wqstat:' | cut -c 1-60)...\" on the restored main screen"
else
	t_fail "table vanishes" "$(state t4)"
fi

if [ -n "${TOP_SHOW_PANE:-}" ]; then
	echo "# the pane of the first run:"
	sed 's/^/#   /' "$tmp/t1.cap"
fi
echo "1..$n"
[ $bad -eq 0 ]
