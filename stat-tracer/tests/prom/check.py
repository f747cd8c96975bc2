#!/usr/bin/env python3
"""Checks of the Prometheus output of wqstat, for tests/prom.sh.

  check.py lint FILE          strict text format 0.0.4: each family written
                              once, no duplicate series, finite values,
                              histograms cumulative with one set of bounds
  check.py buckets TABLE FILE the histograms of FILE are the buckets of the
                              workqueues_hist TABLE, mapped to the fixed bounds
  check.py same FILE SCRAPE   node_exporter's SCRAPE serves the wqstat series
                              of FILE with the same values, no more, no less
  check.py value FILE NAME LABEL=VALUE...   the value of one series
  check.py p99 TABLE FUNCTION WQ_ID COLUMN  the log2 interval [lo, hi] (in
                              seconds) that holds the row's COLUMN (P99_RUN_us)
  check.py median TABLE       the log2 interval of the median of every run
                              time sample of the table, all rows together

Exit 0 when the check holds, 1 with the problems on stdout otherwise.
"""
import math
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}
UNIT = 64
NR_LE = 30


class Bad(Exception):
    pass


def parse_labels(s, pos, ln):
    """labels from s[pos] == '{' to the '}'; returns (dict, pos after '}')"""
    labels = {}
    pos += 1
    while True:
        while pos < len(s) and s[pos] == " ":
            pos += 1
        if pos < len(s) and s[pos] == "}":
            return labels, pos + 1
        m = LABEL.match(s, pos)
        if not m:
            raise Bad("line %d: bad label name at column %d" % (ln, pos + 1))
        name = m.group(0)
        pos = m.end()
        if s[pos:pos + 2] != '="':
            raise Bad("line %d: label %s: no =\"" % (ln, name))
        pos += 2
        val = []
        while True:
            if pos >= len(s):
                raise Bad("line %d: unterminated label value" % ln)
            c = s[pos]
            if c == "\\":
                e = s[pos + 1:pos + 2]
                if e not in ("\\", '"', "n"):
                    raise Bad("line %d: bad escape \\%s" % (ln, e))
                val.append("\n" if e == "n" else e)
                pos += 2
            elif c == '"':
                pos += 1
                break
            elif c == "\n":
                raise Bad("line %d: newline in a label value" % ln)
            else:
                val.append(c)
                pos += 1
        if name in labels:
            raise Bad("line %d: label %s twice" % (ln, name))
        labels[name] = "".join(val)
        if pos < len(s) and s[pos] == ",":
            pos += 1
        elif pos < len(s) and s[pos] == "}":
            return labels, pos + 1
        else:
            raise Bad("line %d: expected , or } after label %s" % (ln, name))


def parse_value(v, ln):
    if v in ("+Inf", "Inf"):
        return math.inf
    if v == "-Inf":
        return -math.inf
    if v == "NaN":
        return math.nan
    try:
        return float(v)
    except ValueError:
        raise Bad("line %d: bad value %r" % (ln, v))


def parse(text, strict=True):
    """samples [(name, labels, value)], types {family: type}; raise Bad"""
    samples, types, helps = [], {}, {}
    done = set()            # families that are over
    cur, started = None, False  # the family being written, and if a sample of it was
    for ln, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            f = line.split(None, 3)
            if len(f) >= 3 and f[1] in ("HELP", "TYPE"):
                name = f[2]
                if not NAME.fullmatch(name):
                    raise Bad("line %d: bad metric name %r" % (ln, name))
                seen = helps if f[1] == "HELP" else types
                if name in seen:
                    raise Bad("line %d: second %s for %s" % (ln, f[1], name))
                if strict:
                    if name in done or (name == cur and started):
                        raise Bad("line %d: %s of %s after its samples" % (ln, f[1], name))
                    if name != cur:
                        done.add(cur)
                        cur, started = name, False
                if f[1] == "TYPE":
                    if len(f) != 4 or f[3] not in TYPES:
                        raise Bad("line %d: bad TYPE line" % ln)
                    types[name] = f[3]
                else:
                    helps[name] = f[3] if len(f) > 3 else ""
            continue
        m = NAME.match(line)
        if not m:
            raise Bad("line %d: no metric name" % ln)
        name, pos = m.group(0), m.end()
        labels = {}
        if pos < len(line) and line[pos] == "{":
            labels, pos = parse_labels(line, pos, ln)
        rest = line[pos:].split()
        if len(rest) not in (1, 2) or line[pos:pos + 1] != " ":
            raise Bad("line %d: expected one value after the series" % ln)
        if len(rest) == 2:
            raise Bad("line %d: a timestamp (node_exporter refuses them)" % ln)
        value = parse_value(rest[0], ln)
        fam = name
        for suf in ("_bucket", "_sum", "_count"):
            if name.endswith(suf) and types.get(name[:-len(suf)]) in ("histogram", "summary"):
                fam = name[:-len(suf)]
        if strict:
            if fam in done:
                raise Bad("line %d: %s again, after other families" % (ln, fam))
            if cur != fam:
                done.add(cur)
                cur = fam
            started = True
        samples.append((name, labels, value, fam))
    return samples, types


