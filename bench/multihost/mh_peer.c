/* mh_peer - the across-hosts figures of issue 11, written against the
 * OpenSHMEM 1.4 API only, so that the same source builds with Shoal's oshcc
 * and with Open MPI's (the peer).  run.sh runs both on the same namespace
 * hosts, alternating.
 *
 * Point to point, between PE 0 and the first PE on another host (found by
 * host name): put 8 B (+ quiet), get 8 B, fetch-add, ping-pong one-way
 * (half a round trip of p + wait_until), put bandwidth 1 MiB (a window of
 * nbi puts + quiet).  Each op is timed alone; the figure is the median.
 * Collectives on the whole job as an active set: barrier, sum-reduce 1 and
 * 64 Ki longs, broadcast 8 B and 1 MiB, fcollect 8 B, collect (8 B from
 * even PEs, 16 from odd ones), alltoall 8 B.  Every call is timed
 * alone, after an untimed barrier; per call the maximum over PEs; the
 * figure is the median of those maxima.  Each result is checked.
 * Output, one line per figure:  {"op":"...","value":X,"unit":"us"|"GBps"}
 *
 *   mh_peer [ITERS]   (default 200; the large operations run ITERS/10) */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mh_clock.h"

#define BIG (1L << 20)
#define RED_BIG (64L * 1024)
#define MAX_ITERS 4000
enum { WINDOW = 16 };

static long psync_a[SHMEM_REDUCE_SYNC_SIZE], psync_b[SHMEM_BCAST_SYNC_SIZE], psync_c[SHMEM_COLLECT_SYNC_SIZE];
static long psync_h[SHMEM_COLLECT_SYNC_SIZE], psync_e[SHMEM_ALLTOALL_SYNC_SIZE];
static long pwrk_small[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long pwrk_big[RED_BIG / 2 + 1];
static double pwrk_d[MAX_ITERS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync_d[SHMEM_REDUCE_SYNC_SIZE];
static double times[MAX_ITERS], worst[MAX_ITERS];
static long word, flag, red_src, red_dst;
static long host_id, host_ids[4096], mine[2], many[2 * 4096], to_each[4096];
static int me, npes, failures;

static void emit(const char *op, double value, const char *unit)
{
    if (me == 0)
        printf("{\"op\":\"%s\",\"value\":%.3f,\"unit\":\"%s\"}\n", op, value, unit);
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "mh_peer: PE %d: wrong result: %s\n", me, what);
        failures++;
    }
}

static void init_psync(long *ps, int n)
{
    for (int i = 0; i < n; i++)
        ps[i] = SHMEM_SYNC_VALUE;
}

/* Max over PEs of times[0..n), then its median (emitted by PE 0). */
static void emit_collective(const char *op, int n)
{
    shmem_barrier_all();
    shmem_double_max_to_all(worst, times, n, 0, 0, npes, pwrk_d, psync_d);
    shmem_barrier_all();
    emit(op, median(worst, n), "us");
}

/* ---- point to point: PE 0 and partner ---- */

static void p2p(int partner, int iters, char *src, char *dst)
{
    int n = 0;
    shmem_barrier_all();
    if (me == 0) {
        for (int i = 0; i < iters; i++) {
            double t0 = now_us();
            shmem_putmem(dst, src, 8, partner);
            shmem_quiet();
            times[n++] = now_us() - t0;
        }
        emit("put 8 B", median(times, n), "us");
        n = 0;
        for (int i = 0; i < iters; i++) {
            double t0 = now_us();
            shmem_getmem(dst, src, 8, partner);
            times[n++] = now_us() - t0;
        }
        emit("get 8 B", median(times, n), "us");
        n = 0;
        long sum = 0;
        for (int i = 0; i < iters; i++) {
            double t0 = now_us();
            sum += shmem_long_atomic_fetch_add(&word, 1, partner);
            times[n++] = now_us() - t0;
        }
        emit("fetch-add", median(times, n), "us");
        check(sum == (long)iters * (iters - 1) / 2, "fetch-add sequence");
    }
    shmem_barrier_all();
    /* ping-pong: round r puts r and waits for it to come back */
    n = 0;
    for (long r = 1; r <= iters; r++) {
        double t0 = now_us();
        if (me == 0) {
            shmem_long_p(&flag, r, partner);
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        } else if (me == partner) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
            shmem_long_p(&flag, r, 0);
        }
        times[n++] = (now_us() - t0) / 2;
    }
    emit("ping-pong one-way", median(times, n), "us");
    shmem_barrier_all();
    int big_iters = iters / 10 > 3 ? iters / 10 : 3;
    if (me == 0) {
        for (long i = 0; i < BIG; i++)
            src[i] = (char)(i * 7 + 1);
        n = 0;
        for (int i = 0; i < big_iters; i++) {
            double t0 = now_us();
            for (int w = 0; w < WINDOW; w++)
                shmem_putmem_nbi(dst, src, BIG, partner);
            shmem_quiet();
            times[n++] = now_us() - t0;
        }
        emit("put bandwidth 1 MiB", (double)BIG * WINDOW / median(times, n) / 1e3, "GBps");
    }
    shmem_barrier_all();
    if (me == partner)
        for (long i = 0; i < BIG; i += 4099)
            check(dst[i] == (char)(i * 7 + 1), "put bandwidth data");
    shmem_barrier_all();
}

/* ---- collectives on the whole job (active set 0, 0, npes) ---- */

