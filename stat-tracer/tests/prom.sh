#!/bin/bash
# tests/prom.sh [WQSTAT]: the Prometheus output of wqstat (show --prometheus),
# as TAP, against the fixtures in tests/prom/: a strict check of the text
# format, promtool, a real node_exporter serving it through its textfile
# collector, and a real Prometheus scraping that node_exporter and answering
# histogram_quantile() from the buckets.  The servers listen on free ports of
# 127.0.0.1 only and are stopped on any exit.
#
# prometheus and prometheus-node-exporter (Debian's packages) are installed
# when missing, as root, with their services kept from starting; when they
# cannot be had, the tests that need them are skipped with the reason.
# shellcheck disable=SC2317 # cleanup and scraped run from trap and wait_for
set -u
start=$SECONDS
here=$(cd "$(dirname "$0")" && pwd)
W=${1:-${O:-$here/..}/wqstat}
FIX=$here/prom
CHECK=$FIX/check.py
PKGS="prometheus prometheus-node-exporter"
tmp=$(mktemp -d)
. "$(dirname "$0")/tap.sh"
# missing_lines FILE LINE...: the LINEs that are not whole lines of FILE, in missing[]
missing_lines() {
	local f=$1 l
	shift
	missing=()
	for l in "$@"; do
		grep -qxF -- "$l" "$f" || missing+=("missing: $l")
	done
}
pids=()
policy=/usr/sbin/policy-rc.d
policy_moved=false policy_ours=false

# Put back the policy-rc.d that was there before ours, if any.
restore_policy() {
	if $policy_ours; then
		rm -f "$policy"
		policy_ours=false
	fi
	if $policy_moved; then
		mv -f "$tmp/policy-rc.d.orig" "$policy"
		policy_moved=false
	fi
}

# Stop the servers this script started (by pid), restore policy-rc.d, clean up.
cleanup() {
	local p _
	for p in "${pids[@]}"; do
		kill "$p" 2> /dev/null
	done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do
			kill -0 "$p" 2> /dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2> /dev/null
		wait "$p" 2> /dev/null
	done
	restore_policy
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# t_check WHAT OUTPUT-FILE COMMAND...: ok when COMMAND succeeds, else its output
t_check() {
	local what=$1 out=$2
	shift 2
	if "$@" > "$out" 2>&1; then
		t_ok "$what"
	else
		t_fail "$what" "$(head -n 20 "$out")"
	fi
}
# comment FILE [LINES]: the tail of a log, as TAP comments
comment() { tail -n "${2:-30}" "$1" 2> /dev/null | sed 's/^/# /'; }

# A free TCP port of 127.0.0.1.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for SECONDS COMMAND...: run COMMAND every 0.2 s until it succeeds; 1 on timeout.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	while ! "$@" > /dev/null 2>&1; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}

# The servers and promtool, found on PATH.
find_tools() {
	PROMTOOL=$(command -v promtool)
	PROMETHEUS=$(command -v prometheus)
	NODE_EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter)
	[ -n "$PROMTOOL" ] && [ -n "$PROMETHEUS" ] && [ -n "$NODE_EXPORTER" ]
}

# Install the packages when the tools are missing; sets skip_reason on failure.
ensure_packages() {
	local rc
	skip_reason=
	find_tools && return 0
	if [ "$(id -u)" != 0 ]; then
		skip_reason="promtool, prometheus or node_exporter missing, and not root to install $PKGS"
		return 1
	fi
	if ! command -v apt-get > /dev/null; then
		skip_reason="promtool, prometheus or node_exporter missing, and no apt-get"
		return 1
	fi
	echo "prom.sh: installing $PKGS (apt-get install --no-install-recommends)" >&2
	# keep the packages' services from starting: policy-rc.d says 101
	if [ -e "$policy" ]; then
		"$policy" prometheus start > /dev/null 2>&1
		rc=$?
		if [ $rc != 101 ]; then
			mv "$policy" "$tmp/policy-rc.d.orig" && policy_moved=true
		fi
	fi
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# tests/prom.sh: no service starts during its install\nexit 101\n' \
			> "$policy" && chmod 755 "$policy" && policy_ours=true
	fi
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! timeout 900 apt-get install -y --no-install-recommends $PKGS > "$tmp/apt.log" 2>&1; then
		echo "prom.sh: apt-get update, then install again" >&2
		timeout 600 apt-get update >> "$tmp/apt.log" 2>&1
		# shellcheck disable=SC2086
		timeout 900 apt-get install -y --no-install-recommends $PKGS >> "$tmp/apt.log" 2>&1
	fi
	restore_policy
	# on a systemd machine, stop whatever was started all the same
	if [ -d /run/systemd/system ]; then
		systemctl stop prometheus.service prometheus-node-exporter.service 2> /dev/null
	fi
	if ! find_tools; then
		skip_reason="apt-get install $PKGS failed: $(grep -E '^(E|W):' "$tmp/apt.log" | tail -n 1)"
		comment "$tmp/apt.log" 10 >&2
		return 1
	fi
	# shellcheck disable=SC2086
	dpkg-query -W -f='prom.sh: installed ${Package} ${Version}\n' $PKGS >&2
}