def key(name, labels):
    return (name, tuple(sorted(labels.items())))


def lint(path):
    text = open(path, encoding="utf-8", errors="strict").read()
    problems = []
    samples, types = parse(text)
    seen = {}
    for name, labels, value, fam in samples:
        k = key(name, labels)
        if k in seen:
            problems.append("duplicate series %s%s (values %r and %r)" %
                            (name, dict(k[1]), seen[k], value))
        seen[k] = value
        if not math.isfinite(value) and not (name.endswith("_bucket") and
                                             labels.get("le") == "+Inf"):
            problems.append("%s%s is %r" % (name, labels, value))
        if fam not in types:
            problems.append("%s has no TYPE" % fam)
    # histograms: per series, cumulative buckets ending in +Inf == _count
    for fam, t in types.items():
        if t != "histogram":
            continue
        series = {}
        for name, labels, value, f in samples:
            if f != fam:
                continue
            rest = tuple(sorted((a, b) for a, b in labels.items() if a != "le"))
            s = series.setdefault(rest, {"le": [], "sum": None, "count": None})
            if name == fam + "_bucket":
                s["le"].append((labels["le"], value))
            elif name == fam + "_sum":
                s["sum"] = value
            elif name == fam + "_count":
                s["count"] = value
        lesets = set()
        for rest, s in series.items():
            les = [float(le) for le, _ in s["le"]]
            counts = [c for _, c in s["le"]]
            lesets.add(tuple(le for le, _ in s["le"]))
            if les != sorted(les) or not les or les[-1] != math.inf:
                problems.append("%s%s: le not ascending to +Inf" % (fam, dict(rest)))
            if counts != sorted(counts):
                problems.append("%s%s: buckets not cumulative" % (fam, dict(rest)))
            if s["count"] is None or s["sum"] is None:
                problems.append("%s%s: no _sum or _count" % (fam, dict(rest)))
            elif counts and counts[-1] != s["count"]:
                problems.append("%s%s: +Inf %r != _count %r" % (fam, dict(rest), counts[-1],
                                                                s["count"]))
        if len(lesets) > 1:
            problems.append("%s: %d different sets of le bounds" % (fam, len(lesets)))
    return problems


def read_table(path):
    """the rows of a workqueues table as dicts, column name -> text"""
    rows, cols = [], None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if cols is None:
                cols = line.split()
                continue
            tok = line.split()
            r = dict(zip(cols[:-1], tok[:len(cols) - 1]))
            # FUNCTION is the rest of the line
            r["FUNCTION"] = line.split(None, len(cols) - 1)[-1]
            rows.append(r)
    return rows


def us_to_ns(s):
    i, _, f = s.partition(".")
    return int(i) * 1000 + int((f + "000")[:3])


def kernel_buckets(col):
    """[(le_ns or None for inf, count)]"""
    if col == "-":
        return []
    out = []
    for b in col.split(","):
        le, _, n = b.partition(":")
        out.append((None if le == "inf" else int(le), int(n)))
    return out


def fixed_index(le):
    """index of the smallest fixed bound >= le ns; NR_LE for +Inf"""
    if le is None:
        return NR_LE
    for k in range(NR_LE):
        if UNIT << k >= le:
            return k
    return NR_LE


def strip(s, suffix):
    return s[:-len(suffix)] if s.endswith(suffix) else s


