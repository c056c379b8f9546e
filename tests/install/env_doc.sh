#!/bin/bash
# docs/ENVIRONMENT.md is generated from src/core/env.def and must be
# current, and oshinfo must print every variable.
set -euo pipefail
src=$1
oshinfo=$2
"$src/scripts/gen-env-doc" --check
missing=0
for var in $(grep -o '^SHOAL_ENV([A-Z_0-9]*' "$src/src/core/env.def" | cut -d'(' -f2); do
    "$oshinfo" | grep -q "^$var " || { echo "oshinfo lacks $var"; missing=1; }
done
exit "$missing"
