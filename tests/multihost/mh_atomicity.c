/* Atomicity across transports: every PE of every host (those on the
 * target's own host included) hammers the same words with mixed AMOs; the
 * totals must be exact.  A lock-protected non-atomic read-modify-write
 * (get, add, put under shmem_set_lock) must be exact too.
 *
 * Arguments [rounds [limit]]: repeat it all; with a limit, a round that
 * takes longer than `limit` seconds on any PE fails (a round takes ~0.1 s
 * at 4 + 4 PEs on 2 cores; PEs that waited by yielding for ever once
 * starved the PEs they waited for and stalled rounds 3-40 s). */
#include <stdlib.h>
#include <time.h>

#include "check.h"

enum { ITERS = 400, LOCKED_ITERS = 40 };

static long counter64;   /* on PE 0: a global */
static int counter32;    /* on the last PE */
static long lock;
static long guarded;     /* on PE 0, only changed under the lock */
static long host_counter;   /* on each host's first PE: its host's PEs add through a SHARED-team context */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Every PE: mixed AMOs on the words of PE 0, the last PE and PE n/2. */
static long hammer(long *heap_counter)
{
    int n = shmem_n_pes(), last = n - 1;
    long fetched_sum = 0;
    for (int i = 0; i < ITERS; i++) {
        switch (i % 4) {
        case 0: shmem_long_atomic_inc(&counter64, 0); break;
        case 1: shmem_long_atomic_add(&counter64, 1, 0); break;
        case 2: fetched_sum += shmem_long_atomic_fetch_inc(&counter64, 0); break;
        default: fetched_sum += shmem_long_atomic_fetch_add(&counter64, 1, 0); break;
        }
        shmem_int_atomic_add(&counter32, 2, last);
        if (i % 8 == 0)
            (void)shmem_long_atomic_fetch_add(heap_counter, 3, n / 2);
    }
    return fetched_sum;
}

/* Through a context of SHMEM_TEAM_SHARED (its own atomicity domain): the
 * host's PEs add to the word of the host's first PE. */
static void add_on_host(void)
{
    shmem_ctx_t shared_ctx;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &shared_ctx) == 0, "no context on SHMEM_TEAM_SHARED");
    for (int i = 0; i < ITERS; i++) {
        if (i % 2)
            shmem_ctx_long_atomic_add(shared_ctx, &host_counter, 1, 0);
        else
            (void)shmem_ctx_long_atomic_fetch_inc(shared_ctx, &host_counter, 0);
    }
    shmem_ctx_quiet(shared_ctx);
    shmem_ctx_destroy(shared_ctx);
}

static void add_under_lock(void)
{
    for (int i = 0; i < LOCKED_ITERS; i++) {
        shmem_set_lock(&lock);
        long v = shmem_long_g(&guarded, 0);
        shmem_long_p(&guarded, v + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    double limit = argc > 2 ? atof(argv[2]) : 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), last = n - 1;
    int host_first = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    long host_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    long *heap_counter = shmem_calloc(1, sizeof(long));   /* on PE n/2 */
    long fetched_sum = 0;
    for (int r = 1; r <= rounds; r++) {
        shmem_barrier_all();
        double start = seconds();
        fetched_sum += hammer(heap_counter);
        add_on_host();
        add_under_lock();
        shmem_barrier_all();
        double took = seconds() - start;
        CHECK(limit <= 0 || took <= limit, "round %d took %.1f s (limit %.1f s): some PE did not run while "
              "others waited for it", r, took, limit);
    }
    if (me == 0) {
        CHECK_EQ_LONG(counter64, (long)rounds * n * ITERS);
        CHECK_EQ_LONG(guarded, (long)rounds * n * LOCKED_ITERS);
    }
    if (me == last)
        CHECK_EQ_LONG(counter32, 2L * rounds * n * ITERS);
    if (me == host_first)
        CHECK_EQ_LONG(host_counter, rounds * host_n * ITERS);
    if (me == n / 2)
        CHECK_EQ_LONG(*heap_counter, 3L * rounds * n * ((ITERS + 7) / 8));
    /* Fetched values are distinct old values: their sum is bounded. */
    long total = (long)rounds * n * ITERS;
    CHECK(fetched_sum >= 0 && fetched_sum <= total * total / 2, "fetched values sum %ld", fetched_sum);
    shmem_barrier_all();
    if (me == 0)
        printf("mh_atomicity: %d PEs, %ld increments of one word in %d round(s), exact\n", n, total, rounds);
    shmem_free(heap_counter);
    shmem_finalize();
    return 0;
}
