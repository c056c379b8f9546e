/* Atomicity across transports: every PE of every host (those on the
 * target's own host included) hammers the same words with mixed AMOs; the
 * totals must be exact.  A lock-protected non-atomic read-modify-write
 * (get, add, put under shmem_set_lock) must be exact too. */
#include "check.h"

enum { ITERS = 400, LOCKED_ITERS = 40 };

static long counter64;   /* on PE 0: a global */
static int counter32;    /* on the last PE */
static long lock;
static long guarded;     /* on PE 0, only changed under the lock */
static long host_counter;   /* on each host's first PE: its host's PEs add through a SHARED-team context */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), last = n - 1;
    long *heap_counter = shmem_calloc(1, sizeof(long));   /* on PE n/2 */
    long fetched_sum = 0;
    shmem_barrier_all();
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
    /* Through a context of SHMEM_TEAM_SHARED (its own atomicity domain):
     * the host's PEs add to the word of the host's first PE. */
    shmem_ctx_t shared_ctx;
    int host_first = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    int host_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &shared_ctx) == 0, "no context on SHMEM_TEAM_SHARED");
    for (int i = 0; i < ITERS; i++) {
        if (i % 2)
            shmem_ctx_long_atomic_add(shared_ctx, &host_counter, 1, 0);
        else
            (void)shmem_ctx_long_atomic_fetch_inc(shared_ctx, &host_counter, 0);
    }
    shmem_ctx_quiet(shared_ctx);
    shmem_ctx_destroy(shared_ctx);
    for (int i = 0; i < LOCKED_ITERS; i++) {
        shmem_set_lock(&lock);
        long v = shmem_long_g(&guarded, 0);
        shmem_long_p(&guarded, v + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ_LONG(counter64, (long)n * ITERS);
        CHECK_EQ_LONG(guarded, (long)n * LOCKED_ITERS);
    }
    if (me == last)
        CHECK_EQ_LONG(counter32, 2L * n * ITERS);
    if (me == host_first)
        CHECK_EQ_LONG(host_counter, (long)host_n * ITERS);
    if (me == n / 2)
        CHECK_EQ_LONG(*heap_counter, 3L * n * ((ITERS + 7) / 8));
    /* Fetched values are distinct old values: their sum is bounded. */
    CHECK(fetched_sum >= 0 && fetched_sum <= (long)n * ITERS * (long)n * ITERS / 2,
          "fetched values sum %ld", fetched_sum);
    shmem_barrier_all();
    if (me == 0)
        printf("mh_atomicity: %d PEs, %ld increments of one word, exact\n", n, (long)n * ITERS);
    shmem_free(heap_counter);
    shmem_finalize();
    return 0;
}
