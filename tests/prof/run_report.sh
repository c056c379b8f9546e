#!/bin/sh
# run_report.sh OSHRUN PROGRAM NPES PYTHON OSHPROF: a profile, then oshprof:
# the summary names the top talkers, the PNGs and the HTML page exist and
# are real (PNG signature, size, every image inlined in the page).
set -e
oshrun=$1 prog=$2 np=$3 py=$4 oshprof=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/shoal-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$oshrun" -np "$np" --profile "$work/prof" "$prog" > /dev/null
"$py" "$oshprof" "$work/prof" -o "$work/report" > "$work/summary"
cat "$work/summary"
grep -q "PE    0 -> PE    1" "$work/summary"
grep -q "shmem_long_sum_reduce" "$work/summary"
"$py" - "$work/report" <<'PY'
import os, sys
d = sys.argv[1]
for name in ["heatmap.png", "wait.png", "collectives.png"]:
    data = open(os.path.join(d, name), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, (name, len(data))
page = open(os.path.join(d, "report.html")).read()
assert page.count("data:image/png;base64,") == 3, "images not inlined"
assert "Top talkers" in page
print("report: 3 PNGs and a self-contained page of %d bytes" % len(page))
PY
