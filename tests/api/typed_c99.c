/* shmem.h under -std=c99 -pedantic -Werror: the typed names only (the C11
 * generic macros must not exist), across the chapters, with a ring of
 * real transfers to check they run. */
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
#include <mpp/shmem.h>
#include <mpp/shmemx.h>

#include "check.h"

#if defined(shmem_put) || defined(shmem_atomic_add) || defined(shmem_sync) || defined(shmem_signal_add)
#error "C11 generic interfaces leak into C99"
#endif

static long ring[4];
static int counter;
static uint64_t sig;

int main(void)
{
    int me, npes, next;
    long mine[4];
    int i, major = 0, minor = 0;
    char name[SHMEM_MAX_NAME_LEN];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    next = (me + 1) % npes;
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION, "version %d.%d", major, minor);
    for (i = 0; i < 4; i++)
        mine[i] = me * 10 + i;
    shmem_barrier_all();
    shmem_long_put(ring, mine, 2, next);
    shmem_ctx_long_put_nbi(SHMEM_CTX_DEFAULT, ring + 2, mine + 2, 2, next);
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    shmem_int_atomic_add(&counter, 1, 0);
    pshmem_int_atomic_add(&counter, 1, 0);   /* the profiling entry point does the same */
    shmem_uint64_atomic_set(&sig, 0, me);
    shmem_barrier_all();
    for (i = 0; i < 4; i++)
        CHECK_EQ_LONG(ring[i], ((me + npes - 1) % npes) * 10 + i);
    if (me == 0)
        CHECK_EQ_LONG(counter, 2 * npes);
    shmem_putmem_signal(ring, mine, sizeof(long), &sig, 1, SHMEM_SIGNAL_ADD, next);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1) == 1, "signal");
    shmem_long_wait_until(&ring[0], SHMEM_CMP_EQ, ((me + npes - 1) % npes) * 10);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes, "team_n_pes");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "INVALID team");
    /* team collectives on SHMEM_TEAM_INVALID return nonzero and touch nothing */
    CHECK(shmem_long_broadcast(SHMEM_TEAM_INVALID, ring, mine, 1, 0) != 0, "broadcast");
    CHECK(shmem_broadcastmem(SHMEM_TEAM_INVALID, ring, mine, 8, 0) != 0, "broadcastmem");
    CHECK(shmem_long_collect(SHMEM_TEAM_INVALID, ring, mine, 1) != 0, "collect");
    CHECK(shmem_fcollectmem(SHMEM_TEAM_INVALID, ring, mine, 8) != 0, "fcollectmem");
    CHECK(shmem_long_alltoall(SHMEM_TEAM_INVALID, ring, mine, 1) != 0, "alltoall");
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_INVALID, ring, mine, 1, 1, 8) != 0, "alltoallsmem");
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_INVALID, ring, mine, 1) != 0, "sum_reduce");
    CHECK(shmem_ulong_xor_reduce(SHMEM_TEAM_INVALID, (unsigned long *)ring, (unsigned long *)mine, 1) != 0,
          "xor_reduce");
    CHECK(shmem_double_sum_exscan(SHMEM_TEAM_INVALID, (double *)ring, (double *)mine, 1) != 0, "exscan");
    CHECK(ring[0] == ((me + npes - 1) % npes) * 10, "INVALID-team collective changed data");
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
