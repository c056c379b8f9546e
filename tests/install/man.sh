#!/bin/bash
# Every routine the spec requires (tests/api/symbols_v1.6.txt) has a manual
# page, its own or a .so link to its family's page, every link lands on a
# page, and `man -M MANDIR shmem_put` renders the family page with the
# typed forms' type table.
# usage: man.sh MANDIR SOURCE_DIR
set -euo pipefail
mandir=$1
src=$2
fail() { echo "FAIL: $*"; exit 1; }
man3=$mandir/man3
[ -d "$man3" ] || fail "no $man3 (the manual pages were not generated or installed)"

missing=$(grep -v '^#' "$src/tests/api/symbols_v1.6.txt" | awk 'NF {print $1}' |
          while read -r sym; do [ -f "$man3/$sym.3" ] || echo "$sym"; done)
[ -z "$missing" ] || fail "routines without a manual page: $(echo $missing | head -c 400)"
echo "ok: $(grep -v '^#' "$src/tests/api/symbols_v1.6.txt" | awk 'NF' | wc -l) routines have a page"

for page in "$man3"/*.3; do
    target=$(sed -n 's/^\.so //p' "$page")
    [ -z "$target" ] || [ -f "$mandir/$target" ] || fail "$(basename "$page") points to missing $target"
done
echo "ok: every .so link lands on a page"

# Render as a user would; groff alone when man is not installed.
render() {
    if command -v man >/dev/null; then
        MANPAGER=cat MANWIDTH=100 man -M "$mandir" "$1" 2>/dev/null
    elif command -v groff >/dev/null; then
        (cd "$mandir" && groff -t -man -Tutf8 -P-c "man3/$1.3" 2>/dev/null)
    else
        return 77
    fi
}
if ! command -v man >/dev/null && ! command -v groff >/dev/null; then
    echo "skipped: rendering (neither man nor groff is installed)"
    exit 0
fi
out=$(render shmem_put)
for want in "shmem_put - " "void shmem_TYPENAME_put(TYPE *dest" "shmem_ctx_putmem" "long long" "longlong"; do
    grep -F -- "$want" <<<"$out" >/dev/null || fail "man shmem_put lacks \"$want\""
done
[ "$(render shmem_long_put)" = "$out" ] || fail "man shmem_long_put does not show the shmem_put page"
grep -E "shmem_team_split_strided +- " <<<"$(render shmem_team_split_strided)" >/dev/null ||
    fail "man shmem_team_split_strided"
echo "ok: man shmem_put, shmem_long_put and shmem_team_split_strided render"
