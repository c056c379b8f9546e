/* A pending split barrier completes without test calls: other Shoal calls
 * drive it.  One PE (the idler) starts the barrier and then only waits
 * on something else; the others start, wait for the barrier to complete,
 * and then release the idler.  In a dissemination barrier on 3+ PEs the
 * others cannot complete unless the idler forwards its rounds, so they
 * finish only if the idler's wait advances the barrier.  The idler's
 * first test afterwards must say 1.
 *
 * How the idler waits is the argument: "wait_until" (shmem_wait_until),
 * "barrier" (a blocking world barrier that the others enter after their
 * split barrier completed), "puts" (a loop of puts and gets, checking the
 * release flag with plain loads). */
#include <shmem.h>
#include <shmemx.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "check.h"

enum { ROUNDS = 20 };

static long released[ROUNDS];
static char scratch[64];

static void idle_wait_until(int r)
{
    shmem_long_wait_until(&released[r], SHMEM_CMP_EQ, shmem_n_pes() - 1);
}

/* Gives up after 10 s, so a library whose puts do not drive progress
 * fails with a message instead of a timeout. */
static void idle_puts(int r)
{
    char buf[sizeof scratch] = {0};
    int n = shmem_n_pes(), peer = (shmem_my_pe() + 1) % n;
    time_t deadline = time(NULL) + 10;
    while (__atomic_load_n(&released[r], __ATOMIC_ACQUIRE) != n - 1) {
        shmem_putmem(scratch, buf, sizeof buf, peer);
        shmem_getmem(buf, scratch, sizeof buf, peer);
        CHECK(time(NULL) < deadline, "round %d: puts and gets did not advance the pending split barrier", r);
    }
}

static void run_round(int r, const char *how)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), idler = r % n;
    bool via_barrier = strcmp(how, "barrier") == 0;
    shmemx_barrier_all_start();
    if (me == idler) {
        if (via_barrier)
            shmem_barrier_all();
        else if (strcmp(how, "puts") == 0)
            idle_puts(r);
        else
            idle_wait_until(r);
        int t = shmemx_barrier_all_test();
        CHECK(t == 1, "round %d (%s): the idler's first test returned %d", r, how, t);
        return;
    }
    shmemx_barrier_all_wait();
    if (via_barrier)
        shmem_barrier_all();
    else
        shmem_long_atomic_inc(&released[r], idler);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "wait_until";
    CHECK(!strcmp(how, "wait_until") || !strcmp(how, "barrier") || !strcmp(how, "puts"),
          "unknown mode %s", how);
    shmem_init();
    for (int r = 0; r < ROUNDS; r++)
        run_round(r, how);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("split_progress (%s): %d rounds on %d PEs ok\n", how, ROUNDS, shmem_n_pes());
    shmem_finalize();
    return 0;
}