fixtures="hist old empty"

# 1. wqstat's output of each fixture, and the checks that need no server
for f in $fixtures; do
	if "$W" show -i "$FIX/$f.table" --prometheus > "$tmp/$f.prom" 2> "$tmp/$f.err"; then
		t_ok "$f: wqstat show -i $f.table --prometheus: exit 0, $(wc -l < "$tmp/$f.prom") lines"
	else
		t_fail "$f: wqstat show -i $f.table --prometheus" "$(cat "$tmp/$f.err")"
	fi
	t_check "$f: strict check: each family once, no duplicate series, finite values, histograms cumulative to +Inf == _count" \
		"$tmp/out" python3 "$CHECK" lint "$tmp/$f.prom"
	if grep -Eiq '_(avg|p99|average)_' "$tmp/$f.prom"; then
		t_fail "$f: no average or P99 gauges" "$(grep -Ei '_(avg|p99|average)_' "$tmp/$f.prom" | head -n 3)"
	else
		t_ok "$f: no average or P99 gauges"
	fi
done

t_check "hist: every row's run and latency buckets are the fixture's, counted under the smallest 64ns*2^k >= their bound, _sum and _count exact" \
	"$tmp/out" python3 "$CHECK" buckets "$FIX/hist.table" "$tmp/hist.prom"

