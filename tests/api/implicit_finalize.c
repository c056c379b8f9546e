/* Finalizing at exit: PEs that return from main without shmem_finalize are
 * finalized implicitly, and that finalize completes their outstanding puts
 * before its barrier.  Every PE puts (nonblocking) into the next PE's box;
 * PE 0 calls shmem_finalize and then checks its box, the others just
 * return.  Mode "start_pes" does the same through the deprecated
 * start_pes/_my_pe/_num_pes, whose programs never call finalize. */
#include <string.h>

#include "api_test.h"

static long box = -1;

int main(int argc, char **argv)
{
    bool legacy = argc > 1 && !strcmp(argv[1], "start_pes");
    if (legacy)
        start_pes(0);
    else
        shmem_init();
    int my = legacy ? _my_pe() : shmem_my_pe(), n = legacy ? _num_pes() : shmem_n_pes();
    shmem_barrier_all();
    long mine = 1000L + my;
    shmem_putmem_nbi(&box, &mine, sizeof mine, (my + 1) % n);   /* &mine stays valid until the quiet at exit */
    if (my != 0)
        return 0;
    shmem_finalize();   /* meets the others' implicit finalizes */
    CHECK(box == 1000L + n - 1, "box %ld, want %ld", box, 1000L + n - 1);
    printf("api_implicit_finalize%s: %d PEs ok\n", legacy ? " (start_pes)" : "", n);
    return 0;
}
