#!/usr/bin/env python3
"""Chooses a small corpus: the inputs that cover the most edges per byte.

`cargo fuzz cmin` keeps every input that adds a feature, hit counts and
comparisons included, which after an hour's campaign is megabytes. This reads
the control file of a libFuzzer merge run with edges only and prints, one a
line, the inputs a greedy weighted set cover picks until the edges are all
covered or the byte budget is spent (docs/fuzzing.md, "Corpora"):

    T=log; B=./target/x86_64-unknown-linux-gnu/release/$T
    mkdir -p /tmp/empty && $B -merge=1 -use_counters=0 -use_cmp=0 \\
        -merge_control_file=/tmp/$T.ctl /tmp/empty corpus/$T /tmp/campaign-$T
    python3 select-corpus.py /tmp/$T.ctl 100000 > /tmp/$T.pick

Run it from the directory the merge ran in (the control file's paths are
relative to it).
"""
import os
import sys

OVERHEAD = 64  # per file, so that many tiny files are not free


def main() -> None:
    ctl, budget = sys.argv[1], int(sys.argv[2])
    lines = open(ctl).read().split("\n")
    n = int(lines[0])
    files = lines[2 : 2 + n]
    cov = {}
    for line in lines[2 + n :]:
        if line.startswith("COV "):
            parts = line.split()
            cov[int(parts[1])] = set(map(int, parts[2:]))
    size = {i: os.path.getsize(files[i]) + OVERHEAD for i in cov}
    want = set().union(*cov.values())
    got, total = set(), 0
    for _ in range(len(cov)):
        best = max(cov, key=lambda i: len(cov[i] - got) / size[i])
        gain = cov[best] - got
        if not gain or total + size[best] > budget:
            break
        got |= gain
        total += size[best]
        print(files[best])
    print(f"covers {len(got)} of {len(want)} edges in {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
