/* Dissemination barrier: in round k each member signals member (i + 2^k)
 * and waits for member (i - 2^k); ceil(log2 P) rounds for any P, every
 * member busy in every round.  A signal is a 64-bit store of the team's
 * barrier epoch into a word only that partner writes (002: puts beat AMOs;
 * on shared memory it costs one cache-line transfer, so a 2-PE barrier runs
 * near the machine's one-way latency).  Epochs only grow and a team's
 * destroy zeroes them (group.c), so words are never reset, and a
 * fast PE may signal the next barrier while others leave this one. */
#include "coll_internal.h"

void shoal_barrier_dissem(struct shoal_team *t)
{
    int n = t->n_pes, me = t->my_pe;
    uint64_t epoch = ++t->barrier_epoch;
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        uint64_t *word = &coll_psync(t, 0)->barrier[k];
        shoal_amo(COLL_CTX, SHOAL_AMO_SET, 8, word, NULL, &epoch, NULL, shoal_team_pe(t, (me + d) % n), false);
        SHOAL_WAIT_WHILE(__atomic_load_n(word, __ATOMIC_ACQUIRE) < epoch);
    }
}
