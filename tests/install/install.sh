#!/bin/bash
# Installs Shoal into a temporary prefix and builds a program the ways a user
# would: the installed oshcc (shared and -static), pkg-config, and a CMake
# project with find_package(Shoal); each program runs on 3 PEs.
# usage: install.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1
src=$2
version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/oshcc bin/oshc++ bin/oshrun bin/oshinfo bin/oshtune bin/oshtune_probe include/shmem.h include/shmemx.h include/pshmem.h \
         include/mpp/shmem.h include/mpp/shmemx.h; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# The include directory holds the public headers and nothing else (it once
# received the build directory's CMakeFiles/, Makefile, cmake_install.cmake).
want="mpp/shmem.h mpp/shmemx.h pshmem.h shmem.h shmemx.h"
got=$(cd "$prefix/include" && find . -mindepth 1 ! -type d | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || { echo "FAIL: installed include/ holds '$got', want '$want'"; exit 1; }
echo "ok: include/ holds only the headers"
libdir=$(dirname "$(find "$prefix" -name 'libshoal.so' | head -n1)")
[ -f "$libdir/libshoal.a" ] || { echo "FAIL: libshoal.a not installed"; exit 1; }

run() { "$prefix/bin/oshrun" -np 3 "$@" | grep "sum 6 (expected 6)" >/dev/null || { echo "FAIL: $* gave a wrong result"; exit 1; }; }

"$prefix/bin/oshcc" -O2 -o "$tmp/hello" "$src/examples/hello.c"
run "$tmp/hello"
echo "ok: installed oshcc"
"$(dirname "$0")/wrappers.sh" "$prefix" "$src" "$version" | sed 's/^ok: /ok: installed /'

# Fully static programs need every dependency as an archive; Debian ships no
# static PSM/verbs libraries, so only a build without libfabric and PMIx
# (-DSHOAL_WITH_OFI=OFF -DSHOAL_WITH_PMIX=OFF) links with -static.
if nm "$libdir/libshoal.a" 2>/dev/null | grep -E " U (fi_getinfo|PMIx_Init)$" >/dev/null; then
    echo "skipped: oshcc -static (this build links libfabric/PMIx, which have no static archives here)"
else
    "$prefix/bin/oshcc" -O2 -static -o "$tmp/hello_static" "$src/examples/hello.c" 2>"$tmp/static.err"
    run "$tmp/hello_static"
    echo "ok: installed oshcc -static"
fi

PKG_CONFIG_PATH=$libdir/pkgconfig cc -O2 -o "$tmp/hello_pc" "$src/examples/hello.c" \
    $(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs shoal) -Wl,-rpath,"$libdir"
run "$tmp/hello_pc"
echo "ok: pkg-config"

mkdir -p "$tmp/proj"
cp "$src/examples/hello.c" "$tmp/proj/"
cat >"$tmp/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(user C)
find_package(Shoal REQUIRED)
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE Shoal::shoal)
CM
cmake -S "$tmp/proj" -B "$tmp/proj/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/proj/b" >/dev/null
run "$tmp/proj/b/hello"
echo "ok: find_package(Shoal)"

"$(dirname "$0")/man.sh" "$prefix/share/man" "$src" | sed 's/^ok: /ok: installed /'

"$prefix/bin/oshinfo" | grep SHMEM_SYMMETRIC_SIZE >/dev/null || { echo "FAIL: oshinfo"; exit 1; }
echo "ok: oshinfo"
"$prefix/bin/oshtune" --help | grep -q "tuning rules" || { echo "FAIL: oshtune --help"; exit 1; }
"$prefix/bin/oshtune" --quick --kinds reduce --np 2 --out "$tmp/t.rules" 2>/dev/null >/dev/null &&
    SHOAL_TUNING_FILE=$tmp/t.rules "$prefix/bin/oshrun" -np 2 "$prefix/bin/oshtune_probe" reduce 8 >/dev/null ||
    { echo "FAIL: installed oshtune"; exit 1; }
echo "ok: installed oshtune (its probe beside it, the rules read)"
