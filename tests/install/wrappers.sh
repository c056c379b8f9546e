#!/bin/bash
# The compiler wrappers and oshrun answer the queries build systems make the
# Open MPI way (--showme:*) and the MPICH way (-show, -compile-info,
# -link-info), and a program built from the answered pieces runs.
# usage: wrappers.sh PREFIX SOURCE_DIR VERSION   (PREFIX: an install or the build tree)
set -euo pipefail
prefix=$1
src=$2
version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for tool in oshcc oshc++ oshCC; do
    w=$prefix/bin/$tool
    inc=$("$w" --showme:incdirs)
    lib=$("$w" --showme:libdirs)
    [ -f "$inc/shmem.h" ] || fail "$tool --showme:incdirs gave '$inc', which has no shmem.h"
    [ -e "$lib/libshoal.so" ] || fail "$tool --showme:libdirs gave '$lib', which has no libshoal.so"
    [ "$("$w" --showme:compile)" = "-I$inc" ] || fail "$tool --showme:compile"
    case " $("$w" --showme:link) " in
        *" -L$lib "*" -lshoal "*) ;;
        *) fail "$tool --showme:link lacks -L$lib ... -lshoal: $("$w" --showme:link)" ;;
    esac
    [ "$("$w" --showme:libs)" = "shoal pthread m" ] || fail "$tool --showme:libs"
    cc=$("$w" --showme:command)
    for q in --showme -show -link-info; do
        [ "$("$w" $q -O2 a.c)" = "$cc -I$inc -O2 a.c $("$w" --showme:link)" ] ||
            fail "$tool $q printed: $("$w" $q -O2 a.c)"
    done
    [ "$("$w" -compile-info -c a.c)" = "$cc -I$inc -c a.c" ] || fail "$tool -compile-info"
    out=$("$w" --version)
    own=$("$cc" --version)
    [ "${out##*$'\n'}" = "$tool: Shoal $version (OpenSHMEM 1.6) wrapper around $cc" ] || fail "$tool --version: $out"
    [ "${out%%$'\n'*}" = "${own%%$'\n'*}" ] || fail "$tool --version does not start with the compiler's own first line"
    echo "ok: $tool queries"
done

# What a Makefile does with the answers: compile and link in two steps.
cc $("$prefix/bin/oshcc" --showme:compile) -c -o "$tmp/hello.o" "$src/examples/hello.c"
cc -o "$tmp/hello" "$tmp/hello.o" $("$prefix/bin/oshcc" --showme:link)
"$prefix/bin/oshrun" -np 3 "$tmp/hello" | grep "sum 6 (expected 6)" >/dev/null || fail "program built from --showme:compile/link"
c++ $("$prefix/bin/oshc++" --showme:compile) -x c++ -o "$tmp/hello_cxx" "$src/examples/hello.c" \
    $("$prefix/bin/oshc++" --showme:link)
"$prefix/bin/oshrun" -np 2 "$tmp/hello_cxx" | grep "sum 3 (expected 3)" >/dev/null || fail "C++ program built from oshc++ --showme"
echo "ok: programs built from the wrapper's answers"

[ "$("$prefix/bin/oshrun" --version)" = "oshrun (Shoal $version, OpenSHMEM 1.6)" ] || fail "oshrun --version"
"$prefix/bin/oshrun" -V | grep -F "Shoal $version" >/dev/null || fail "oshrun -V"
echo "ok: oshrun --version"
