#!/bin/bash
# Failures must be clear (issue 7): run a broken multi-host job and check
# that it ends quickly, non-zero, with a message that names the PE or the fix.
#   failures.sh RUN_MH PROGRAM dies|unreachable|noprovider|noatomics [RUN_MH OPTIONS...]
#   failures.sh RUN_MH PROGRAM memlock|nofile|nofile-raised [RUN_MH OPTIONS...]
#       the operating system's limits (ofi_limits.c): a locked-memory limit
#       below the heap stops init when registration pins (forced here: tcp
#       does not pin); a nofile limit too small for a socket per PE is
#       reported but the job runs; a soft limit below the hard one is raised
#       silently
#   failures.sh RUN_MH PROGRAM memlock-lazy|memlock-grow [RUN_MH OPTIONS...]
#       the heap registered in chunks as it is used (ofi_mr.c), pinning
#       forced, under an 8 MiB limit: a job that uses little of its 1 GiB heap
#       runs (mh_chunks 0); one that grows past the limit stops in
#       shmem_malloc naming it (mh_chunks 12); skipped when the hard limit
#       is below 8 MiB
#   failures.sh RUN_MH PROGRAM dies-in COLL PE [RUN_MH OPTIONS...]
#       PE dies in the middle of an active-set COLL (reduce, bcast, fcollect,
#       barrier) across 2 hosts x 3 (block): PE 3 leads the second host, PE 4 does not
#   failures.sh RUN_MH PROGRAM abort-hangs [RUN_MH OPTIONS...]
#       PE 3 calls shmem_global_exit and the launcher never answers its
#       abort (libabort_hangs.so, preloaded, makes PMIx_Abort block): the PE
#       still ends itself, and the job with it
# The options go to every run (e.g. --launcher hydra -x SHOAL_BOOTSTRAP=pmi2).
set -u
run_mh=$1 prog=$2 what=$3
shift 3
if [ "$what" = dies-in ]; then
    coll=$1 victim=$2
    shift 2
fi
extra=("$@")
dir=$(dirname "$prog")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
case "$what" in
dies)
    "$run_mh" --ppn 2,2 --timeout 60 "${extra[@]}" -- "$dir/mh_die" >"$out" 2>&1
    rc=$?
    want='(process rank 3 .*(exited|killed)|PE 3 .*(died|failed|unreachable))'
    # hydra names the dead process by pid and host only, and kills the
    # others before they could say more (DESIGN.md, "PE deaths under hydra").
    [[ " ${extra[*]} " == *" hydra "* ]] && want='PID [0-9]+ RUNNING AT 10\.77\.' ;;
abort-hangs)
    "$run_mh" --ppn 2,2 --timeout 60 -x LD_PRELOAD="$dir/libabort_hangs.so" "${extra[@]}" -- "$dir/mh_die" exit \
        >"$out" 2>&1
    rc=$?
    want='(process rank 3 .*(exited|killed|signal)|PE 3 .*(died|failed|unreachable))' ;;
dies-in)
    "$run_mh" --ppn 3,3 --timeout 60 "${extra[@]}" -- "$dir/mh_die" "$coll" "$victim" >"$out" 2>&1
    rc=$?
    want="(process rank $victim .*(exited|killed)|PE $victim .*(died|failed|unreachable))" ;;
memlock)
    (ulimit -l 64 && "$run_mh" --ppn 1,1 --timeout 60 -x SHOAL_OFI_MR_PINS=on "${extra[@]}" -- "$prog") >"$out" 2>&1
    rc=$?
    want='PE [01]: shmem_init: libfabric .* pins registered memory, .* exceed the locked-memory limit \(RLIMIT_MEMLOCK, ulimit -l: 64 KiB' ;;
