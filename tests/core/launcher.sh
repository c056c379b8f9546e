#!/bin/bash
# Launcher tests: a failing PE takes the job down within a second, oshrun
# exits non-zero naming the PE, no process and no shared memory is left
# behind — also when oshrun itself is killed.
# usage: launcher.sh OSHRUN FAULTY_BINARY
set -u
oshrun=$1
prog=$2
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every job of this script carries a tag in its environment, which oshrun
# passes to its PEs: leftovers are looked for among this script's own
# processes only.  Other tests run the same program at the same time under
# ctest -j, so a search by name (pgrep -x) would find theirs.
tag="launcher-$$-$RANDOM"
run_tagged=(env "LAUNCHER_TEST_TAG=$tag")   # an array, not a function: "& runner=$!" must be oshrun itself
# Live processes only: a killed PE whose parent died is a zombie until init reaps it.
leftovers_now() {
    local f pid state
    for f in $(grep -lzx "LAUNCHER_TEST_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null); do
        pid=${f#/proc/}
        pid=${pid%/environ}
        state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
        case "$state" in Z|X|"") ;; *) echo "$pid" ;; esac
    done
}
# ...allowing them 2 s to go.
leftovers() {
    local left
    for _ in $(seq 20); do
        left=$(leftovers_now)
        [ -z "$left" ] && return
        sleep 0.1
    done
    echo "$left"
}
# Only names a Shoal job could create: other jobs (Open MPI, PMIx) use /dev/shm concurrently.
shm_count() { ls /dev/shm 2>/dev/null | grep -ci shoal; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect NAME WANT_STATUS WANT_MESSAGE_REGEX NP MODE
expect() {
    local name=$1 want=$2 regex=$3 np=$4 mode=$5
    local before=$(shm_count) start=$(date +%s%N)
    "${run_tagged[@]}" ${EXTRA_ENV:-} timeout 20 "$oshrun" -np "$np" "$prog" "$mode" >"$tmp/out" 2>"$tmp/err"
    local got=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$got" = "$want" ] || fail "$name: exit status $got, want $want"
    grep -Eq "$regex" "$tmp/err" || fail "$name: stderr lacks /$regex/: $(cat "$tmp/err")"
    [ -z "$(leftovers)" ] || fail "$name: processes left: $(leftovers)"
    [ "$(shm_count)" -le "$before" ] || fail "$name: /dev/shm grew"
    # A stall, not a speed (each run takes ~0.3 s idle): 5 PEs on 2 cores
    # beside 12 busy loops took up to 3.6 s, and 7.1 s once in a ctest -j2
    # run at load 30; a wait for SHOAL_FINALIZE_TIMEOUT (300 s) or a hang
    # still shows.
    [ "$ms" -lt 15000 ] || fail "$name: took ${ms} ms"
    echo "ok: $name (status $got, ${ms} ms)"
}

expect segv 139 "PE 1 \(pid [0-9]+\) was killed by signal 11" 4 segv
expect exit3 3 "PE 1 exited with status 3" 3 exit3
# No shmem_finalize: the init references left at exit are finalized implicitly
# (a warning under SHMEM_DEBUG), bounded by SHOAL_FINALIZE_TIMEOUT when peers never arrive.
EXTRA_ENV=SHMEM_DEBUG=1 expect no_finalize 0 "PE 2: exit: shmem_finalize was not called for 1 shmem_init" 3 nofin
EXTRA_ENV=SHMEM_DEBUG=1 expect no_finalize_all 0 "PE 4: exit: shmem_finalize was not called" 5 nofin_all
EXTRA_ENV=SHMEM_DEBUG=1 expect exit0 0 "PE 1: exit: shmem_finalize was not called" 4 exit0
EXTRA_ENV=SHMEM_DEBUG=1 expect init_twice 0 "PE 0: exit: shmem_finalize was not called for 1 shmem_init" 3 init2
EXTRA_ENV=SHOAL_FINALIZE_TIMEOUT=1 expect no_finalize_stuck 1 \
    "PE 2: shmem_finalize \(implicit, at exit\): waited [0-9]+ s for PE\(s\) 0-1, 3 to reach shmem_finalize" 4 nofin_stuck
expect skipped_exit_handlers 1 "PE 1 exited with status 0 without finalizing" 3 _exit0
expect global_exit 7 "PE 4 ended the job" 5 gexit
EXTRA_ENV=SHMEM_SYMMETRIC_SIZE=lots expect bad_size 1 "PE [01]: shmem_init: SHMEM_SYMMETRIC_SIZE=\"lots\" is not a size" 2 ""

"$oshrun" -np 2 /nonexistent/program 2>"$tmp/err"
st=$?
[ "$st" = 127 ] && grep -q "cannot run /nonexistent/program" "$tmp/err" && echo "ok: missing program" ||
    fail "missing program: status $st: $(cat "$tmp/err")"

# oshrun killed with SIGKILL: the PEs die with it (PR_SET_PDEATHSIG).
before=$(shm_count)
"${run_tagged[@]}" "$oshrun" -np 4 "$prog" hang >"$tmp/out" 2>&1 &
runner=$!
for _ in $(seq 50); do [ "$(grep -c ready "$tmp/out")" = 4 ] && break; sleep 0.1; done
kill -9 "$runner"
wait "$runner" 2>/dev/null
[ -z "$(leftovers)" ] && echo "ok: oshrun SIGKILL leaves no PE" || fail "oshrun SIGKILL left: $(leftovers)"
[ "$(shm_count)" -le "$before" ] || fail "oshrun SIGKILL left /dev/shm entries"

# oshrun interrupted (SIGTERM): stops the PEs and reports it.
"${run_tagged[@]}" "$oshrun" -np 3 "$prog" hang >"$tmp/out" 2>"$tmp/err" &
runner=$!
for _ in $(seq 50); do [ "$(grep -c ready "$tmp/out")" = 3 ] && break; sleep 0.1; done
kill -TERM "$runner"
wait "$runner"
st=$?
[ "$st" = 143 ] && grep -q "stopping all PEs" "$tmp/err" && echo "ok: SIGTERM" || fail "SIGTERM: status $st"
[ -z "$(leftovers)" ] || fail "SIGTERM left processes"

echo "launcher: $fails failure(s)"
[ "$fails" = 0 ]
