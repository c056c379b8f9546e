#!/bin/sh
# compare.sh RUNS 'COMMAND A' 'COMMAND B': runs A and B alternately RUNS
# times each (A B A B ...); each prints ns per call; prints the median of
# each and the median of the pairwise ratios A/B.
runs=$1 a=$2 b=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ $i -lt "$runs" ]; do
    printf "%s %s\n" "$(sh -c "$a" | tail -1)" "$(sh -c "$b" | tail -1)" >> "$out"
    i=$((i + 1))
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 2]
a, b = [r[0] for r in rows], [r[1] for r in rows]
r = sorted(x / y for x, y in rows)
print("A median %.2f ns (min %.2f max %.2f)" % (statistics.median(a), min(a), max(a)))
print("B median %.2f ns (min %.2f max %.2f)" % (statistics.median(b), min(b), max(b)))
print("A/B pairwise ratio: median %.3f (min %.3f max %.3f, %d pairs)" % (statistics.median(r), r[0], r[-1], len(r)))
PY