memlock-lazy | memlock-grow)
    hard=$(ulimit -Hl)
    [ "$hard" != unlimited ] && [ "$hard" -lt 8192 ] && { echo "failures.sh: hard memlock limit $hard KiB < 8 MiB; skipped"; exit 77; }
    mib=0
    [ "$what" = memlock-grow ] && mib=12
    (ulimit -l 8192 && "$run_mh" --ppn 1,1 --timeout 60 -x SHOAL_OFI_MR_PINS=on -x SHOAL_OFI_MR_CHUNK=1m \
        -x SHMEM_TEAMS_MAX=8 "${extra[@]}" -- "$dir/mh_chunks" $mib) >"$out" 2>&1
    rc=$?
    if [ "$what" = memlock-lazy ]; then
        [ $rc = 0 ] && rc=succeeded
        want='mh_chunks: 2 PEs OK'
    else
        want="PE [01]: shmem_malloc: libfabric .* pins registered memory, and the global data and the heap's chunks in use \\([0-9.]+ MiB\\) exceed the locked-memory limit \\(RLIMIT_MEMLOCK, ulimit -l: 8 MiB"
    fi ;;
nofile)
    (ulimit -n 60 && "$run_mh" --ppn 2,2 --timeout 60 "${extra[@]}" -- "$prog") >"$out" 2>&1
    rc=$?
    [ $rc = 0 ] && rc=succeeded
    want='Shoal warning: PE [02]: shmem_init: .* needs about 68 open files per PE .* is 60' ;;
nofile-raised)
    (ulimit -Sn 60 && "$run_mh" --ppn 2,2 --timeout 60 "${extra[@]}" -- "$prog") >"$out" 2>&1
    rc=$?
    [ $rc = 0 ] && ! grep -q 'open files' "$out" && rc=succeeded
    want='mh_rma: 4 PEs OK' ;;
unreachable)
    # Host 2's PEs publish an address on a link nobody else can route to.
    "$run_mh" --ppn 1,1,1 --timeout 60 --unreachable-host 3 -x SHOAL_OFI_CONNECT_TIMEOUT=10 "${extra[@]}" -- "$prog" >"$out" 2>&1
    rc=$?
    want='cannot reach PE 2 \(host 2, .*\).*FI_TCP_IFACE' ;;
noprovider)
    "$run_mh" --ppn 1,1 --timeout 60 -x SHMEM_OFI_PROVIDER=no-such-provider "${extra[@]}" -- "$prog" >"$out" 2>&1
    rc=$?
    want='no libfabric provider matching no-such-provider.*SHMEM_OFI_PROVIDER' ;;
noatomics)
    # The provider's own atomics asked of one that has none (net).
    "$run_mh" --ppn 1,1 --timeout 60 -x SHMEM_OFI_PROVIDER=net -x SHOAL_OFI_ATOMICS=native "${extra[@]}" -- "$prog" \
        >"$out" 2>&1
    rc=$?
    want='PE [01]: shmem_init: libfabric provider net cannot do .*SHOAL_OFI_ATOMICS=native.*SHOAL_OFI_ATOMICS=auto' ;;
*) echo "failures.sh: unknown case $what" >&2; exit 2 ;;
esac
took=$(($(date +%s) - start))
cat "$out"
[ $rc = 77 ] && exit 77
if [ $rc = succeeded ]; then   # the cases whose job must run to the end
    grep -Eq "$want" "$out" || { echo "failures.sh: $what: no message matching /$want/" >&2; exit 1; }
    echo "failures.sh: $what: ran, with the expected message"
    exit 0
fi
if [ $rc = 0 ]; then
    echo "failures.sh: $what: the job succeeded but should have failed" >&2
    exit 1
fi
if ! grep -Eq "$want" "$out"; then
    echo "failures.sh: $what: no message matching /$want/" >&2
    exit 1
fi
if [ $took -gt 45 ]; then
    echo "failures.sh: $what: took ${took}s to end" >&2
    exit 1
fi
echo "failures.sh: $what: ended in ${took}s with the expected message"
