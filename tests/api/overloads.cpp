// The headers in C++11 (-pedantic -Werror): extern "C" linkage, typed
// names, and the C++ overloads of the generic names, with and without a
// leading context.  Runs a ring of transfers and checks them.
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
#include <mpp/shmem.h>
#include <mpp/shmemx.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(cond, what)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "FAIL PE %d %s:%d: %s\n", shmem_my_pe(), __FILE__, __LINE__, what); \
            shmem_global_exit(1);                                                                  \
        }                                                                                          \
    } while (0)

static double ring[4];
static unsigned long long counter;
static int flags[3];
static uint64_t sig;
static int32_t bits;

int main()
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    double mine[4] = {me + 0.5, me + 1.5, me + 2.5, me + 3.5};
    shmem_barrier_all();
    shmem_put(ring, mine, 2, next);                            // overload on double *
    shmem_put(SHMEM_CTX_DEFAULT, ring + 2, mine + 2, 1, next); // context overload
    shmem_p(ring + 3, mine[3], next);
    shmem_atomic_add(&counter, 2ULL, 0);
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, &counter, 0);
    shmem_atomic_or(&bits, int32_t(1) << (me % 31), 0);        // int32_t: bitwise table
    shmem_quiet();
    shmem_sync(SHMEM_TEAM_WORLD);                              // overload of the generic shmem_sync
    shmem_barrier_all();
    for (int i = 0; i < 4; i++)
        CHECK(ring[i] == prev + i + 0.5, "ring");
    CHECK(shmem_g(ring, me) == prev + 0.5, "shmem_g overload");
    if (me == 0)
        CHECK(counter == 3ULL * npes, "counter");
    CHECK(shmem_atomic_fetch(&counter, 0) == 3ULL * npes, "fetch overload");

    shmem_atomic_set(&flags[1], 1, next);
    shmem_wait_until(&flags[1], SHMEM_CMP_EQ, 1);
    CHECK(shmem_test_any(flags, 3, nullptr, SHMEM_CMP_EQ, 1) == 1, "test_any overload");
    shmem_signal_add(SHMEM_CTX_DEFAULT, &sig, 5, next);         // context overload of signal_add
    shmem_signal_add(&sig, 1, next);                            // the C function
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 6) == 6, "signal_add");
    static long wait_flag = 0;
    shmem_wait_until(&wait_flag, SHMEM_CMP_EQ, 0L);             // deprecated C function, long
    shmem_barrier_all();
    if (false) {   // compiled, not run
        shmem_broadcast(SHMEM_TEAM_WORLD, ring, mine, 1, 0);
        shmem_sum_reduce(SHMEM_TEAM_WORLD, ring, mine, 1);
        shmem_team_t t = SHMEMX_TEAM_HOST;
        shmemx_team_sync_wait(t);
        shmemx_ibput(ring, mine, 2, 2, 1, 2, next);             // SOS names: overloads too
        shmemx_ibget(SHMEM_CTX_DEFAULT, ring, mine, 2, 2, 1, 2, next);
        shmemx_signal_set(SHMEM_CTX_DEFAULT, &sig, 1, next);
        shmemx_sum_inscan(SHMEM_TEAM_WORLD, ring, mine, 1);
        static short shorts[2];
        shmem_wait_until_any(shorts, 2, nullptr, SHMEM_CMP_EQ, short(0));   // deprecated short overload
    }
    shmem_finalize();
    if (me == 0)
        std::printf("api_cxx: %d PEs ok\n", npes);
    return 0;
}
