/* Split dissemination barrier signalled with 64-bit puts (the seed paper's
 * fastest variant).  Round k: member i puts the barrier's epoch into flag k
 * of member (i + 2^k) mod n, and may go on to round k+1 once its own flag k
 * holds the epoch.
 *
 * Consecutive barriers alternate between the team's two pSync slots, and a
 * flag is tested for equality with the epoch.  Why both: the partner cannot
 * put epoch e+2 into a buffer before I have left barrier e+1, hence before
 * I have read e from it; so a flag only ever holds e-2 or e while I look at
 * it.  That stays true when the network delivers two puts from one PE out
 * of order, and an equality test never accepts a torn 8-byte write. */
#include "split_barrier.h"

static uint64_t *round_flags(struct shoal_split_state *s)
{
    return shoal_split_area_of(s->team, (int)(s->epoch & 1))->put;
}

static void signal_round(struct shoal_split_state *s, int k)
{
    uint64_t epoch = s->epoch;
    __atomic_thread_fence(__ATOMIC_RELEASE);   /* my earlier stores become visible first */
    shoal_put(&shoal_ctx_default, &round_flags(s)[k], &epoch, sizeof epoch, shoal_split_partner(s, 1 << k),
              false);
}

static void put_arrive(struct shoal_split_state *s)
{
    signal_round(s, 0);
}

static bool put_advance(struct shoal_split_state *s)
{
    uint64_t *flags = round_flags(s);
    while (s->round < s->n_rounds) {
        if (__atomic_load_n(&flags[s->round], __ATOMIC_ACQUIRE) != s->epoch)
            return false;
        if (++s->round < s->n_rounds)
            signal_round(s, s->round);
    }
    return true;
}

const struct shoal_split_algo shoal_split_put = {"put", put_arrive, put_advance};
