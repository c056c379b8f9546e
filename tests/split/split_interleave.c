/* A pending split barrier interleaved with other communication.
 *
 * Each iteration: put a payload for this iteration to my right neighbour
 * (non-blocking), start the split barrier, and until it completes keep
 * doing gets (checked against the owner's known data), AMOs, and now and
 * then a blocking barrier, a sync or a reduction on the world team.  After
 * completion the neighbour's payload must be in my box: start quiets the
 * default context before signalling arrival.  Boxes alternate by parity,
 * since my left neighbour may already be putting the next payload. */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "check.h"

enum { ITERS = 300, PAYLOAD = 256 };

static unsigned char box[2][PAYLOAD];
static unsigned char mine[PAYLOAD];        /* read-only after init: byte i is (pe * 31 + i) */
static long amo_hits, amo_issued;   /* incs received here / sent from here */
static long reduce_src, reduce_dst, hits_sum, issued_sum;

static unsigned char payload_byte(int pe, long k, int i)
{
    return (unsigned char)(pe * 7 + k * 13 + i);
}

static void check_get(int me, int n, long k)
{
    int pe = (int)((me + k) % n);
    unsigned char got[PAYLOAD];
    shmem_getmem(got, mine, PAYLOAD, pe);
    for (int i = 0; i < PAYLOAD; i++)
        CHECK(got[i] == (unsigned char)(pe * 31 + i), "get from PE %d: byte %d is %u", pe, i, got[i]);
}

/* Collectives every PE runs in the same order while the split barrier is pending. */
static void collectives_in_window(long k, int n)
{
    if (k % 5 == 0)
        shmem_barrier_all();
    if (k % 7 == 0)
        shmem_sync_all();
    if (k % 11 == 0) {
        reduce_src = shmem_my_pe() + k;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &reduce_dst, &reduce_src, 1);
        long want = (long)n * (n - 1) / 2 + (long)n * k;
        CHECK(reduce_dst == want, "iteration %ld: reduction gave %ld, want %ld", k, reduce_dst, want);
    }
}

static void check_box(int me, int n, long k)
{
    int left = (me - 1 + n) % n;
    for (int i = 0; i < PAYLOAD; i++)
        CHECK(box[k & 1][i] == payload_byte(left, k, i), "iteration %ld: byte %d from PE %d is %u, want %u",
              k, i, left, box[k & 1][i], payload_byte(left, k, i));
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < PAYLOAD; i++)
        mine[i] = (unsigned char)(me * 31 + i);
    shmem_barrier_all();
    unsigned char out[PAYLOAD];
    for (long k = 0; k < ITERS; k++) {
        for (int i = 0; i < PAYLOAD; i++)
            out[i] = payload_byte(me, k, i);
        shmem_putmem_nbi(box[k & 1], out, PAYLOAD, (me + 1) % n);
        shmemx_barrier_all_start();
        memset(out, 0, sizeof out);   /* start returned: the put is complete */
        collectives_in_window(k, n);
        long polls = 0;
        do {
            check_get(me, n, k + polls);
            shmem_long_atomic_inc(&amo_hits, (int)((me + polls) % n));
            amo_issued++;
            polls++;
        } while (!shmemx_barrier_all_test());
        check_box(me, n, k);
    }
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &hits_sum, &amo_hits, 1);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &issued_sum, &amo_issued, 1);
    CHECK(hits_sum == issued_sum, "%ld AMOs arrived, %ld were issued", hits_sum, issued_sum);
    if (me == 0)
        printf("split_interleave: %d iterations on %d PEs ok\n", ITERS, n);
    shmem_finalize();
    return 0;
}
