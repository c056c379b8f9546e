/* Dissemination barrier: in round k each member signals member (i + 2^k) and
 * waits for member (i - 2^k); ceil(log2 P) rounds for any P.  Signals are
 * 64-bit stores of the barrier epoch, which only grows, so flags are never
 * reset and a fast PE may enter the next barrier while others leave this one. */
#include "coll.h"

void shoal_barrier_dissem(struct shoal_team *t)
{
    int n = t->n_pes, me = t->my_pe;
    uint64_t epoch = ++t->barrier_epoch;
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int to = shoal_team_pe(t, (me + d) % n);
        shoal_amo(&shoal_ctx_default, SHOAL_AMO_SET, 8, &t->psync[0].barrier[k], NULL, &epoch, NULL, to, false);
        uint64_t *flag = &t->psync[0].barrier[k];
        SHOAL_WAIT_WHILE(__atomic_load_n(flag, __ATOMIC_ACQUIRE) < epoch);
    }
}
