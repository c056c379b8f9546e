/* Global and static variables are symmetric: RMA, AMO, wait and shmem_ptr. */
#include <shmem.h>

#include "check.h"

long counter;                 /* .bss */
int table[1000] = {1, 2, 3};  /* .data */
static double scalar = 2.5;   /* static .data */
static long flag;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    CHECK(table[2] == 3 && scalar == 2.5, "initial values lost when globals were made symmetric");

    int mine[1000];
    for (int i = 0; i < 1000; i++)
        mine[i] = me * 10000 + i;
    shmem_barrier_all();
    shmem_int_put(table, mine, 1000, next);
    shmem_double_p(&scalar, (double)me + 0.25, next);
    shmem_long_atomic_add(&counter, me + 1, 0);
    shmem_barrier_all();
    for (int i = 0; i < 1000; i++)
        CHECK(table[i] == prev * 10000 + i, "table[%d] = %d", i, table[i]);
    CHECK(scalar == (double)prev + 0.25, "scalar %f", scalar);
    if (me == 0)
        CHECK_EQ_LONG(counter, (long)n * (n + 1) / 2);

    int *view = shmem_ptr(table, next);
    CHECK(view != NULL && view[5] == me * 10000 + 5, "shmem_ptr on a global");

    /* Token ring through a static variable: wait_until on globals. */
    if (me == 0)
        shmem_long_p(&flag, 1, next);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    if (me != 0)
        shmem_long_p(&flag, 1, next);
    long v = shmem_long_g(&counter, 0);
    CHECK_EQ_LONG(v, (long)n * (n + 1) / 2);
    shmem_finalize();
    return 0;
}
