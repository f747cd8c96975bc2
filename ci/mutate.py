#!/usr/bin/env python3
"""ci/mutate.py MUTANT ROOT: apply one mutant of ci/mutants/ to the file it
names under ROOT.  The mutant's "from:" must match exactly one line (its
text without the leading whitespace), or the "nth:" one of its matches;
the line keeps its indentation and gets the "to:" text.  Prints the file
changed and the line number; exit 1 with a reason when it does not apply,
so that a mutant cannot go stale silently when the code moves on."""
import sys


def die(msg):
    print("mutate: %s: %s" % (sys.argv[1], msg), file=sys.stderr)
    sys.exit(1)


def main():
    spec = {}
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, sep, val = line.partition(": ")
            if not sep or key not in ("file", "from", "to", "nth", "tests", "kernel"):
                die("not a 'key: value' line of file/from/to/nth/tests/kernel: %r" % line)
            if key in spec:
                die("%s: given twice" % key)
            spec[key] = val
    for key in ("file", "from", "to", "tests"):
        if key not in spec:
            die("no %s: line" % key)
    if spec["from"] == spec["to"]:
        die("from: and to: are the same")
    path = sys.argv[2] + "/" + spec["file"]
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    hits = [i for i, l in enumerate(lines) if l.strip() == spec["from"].strip()]
    nth = int(spec.get("nth", "0"))
    if nth:
        if nth > len(hits):
            die("%d matches of the from: line in %s, nth: %d" % (len(hits), spec["file"], nth))
        i = hits[nth - 1]
    elif len(hits) != 1:
        die("the from: line matches %d lines of %s, not one (add nth:)" % (len(hits), spec["file"]))
    else:
        i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + spec["to"].strip() + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    print("%s:%d" % (spec["file"], i + 1))


main()
