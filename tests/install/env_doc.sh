#!/bin/bash
# docs/ENVIRONMENT.md is generated from src/core/env.def and must be
# current, and oshinfo must print every variable.
set -euo pipefail
src=$1
oshinfo=$2
"$src/scripts/gen-env-doc" --check
missing=0
# once, into a variable: `oshinfo | grep -q` under pipefail fails whenever
# grep stops reading early and oshinfo gets SIGPIPE
table=$("$oshinfo")
for var in $(grep -o '^SHOAL_ENV([A-Z_0-9]*' "$src/src/core/env.def" | cut -d'(' -f2); do
    grep -q "^$var " <<<"$table" || { echo "oshinfo lacks $var"; missing=1; }
done
exit "$missing"
