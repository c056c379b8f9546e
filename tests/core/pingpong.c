/* Many round trips of p + wait_until between pairs, and a ring of barriers:
 * a correctness test that must also finish quickly when PEs outnumber cores
 * (waiters yield and sleep instead of spinning). */
#include <shmem.h>

#include "check.h"

static long ping, pong;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int partner = me ^ 1;
    enum { ROUNDS = 2000 };
    if (partner < n) {
        for (long i = 1; i <= ROUNDS; i++) {
            if (me & 1) {
                shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
                shmem_long_p(&pong, i, partner);
            } else {
                shmem_long_p(&ping, i, partner);
                shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
            }
        }
    }
    for (int i = 0; i < 500; i++)
        shmem_barrier_all();
    shmem_finalize();
    return 0;
}
