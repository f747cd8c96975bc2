#!/usr/bin/env python3
# Writes hist.table, the workqueues_hist fixture of tests/prom.sh: rows made
# from fixed pseudo-random samples, bucketed and summarised as the kernel
# does (log-linear buckets of 64 ns, P99 the middle of the bucket of the
# ceil(0.99 N)-th sample, clamped to MIN and MAX).  Run it from anywhere;
# the output is deterministic.
import os
import random

UNIT_SHIFT, SUB_BITS, TOP_ORDER = 6, 3, 28
SUB = 1 << SUB_BITS
NBUCKETS = (TOP_ORDER - 1) * SUB


def bucket(ns):
    u = ns >> UNIT_SHIFT
    if u < 2 * SUB:
        return u
    order = u.bit_length() - 1
    if order > TOP_ORDER:
        return NBUCKETS - 1
    return (order - SUB_BITS + 1) * SUB + ((u >> (order - SUB_BITS)) & (SUB - 1))


def bounds(b):
    """[lo, hi) of bucket b in ns; hi None for the open-ended last one"""
    if b < 2 * SUB:
        lo, width = b, 1
    else:
        width = 1 << (b // SUB + SUB_BITS - 1 - SUB_BITS)
        lo = (SUB + b % SUB) * width
    if b == NBUCKETS - 1:
        return lo << UNIT_SHIFT, None
    return lo << UNIT_SHIFT, (lo + width) << UNIT_SHIFT


def p99(samples):
    if not samples:
        return 0
    n = len(samples)
    rank = n - n // 100
    counts = {}
    for s in samples:
        counts[bucket(s)] = counts.get(bucket(s), 0) + 1
    seen = 0
    last = bucket(max(samples))
    for b in range(bucket(min(samples)), last + 1):
        seen += counts.get(b, 0)
        if seen >= rank:
            break
    if b == NBUCKETS - 1:
        return max(samples)
    lo, hi = bounds(b)
    mid = lo + (hi - lo) // 2
    return min(max(mid, min(samples)), max(samples))


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


def buckets(samples):
    if not samples:
        return "-"
    counts = {}
    for s in samples:
        counts[bucket(s)] = counts.get(bucket(s), 0) + 1
    out = []
    for b in sorted(counts):
        hi = bounds(b)[1]
        out.append("%s:%d" % ("inf" if hi is None else hi, counts[b]))
    return ",".join(out)


def row(queued, run, lat, late, wq_id, wq, fn, cancelled=0):
    n = len(run)
    tot = sum(run)
    ltot = sum(lat)
    return " ".join([
        str(queued), str(n), str(cancelled), us(tot), us(tot // n if n else 0),
        us(min(run) if run else 0), us(max(run) if run else 0), us(p99(run)),
        us(ltot // len(lat) if lat else 0), us(max(lat) if lat else 0), us(p99(lat)),
        str(len(late)), us(sum(late) // len(late) if late else 0), us(max(late) if late else 0),
        us(ltot), buckets(run), buckets(lat), wq_id, wq]) + " " + fn


def spread(rng, n, lo, hi):
    """n samples, log-uniform in [lo, hi) ns"""
    return [int(lo * (hi / lo) ** rng.random()) for _ in range(n)]


rng = random.Random(20261204)
rows = [
    # twins: one name and function, two live instances
    row(200, spread(rng, 200, 2_000_000, 16_000_000), spread(rng, 200, 50_000, 12_000_000), [],
        "1b0809e7", "wqtest", "wqt_sleep_fn [wqtest]"),
    row(7, spread(rng, 7, 1_000_000, 3_000_000), spread(rng, 7, 3_000, 9_000), [],
        "5c3e2a10", "wqtest", "wqt_sleep_fn [wqtest]"),
    # the kept row of a destroyed name, for every instance
    row(100, spread(rng, 100, 200_000, 4_600_000), spread(rng, 100, 10_000, 21_000_000), [],
        "-", "wqtest_unbound(destroyed)", "wqt_unbound_fn [wqtest]"),
    # a destroyed instance still under its id, next to a live one of the name
    row(3, spread(rng, 3, 15_000, 19_000), spread(rng, 3, 20_000_000, 26_000_000), [],
        "9a8b7c6d", "wqtest_ordered(destroyed)", "wqt_behind_fn [wqtest]"),
    row(5, spread(rng, 5, 15_000, 19_000), spread(rng, 5, 2_000, 3_000), [],
        "0c0ffee0", "wqtest_ordered", "wqt_behind_fn [wqtest]"),
    # the function of a module that has gone
    row(12, spread(rng, 12, 800, 90_000), spread(rng, 12, 900, 5_000), spread(rng, 12, 1_000_000, 4_000_000),
        "db7cd3e0", "events", "wqold_fn [wqold](unloaded)"),
    # a name with a quote, a backslash and a byte that is not UTF-8
    row(1000, spread(rng, 1000, 1_500, 90_000), spread(rng, 1000, 1_000, 80_000), [],
        "4f00ba11", "events_unbound", 'odd"fn\\x [m\xffod]'),
    # barrier items: executions without an enqueue, no latency sample
    row(0, spread(rng, 192, 5_000, 390_000), [], [], "1b0809e7", "wqtest", "wq_barrier_func"),
    # under 64 ns, and past the last finite bucket (32 s)
    row(40, spread(rng, 40, 20, 60), spread(rng, 40, 30, 120), [], "8f51643b", "mm_percpu_wq",
        "vmstat_update"),
    row(1, [40_500_000_000], [1_000], [], "1b0809e7", "wqtest", "wqt_forever_fn [wqtest]"),
]
rows.sort(key=lambda r: -int(r.split()[3].replace(".", "")))
head = """# enabled: 1
# rows: %d of 1024
# dropped: 0 events (table full)
# merged: 4 retired rows
# evicted: 0 retired rows (0 events)
# lost pairs: 2 (pairing tables full)
# unmatched: 192 executions without an enqueue
# since reset: 12.345 s
# resets: 1
# memory: 4075520 bytes
QUEUED EXECUTED CANCELLED TOTAL_RUN_us AVG_RUN_us MIN_RUN_us MAX_RUN_us P99_RUN_us AVG_LAT_us \
MAX_LAT_us P99_LAT_us LATE_N AVG_LATE_us MAX_LATE_us TOTAL_LAT_us RUN_BUCKETS LAT_BUCKETS WQ_ID \
WORKQUEUE FUNCTION
""" % len(rows)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hist.table")
with open(out, "wb") as f:
    f.write((head + "\n".join(rows) + "\n").encode("latin-1"))
