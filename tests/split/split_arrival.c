/* No PE leaves a split barrier before every PE has arrived.
 *
 * Before each barrier every PE adds 1 with an AMO to an arrival counter on
 * every PE, then starts the barrier (whose quiet completes the adds).  When
 * test returns 1, all n adds of this round must be in my counter.  Counters
 * alternate by round parity: round r+2 cannot begin before I leave round
 * r+1, so at the check a counter holds exactly n times the rounds of its
 * parity so far, never more.
 *
 * Each round one PE is late and arrives only after every other PE has
 * called test once: those tests must all have returned 0. */
#include <shmem.h>
#include <shmemx.h>
#include <unistd.h>

#include "check.h"

enum { ROUNDS = 40 };

static long arrivals[2];
static long tested[ROUNDS];   /* on the late PE: PEs whose first test of round r said 0 */

static void check_arrivals(int r, int n)
{
    long want = (long)n * (r / 2 + 1);   /* rounds of r's parity in 0..r */
    CHECK(arrivals[r & 1] == want, "round %d: arrival counter %ld, want %ld (a PE left early)", r,
          arrivals[r & 1], want);
}

/* Late PE of round r: arrives once every other PE has seen the barrier open. */
static void arrive_late(int r, int n)
{
    shmem_long_wait_until(&tested[r], SHMEM_CMP_EQ, n - 1);
    shmemx_barrier_all_start();
}

static void arrive_early(int r, int late)
{
    shmemx_barrier_all_start();
    int first = shmemx_barrier_all_test();
    CHECK(first == 0, "round %d: test returned %d while PE %d had not arrived", r, first, late);
    shmem_long_atomic_inc(&tested[r], late);
}

/* Leave round r three ways: test loop, wait, or test loop with work in between. */
static void leave(int r)
{
    switch (r % 3) {
    case 0:
        while (!shmemx_barrier_all_test())
            ;
        break;
    case 1:
        shmemx_barrier_all_wait();
        break;
    default:
        while (!shmemx_barrier_all_test())
            usleep(50);
    }
    CHECK(shmemx_barrier_all_test() == 1, "round %d: test after completion is not 1", r);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int r = 0; r < ROUNDS; r++) {
        int late = r % n;
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_inc(&arrivals[r & 1], pe);
        if (n > 1 && me == late)
            arrive_late(r, n);
        else if (n > 1)
            arrive_early(r, late);
        else
            shmemx_barrier_all_start();
        leave(r);
        check_arrivals(r, n);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("split_arrival: %d rounds on %d PEs ok\n", ROUNDS, n);
    shmem_finalize();
    return 0;
}