def buckets(table, path):
    samples, _ = parse(open(path, encoding="utf-8").read())
    byk = {key(n, l): v for n, l, v, _ in samples}
    problems = []
    checked = 0
    for r in read_table(table):
        labels = {"workqueue": strip(r["WORKQUEUE"], "(destroyed)"),
                  "function": strip(r["FUNCTION"], "(unloaded)"),
                  "wq_id": r["WQ_ID"],
                  "destroyed": "true" if r["WORKQUEUE"].endswith("(destroyed)") else "false",
                  "unloaded": "true" if r["FUNCTION"].endswith("(unloaded)") else "false"}
        for fam, col, tot in (("wqstat_run_seconds", "RUN_BUCKETS", "TOTAL_RUN_us"),
                              ("wqstat_latency_seconds", "LAT_BUCKETS", "TOTAL_LAT_us")):
            per = [0] * (NR_LE + 1)
            for le, n in kernel_buckets(r[col]):
                per[fixed_index(le)] += n
            cum = 0
            for k in range(NR_LE + 1):
                cum += per[k]
                # the shortest form that reads back, as Python's repr
                le = "+Inf" if k == NR_LE else repr((UNIT << k) / 1e9)
                got = byk.get(key(fam + "_bucket", dict(labels, le=le)))
                if got != cum:
                    problems.append("%s %s le=%s: %r, want %d" % (fam, labels, le, got, cum))
                checked += 1
            want_sum = us_to_ns(r[tot]) / 1e9
            got = byk.get(key(fam + "_sum", labels))
            if got is None or abs(got - want_sum) > 1e-9:
                problems.append("%s_sum %s: %r, want %r" % (fam, labels, got, want_sum))
            got = byk.get(key(fam + "_count", labels))
            if got != cum:
                problems.append("%s_count %s: %r, want %d" % (fam, labels, got, cum))
    if not checked:
        problems.append("no bucket checked")
    return problems


def same(path, scrape):
    mine, _ = parse(open(path, encoding="utf-8").read())
    theirs, _ = parse(open(scrape, encoding="utf-8").read(), strict=False)

    def norm(samples):
        out = {}
        for n, l, v, _ in samples:
            if not n.startswith("wqstat_"):
                continue
            # an empty label is no label: node_exporter gives every series
            # of a family all its label names (dup="" where there is no dup)
            l = {a: b for a, b in l.items() if b != ""}
            if "le" in l:
                l["le"] = repr(float(l["le"]))
            k = key(n, l)
            out.setdefault(k, []).append(v)
        return out
    a, b = norm(mine), norm(theirs)
    problems = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            problems.append("%s%s: file %r, node_exporter %r" % (k[0], dict(k[1]), a.get(k),
                                                                 b.get(k)))
    if not a:
        problems.append("no wqstat series in %s" % path)
    return problems


def log2_interval(ns):
    """[lo, hi] in seconds: the fixed bucket (64 ns * 2^k) that holds ns"""
    if ns < UNIT:
        return 0.0, UNIT / 1e9
    k = (ns // UNIT).bit_length() - 1
    return (UNIT << k) / 1e9, (UNIT << (k + 1)) / 1e9


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "lint" and len(argv) == 3:
        try:
            problems = lint(argv[2])
        except (Bad, UnicodeDecodeError) as e:
            problems = [str(e)]
    elif cmd == "buckets" and len(argv) == 4:
        problems = buckets(argv[2], argv[3])
    elif cmd == "same" and len(argv) == 4:
        try:
            problems = same(argv[2], argv[3])
        except Bad as e:
            problems = [str(e)]
    elif cmd == "value" and len(argv) >= 4:
        samples, _ = parse(open(argv[2], encoding="utf-8").read(), strict=False)
        want = dict(a.split("=", 1) for a in argv[4:])
        vals = [v for n, l, v, _ in samples if n == argv[3] and
                all(l.get(a) == b for a, b in want.items())]
        if len(vals) != 1:
            print("%d series match" % len(vals))
            return 1
        print("%.17g" % vals[0])
        return 0
    elif cmd == "p99" and len(argv) == 6:
        rows = [r for r in read_table(argv[2]) if r["FUNCTION"] == argv[3] and
                r.get("WQ_ID") == argv[4]]
        if len(rows) != 1:
            print("%d rows match" % len(rows))
            return 1
        lo, hi = log2_interval(us_to_ns(rows[0][argv[5]]))
        print("%s %r %r" % (rows[0][argv[5]], lo, hi))
        return 0
    elif cmd == "median" and len(argv) == 3:
        per = [0] * (NR_LE + 1)
        for r in read_table(argv[2]):
            for le, n in kernel_buckets(r["RUN_BUCKETS"]):
                per[fixed_index(le)] += n
        rank, cum = 0.5 * sum(per), 0
        for k in range(NR_LE + 1):
            cum += per[k]
            if cum >= rank:
                break
        lo = 0.0 if k == 0 else (UNIT << (k - 1)) / 1e9
        hi = (UNIT << k) / 1e9
        print("%r %r" % (lo, hi))
        return 0
    else:
        print(__doc__)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