# the labels of the twins, a destroyed row, an unloaded function, a "-" row and
# a name with a quote, a backslash and a byte that is not UTF-8, exactly
want_lines=(
	'wqstat_executed_total{workqueue="wqtest",function="wqt_sleep_fn [wqtest]",wq_id="1b0809e7",destroyed="false",unloaded="false"} 200'
	'wqstat_executed_total{workqueue="wqtest",function="wqt_sleep_fn [wqtest]",wq_id="5c3e2a10",destroyed="false",unloaded="false"} 7'
	'wqstat_executed_total{workqueue="wqtest_unbound",function="wqt_unbound_fn [wqtest]",wq_id="-",destroyed="true",unloaded="false"} 100'
	'wqstat_executed_total{workqueue="wqtest_ordered",function="wqt_behind_fn [wqtest]",wq_id="9a8b7c6d",destroyed="true",unloaded="false"} 3'
	'wqstat_executed_total{workqueue="events",function="wqold_fn [wqold]",wq_id="db7cd3e0",destroyed="false",unloaded="true"} 12'
	"wqstat_executed_total{workqueue=\"events_unbound\",function=\"odd\\\"fn\\\\x [m$(printf '\xef\xbf\xbd')od]\",wq_id=\"4f00ba11\",destroyed=\"false\",unloaded=\"false\"} 1000"
	'wqstat_timer_late_total{workqueue="events",function="wqold_fn [wqold]",wq_id="db7cd3e0",destroyed="false",unloaded="true"} 12'
	'wqstat_run_max_seconds{workqueue="wqtest",function="wqt_forever_fn [wqtest]",wq_id="1b0809e7",destroyed="false",unloaded="false"} 40.500000000'
	'wqstat_run_seconds_bucket{workqueue="wqtest",function="wqt_forever_fn [wqtest]",wq_id="1b0809e7",destroyed="false",unloaded="false",le="34.359738368"} 0'
	'wqstat_since_reset_seconds 12.345'
)
missing_lines "$tmp/hist.prom" "${want_lines[@]}"
if [ ${#missing[@]} = 0 ]; then
	t_ok "hist: labels without (destroyed)/(unloaded), wq_id of twins and of the \"-\" row, escaped quote, backslash, U+FFFD"
else
	t_fail "hist: the expected labelled series" "${missing[@]}"
fi

# the table without WQ_ID: three rows of one (workqueue, function)
dups=$(grep -c '^wqstat_executed_total{workqueue="ext4-rsv-conversion",function="ext4_end_io_rsv_work",destroyed="false",unloaded="false"\(,dup="[23]"\)\?} [653]$' "$tmp/old.prom")
if [ "$dups" = 3 ] && ! grep -q 'wq_id=' "$tmp/old.prom" && ! grep -q 'dup="4"' "$tmp/old.prom"; then
	t_ok "old: no wq_id label; the identical rows are told apart by dup=\"2\" and dup=\"3\""
else
	t_fail "old: dup labels" "$(grep '^wqstat_executed_total' "$tmp/old.prom")"
fi
# without buckets: +Inf only, count = executed, sums = TOTAL_RUN and AVG_LAT * executed
L='workqueue="wqtest",function="wqt_sleep_fn [wqtest]",destroyed="false",unloaded="false"'
want_old=(
	"wqstat_run_seconds_bucket{$L,le=\"+Inf\"} 20"
	"wqstat_run_seconds_sum{$L} 0.040000000"
	"wqstat_run_seconds_count{$L} 20"
	"wqstat_latency_seconds_bucket{$L,le=\"+Inf\"} 20"
	"wqstat_latency_seconds_sum{$L} 0.002000000"
	"wqstat_latency_seconds_count{$L} 20"
)
missing_lines "$tmp/old.prom" "${want_old[@]}"
if [ ${#missing[@]} = 0 ] && [ "$(grep -c '^wqstat_run_seconds_bucket' "$tmp/old.prom")" = 4 ]; then
	t_ok "old: without buckets, the histograms have +Inf only (count = executed, sum = total run, latency sum = avg * executed)"
else
	t_fail "old: histograms without buckets" "${missing[@]}" "$(grep '^wqstat_run_seconds' "$tmp/old.prom")"
fi
if grep -qx 'wqstat_rows 0' "$tmp/empty.prom" && ! grep -q '{' "$tmp/empty.prom"; then
	t_ok "empty: the summary only ($(grep -c '^wqstat' "$tmp/empty.prom") samples), no row family"
else
	t_fail "empty: summary only" "$(head -n 20 "$tmp/empty.prom")"
fi

# the checker fails when it should
for b in bad-dup:duplicate bad-split:second; do
	f=${b%%:*} word=${b#*:}
	python3 "$CHECK" lint "$FIX/$f.prom" > "$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "$word" "$tmp/out"; then
		t_ok "$f.prom: the strict check fails it: $(head -n 1 "$tmp/out")"
	else
		t_fail "$f.prom: the strict check must fail it" "exit $rc" "$(cat "$tmp/out")"
	fi
done

# 2. promtool, node_exporter and Prometheus
if ! ensure_packages; then
	for f in $fixtures; do
		t_skip "$f: promtool check metrics" "$skip_reason"
	done
	t_skip "promtool fails bad-split.prom" "$skip_reason"
	for f in $fixtures; do
		t_skip "$f: node_exporter serves it" "$skip_reason"
	done
	for w in "node_exporter: bad-split.prom" "node_exporter: bad-dup.prom" \
		 "Prometheus scrapes node_exporter" "Prometheus: run P99 of twin 1" \
		 "Prometheus: run P99 of twin 2" "Prometheus: latency P99" "Prometheus: sum by (le)"; do
		t_skip "$w" "$skip_reason"
	done
	echo "1..$n"
	echo "# prom.sh: $((SECONDS - start)) s"
	exit $((bad > 0))
fi
echo "# $("$PROMTOOL" --version 2>&1 | head -n 1)"
echo "# $("$NODE_EXPORTER" --version 2>&1 | head -n 1)"
echo "# $("$PROMETHEUS" --version 2>&1 | head -n 1)"

for f in $fixtures; do
	timeout 30 "$PROMTOOL" check metrics < "$tmp/$f.prom" > "$tmp/out" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$tmp/out" ]; then
		t_ok "$f: promtool check metrics: exit 0, no lint warning"
	else
		t_fail "$f: promtool check metrics" "exit $rc" "$(head -n 20 "$tmp/out")"
	fi
done
timeout 30 "$PROMTOOL" check metrics < "$FIX/bad-split.prom" > "$tmp/out" 2>&1
rc=$?
if [ $rc != 0 ]; then
	t_ok "promtool fails bad-split.prom (exit $rc): $(head -n 1 "$tmp/out")"
else
	t_fail "promtool must fail bad-split.prom" "$(cat "$tmp/out")"
fi

# node_exporter, with the textfile collector only; the file is swapped in
# whole (rename), and read again at every scrape
mkdir -p "$tmp/textfile"
cp "$tmp/hist.prom" "$tmp/textfile/wqstat.prom"
ne_port=$(free_port)
"$NODE_EXPORTER" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/textfile" \
	--web.listen-address="127.0.0.1:$ne_port" > "$tmp/ne.log" 2>&1 &
pids+=($!)
ne_url=http://127.0.0.1:$ne_port/metrics
ne_fail=false
# serve FILE: put it in the textfile directory
serve() {
	cp "$1" "$tmp/textfile/.wqstat.tmp" && mv -f "$tmp/textfile/.wqstat.tmp" "$tmp/textfile/wqstat.prom"
}
# scrape OUT: node_exporter's page
scrape() { curl -sS --max-time 5 -o "$1" "$ne_url"; }
if ! wait_for 15 scrape "$tmp/scrape"; then
	ne_fail=true
	for f in $fixtures; do
		t_fail "$f: node_exporter serves it" "node_exporter did not answer on $ne_url in 15 s"
	done
	t_fail "node_exporter: bad-split.prom" "no node_exporter"
	t_fail "node_exporter: bad-dup.prom" "no node_exporter"
else
	for f in $fixtures; do
		serve "$tmp/$f.prom"
		scrape "$tmp/scrape-$f" 2> "$tmp/out"
		err=$(grep '^node_textfile_scrape_error ' "$tmp/scrape-$f")
		if [ "$err" = "node_textfile_scrape_error 0" ] &&
		   python3 "$CHECK" same "$tmp/$f.prom" "$tmp/scrape-$f" > "$tmp/out" 2>&1; then
			what="$(grep -c '^wqstat' "$tmp/scrape-$f") wqstat samples, every value as in the file"
			if [ "$f" = hist ]; then
				t1=$(python3 "$CHECK" value "$tmp/scrape-$f" wqstat_executed_total wq_id=1b0809e7 'function=wqt_sleep_fn [wqtest]')
				t2=$(python3 "$CHECK" value "$tmp/scrape-$f" wqstat_executed_total wq_id=5c3e2a10 'function=wqt_sleep_fn [wqtest]')
				what="$what (twins' wqstat_executed_total $t1 and $t2)"
			fi
			t_ok "$f: node_exporter: node_textfile_scrape_error 0, $what"
		else
			ne_fail=true
			t_fail "$f: node_exporter serves it" "${err:-no node_textfile_scrape_error}" \
				"$(head -n 10 "$tmp/out")"
		fi
	done
	# a file split in two families fails to parse: scrape error 1
	serve "$FIX/bad-split.prom"
	scrape "$tmp/scrape-bad" 2> /dev/null
	err=$(grep '^node_textfile_scrape_error ' "$tmp/scrape-bad")
	if [ "$err" = "node_textfile_scrape_error 1" ]; then
		t_ok "node_exporter: bad-split.prom gives node_textfile_scrape_error 1"
	else
		ne_fail=true
		t_fail "node_exporter: bad-split.prom must give node_textfile_scrape_error 1" "${err:-none}"
	fi
	# a duplicate series parses, but node_exporter drops one of the two (and
	# logs it): the comparison of the values catches it
	serve "$FIX/bad-dup.prom"
	scrape "$tmp/scrape-bad" 2> /dev/null
	if python3 "$CHECK" same "$FIX/bad-dup.prom" "$tmp/scrape-bad" > "$tmp/out" 2>&1; then
		ne_fail=true
		t_fail "node_exporter: bad-dup.prom must not compare equal" "$(cat "$tmp/out")"
	else
		t_ok "node_exporter: bad-dup.prom: $(grep '^node_textfile_scrape_error ' "$tmp/scrape-bad"), but a sample is lost: $(head -n 1 "$tmp/out")"
	fi
	serve "$tmp/hist.prom"
fi
$ne_fail && comment "$tmp/ne.log"

# Prometheus, scraping node_exporter every second
pr_port=$(free_port)
cat > "$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: wqstat
    static_configs:
      - targets: ['127.0.0.1:$ne_port']
EOF
"$PROMETHEUS" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pr_port" > "$tmp/prometheus.log" 2>&1 &
pids+=($!)
pr_url=http://127.0.0.1:$pr_port
# query PROMQL: the values of the result, one a line ("none" when empty)
query() {
	curl -sS --max-time 5 -G --data-urlencode "query=$1" "$pr_url/api/v1/query" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
r = d["data"]["result"]
print("\n".join(x["value"][1] for x in r) if r else "none")'
}
# scraped: up is 1, two scrapes done, and the histogram series are in
scraped() {
	[ "$(query 'up{job="wqstat"}')" = 1 ] &&
	[ "$(query 'count_over_time(up{job="wqstat"}[1m]) >= 2')" != none ] &&
	[ "$(query 'count(wqstat_run_seconds_bucket)')" != none ]
}
pr_fail=false
if wait_for 60 scraped; then
	t_ok "Prometheus scrapes node_exporter every 1 s: up 1, $(query 'count({__name__=~"wqstat_.*"})') wqstat series after $((SECONDS - start)) s"
	# in [lo, hi]: VALUE LO HI
	within() { python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= v <= hi)' "$@"; }
	for q in "run:P99_RUN_us:1b0809e7" "run:P99_RUN_us:5c3e2a10" "latency:P99_LAT_us:1b0809e7"; do
		IFS=: read -r h col id <<< "$q"
		read -r p99 lo hi <<< "$(python3 "$CHECK" p99 "$FIX/hist.table" "wqt_sleep_fn [wqtest]" "$id" "$col")"
		v=$(query "histogram_quantile(0.99, wqstat_${h}_seconds_bucket{function=\"wqt_sleep_fn [wqtest]\",wq_id=\"$id\"})")
		if [ -n "$lo" ] && within "$v" "$lo" "$hi" 2> /dev/null; then
			t_ok "Prometheus: histogram_quantile(0.99, wqstat_${h}_seconds_bucket{wq_id=\"$id\"}) = $v s, in [$lo, $hi], the log2 bucket of the fixture's $col $p99"
		else
			pr_fail=true
			t_fail "Prometheus: histogram_quantile(0.99) of wqstat_${h}_seconds, wq_id $id" \
				"got '$v', want the log2 bucket [$lo, $hi] of $col '$p99'"
		fi
	done
	read -r lo hi <<< "$(python3 "$CHECK" median "$FIX/hist.table")"
	v=$(query 'histogram_quantile(0.5, sum by (le) (wqstat_run_seconds_bucket))')
	if [ -n "$lo" ] && within "$v" "$lo" "$hi" 2> /dev/null; then
		t_ok "Prometheus: histogram_quantile(0.5, sum by (le) (wqstat_run_seconds_bucket)) over all rows = $v s, in [$lo, $hi]"
	else
		pr_fail=true
		t_fail "Prometheus: the median of all rows' run buckets" "got '$v', want [$lo, $hi]"
	fi
else
	pr_fail=true
	t_fail "Prometheus scrapes node_exporter" "no up 1 and wqstat series in 60 s" \
		"up: $(query 'up' 2>&1)"
	for w in "run P99 of twin 1" "run P99 of twin 2" "latency P99" "sum by (le)"; do
		t_fail "Prometheus: $w" "not scraped"
	done
fi
if $pr_fail; then
	comment "$tmp/prometheus.log"
	comment "$tmp/ne.log" 10
fi

echo "1..$n"
echo "# prom.sh: $((SECONDS - start)) s, $bad failed"
exit $((bad > 0))
