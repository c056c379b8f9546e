/* Block agreement by dissemination: in round k member i sends what it has so
 * far to member i + 2^k and ORs in what member i - 2^k sent; after
 * ceil(log2 P) rounds every member holds the OR of all, for any P (OR is
 * idempotent, so the overlapping coverage of a non-power-of-two P does no
 * harm).
 *
 * Each round has two cells (by epoch parity) in the parent's pool block: a
 * flag then the bitmask, delivered by put-with-signal so the flag lands
 * after the data, over shared memory or the network alike.  Two cells are
 * enough: a sender can reach agreement e+2 only after every member has
 * entered e+1, so the receiver has consumed the cell of e.  Flags carry the
 * parent's agreement epoch, which only grows, so nothing is ever reset. */
#include "team_impl.h"

/* Rounds for the largest team (the world). */
static int max_rounds(void)
{
    int k = 0;
    while ((1L << k) < shoal.n_pes)
        k++;
    return k;
}

size_t shoal_block_agree_dissem_bytes(void)
{
    return (size_t)max_rounds() * 2 * (1 + shoal_pool_words()) * sizeof(uint64_t);
}

/* Cell of round k for epoch parity p: flag, then the bitmask words. */
static uint64_t *cell(struct shoal_team *parent, int k, int p)
{
    return shoal_pool_agree_area(parent->block) + (size_t)(k * 2 + p) * (1 + shoal_pool_words());
}

void shoal_block_agree_dissem(struct shoal_team *parent, uint64_t *busy, uint64_t epoch)
{
    int n = parent->n_pes, me = parent->my_pe, w = shoal_pool_words();
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        uint64_t *c = cell(parent, k, (int)(epoch & 1));
        int to = shoal_team_pe(parent, (int)(((long)me + d) % n));
        shoal_put_signal(&shoal_ctx_default, c + 1, busy, w * sizeof *busy, c, epoch, SHOAL_SIG_SET, to, false);
        SHOAL_WAIT_WHILE(__atomic_load_n(c, __ATOMIC_ACQUIRE) < epoch);
        for (int i = 0; i < w; i++)
            busy[i] |= c[1 + i];
    }
}
