/* Setup and query: ids, version, re-entrant init/finalize (1.6), accessibility. */
#include <string.h>

#include <shmem.h>

#include "check.h"

int main(void)
{
    int initialized = -1;
    shmem_query_initialized(&initialized);
    CHECK(initialized == 0, "query_initialized before init gave %d", initialized);

    shmem_init();
    shmem_init();   /* 1.6: nested pairs are allowed */
    shmem_query_initialized(&initialized);
    CHECK(initialized == 1, "query_initialized after init gave %d", initialized);
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n >= 1 && me >= 0 && me < n, "my_pe %d n_pes %d", me, n);
    CHECK(_my_pe() == me && _num_pes() == n, "deprecated names disagree");

    int major, minor;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    CHECK(major == 1 && minor == 6 && major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION,
          "version %d.%d", major, minor);
    CHECK(strcmp(name, "Shoal") == 0 && strcmp(name, SHMEM_VENDOR_STRING) == 0, "name %s", name);

    for (int pe = 0; pe < n; pe++)
        CHECK(shmem_pe_accessible(pe), "PE %d not accessible", pe);
    CHECK(!shmem_pe_accessible(n) && !shmem_pe_accessible(-1), "out-of-range PE accessible");
    static long global;
    long local;
    CHECK(shmem_addr_accessible(&global, (me + 1) % n), "global not accessible");
    CHECK(!shmem_addr_accessible(&local, (me + 1) % n), "stack variable reported accessible");

    shmem_finalize();   /* inner: acts as a barrier, library stays up */
    shmem_query_initialized(&initialized);
    CHECK(initialized == 1, "inner finalize ended the library");
    shmem_barrier_all();
    shmem_finalize();
    shmem_query_initialized(&initialized);
    if (initialized != 0)
        return 1;

    /* 1.6: the library may be initialized again after the last finalize. */
    shmem_init();
    CHECK(shmem_my_pe() == me && shmem_n_pes() == n, "re-init changed ids");
    long *x = shmem_malloc(sizeof *x);
    *x = me;
    shmem_barrier_all();
    long got = shmem_long_g(x, (me + 1) % n);
    CHECK_EQ_LONG(got, (me + 1) % n);
    shmem_free(x);
    shmem_finalize();
    return 0;
}
