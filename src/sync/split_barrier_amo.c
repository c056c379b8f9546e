/* Split dissemination barrier signalled with atomic adds: the seed paper's
 * AMO variant, kept so its comparison with puts can be reproduced
 * (SHOAL_SPLIT_BARRIER=amo).  Round k: member i adds 1 to counter k of
 * member (i + 2^k) mod n; counter k reaching the epoch means the partner
 * has done round k of this barrier.  Counts only grow and additions
 * commute, so one buffer serves every barrier: a partner already in the
 * next barrier only pushes a counter past the epoch. */
#include "split_barrier.h"

static uint64_t *round_counts(struct shoal_split_state *s)
{
    return shoal_split_area_of(s->team, 0)->amo;
}

static void signal_round(struct shoal_split_state *s, int k)
{
    const uint64_t one = 1;
    shoal_amo(&shoal_ctx_default, SHOAL_AMO_ADD, sizeof one, &round_counts(s)[k], NULL, &one, NULL,
              shoal_split_partner(s, 1 << k), false);
}

static void amo_arrive(struct shoal_split_state *s)
{
    signal_round(s, 0);
}

static bool amo_advance(struct shoal_split_state *s)
{
    uint64_t *counts = round_counts(s);
    while (s->round < s->n_rounds) {
        if (__atomic_load_n(&counts[s->round], __ATOMIC_ACQUIRE) < s->epoch)
            return false;
        if (++s->round < s->n_rounds)
            signal_round(s, s->round);
    }
    return true;
}

const struct shoal_split_algo shoal_split_amo = {"amo", amo_arrive, amo_advance};