static void collectives(int iters, long *big_src, long *big_dst)
{
    for (int i = 0; i < iters; i++)
        MH_TIMED(shmem_barrier_all());
    emit_collective("barrier", iters);

    for (int i = 0; i < iters; i++) {
        red_src = me + i;
        MH_TIMED(shmem_long_sum_to_all(&red_dst, &red_src, 1, 0, 0, npes, pwrk_small, psync_a));
        check(red_dst == (long)npes * (npes - 1) / 2 + (long)npes * i, "sum-reduce 1 long");
    }
    emit_collective("sum-reduce 1 long", iters);

    for (int i = 0; i < iters; i++) {
        long v = 1000 + i;
        word = me == i % npes ? v : -1;
        flag = -1;
        MH_TIMED(shmem_broadcast64(&flag, &word, 1, i % npes, 0, 0, npes, psync_b));
        check(me == i % npes || flag == v, "broadcast 8 B");
    }
    emit_collective("broadcast 8 B", iters);

    for (int i = 0; i < iters; i++) {
        word = (long)me * 1000 + i;
        MH_TIMED(shmem_fcollect64(host_ids, &word, 1, 0, 0, npes, psync_c));
        for (int p = 0; p < npes; p++)
            check(host_ids[p] == (long)p * 1000 + i, "fcollect 8 B");
    }
    emit_collective("fcollect 8 B", iters);

    for (int i = 0; i < iters; i++) {
        size_t n = 1 + me % 2;
        mine[0] = mine[1] = (long)me * 1000 + i;
        MH_TIMED(shmem_collect64(many, mine, n, 0, 0, npes, psync_c));
        for (int p = 0, at = 0; p < npes; at += 1 + p % 2, p++)
            check(many[at] == (long)p * 1000 + i && (p % 2 == 0 || many[at + 1] == (long)p * 1000 + i),
                  "collect 8-16 B");
    }
    emit_collective("collect 8-16 B", iters);

    for (int i = 0; i < iters; i++) {
        for (int p = 0; p < npes; p++)
            to_each[p] = (long)me * 100000 + p * 10 + i;
        MH_TIMED(shmem_alltoall64(host_ids, to_each, 1, 0, 0, npes, psync_e));
        for (int p = 0; p < npes; p++)
            check(host_ids[p] == (long)p * 100000 + me * 10 + i, "alltoall 8 B");
    }
    emit_collective("alltoall 8 B", iters);

    int big_iters = iters / 10 > 5 ? iters / 10 : 5;
    for (long k = 0; k < RED_BIG; k++)
        big_src[k] = me + k;
    for (int i = 0; i < big_iters; i++)
        MH_TIMED(shmem_long_sum_to_all(big_dst, big_src, RED_BIG, 0, 0, npes, pwrk_big, psync_a));
    for (long k = 0; k < RED_BIG; k += 101)
        check(big_dst[k] == (long)npes * (npes - 1) / 2 + npes * k, "sum-reduce 64 Ki longs");
    emit_collective("sum-reduce 64 Ki longs", big_iters);

    for (int i = 0; i < big_iters; i++) {
        int root = i % npes;
        if (me == root)
            for (long k = 0; k < BIG / 8; k += 64)
                big_src[k] = k + i;
        MH_TIMED(shmem_broadcast64(big_dst, big_src, BIG / 8, root, 0, 0, npes, psync_b));
        if (me != root)
            for (long k = 0; k < BIG / 8; k += 64)
                check(big_dst[k] == k + i, "broadcast 1 MiB");
    }
    emit_collective("broadcast 1 MiB", big_iters);
}

/* The first PE whose host name differs from PE 0's (else the last PE). */
static int find_partner(void)
{
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    unsigned long h = 5381;
    for (char *p = name; *p; p++)
        h = h * 33 + (unsigned char)*p;
    host_id = (long)(h & 0x7fffffffffffL);
    shmem_barrier_all();
    shmem_fcollect64(host_ids, &host_id, 1, 0, 0, npes, psync_h);
    for (int p = 1; p < npes; p++)
        if (host_ids[p] != host_ids[0])
            return p;
    return npes - 1;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    if (iters < 10 || iters > MAX_ITERS) {
        fprintf(stderr, "mh_peer: ITERS must be 10..%d\n", MAX_ITERS);
        return 2;
    }
    init_psync(psync_a, SHMEM_REDUCE_SYNC_SIZE);
    init_psync(psync_b, SHMEM_BCAST_SYNC_SIZE);
    init_psync(psync_c, SHMEM_COLLECT_SYNC_SIZE);
    init_psync(psync_d, SHMEM_REDUCE_SYNC_SIZE);
    init_psync(psync_h, SHMEM_COLLECT_SYNC_SIZE);
    init_psync(psync_e, SHMEM_ALLTOALL_SYNC_SIZE);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2 || npes > 4096) {
        if (me == 0)
            fprintf(stderr, "mh_peer: needs 2..4096 PEs\n");
        shmem_finalize();
        return 2;
    }
    char *src = shmem_malloc(BIG), *dst = shmem_malloc(BIG);
    long *big_src = shmem_malloc(BIG), *big_dst = shmem_malloc(BIG);
    if (!src || !dst || !big_src || !big_dst) {
        fprintf(stderr, "mh_peer: PE %d: shmem_malloc failed\n", me);
        shmem_global_exit(1);
    }
    memset(src, 0, BIG);
    int partner = find_partner();
    if (me == 0)
        printf("{\"op\":\"partner\",\"value\":%d,\"unit\":\"pe\"}\n", partner);
    p2p(partner, iters, src, dst);
    collectives(iters, big_src, big_dst);
    shmem_barrier_all();
    if (me == 0)
        printf("{\"op\":\"done\",\"value\":%d,\"unit\":\"failures\"}\n", failures);
    fflush(stdout);
    int rc = failures ? 1 : 0;
    shmem_finalize();
    return rc;
}
