#!/bin/bash
# docs/ENVIRONMENT.md must name every variable of src/core/env.def, and
# oshinfo must print every one of them.
set -euo pipefail
src=$1
oshinfo=$2
missing=0
for var in $(grep -o '^SHOAL_ENV([A-Z_0-9]*' "$src/src/core/env.def" | cut -d'(' -f2); do
    grep -q "\`$var\`" "$src/docs/ENVIRONMENT.md" || { echo "docs/ENVIRONMENT.md lacks $var"; missing=1; }
    "$oshinfo" | grep -q "^$var " || { echo "oshinfo lacks $var"; missing=1; }
done
[ "$missing" = 0 ] && echo "ok: every variable documented"
exit "$missing"
