/* Collect on a team that shares memory, first round: every member
 * publishes its size, and its block when it fits, in its ring (ring.c),
 * and reads every other member's entry.  That round tells every member
 * every size (so every offset), and when all blocks fit it has moved the
 * data too: one round where the general path needs a round of sizes and a
 * round of data.  When a block does not fit, every member knows it from
 * the same entries, so all go on to the data round together.  Reading
 * every entry proves every member has entered (the slot rule), and that
 * its dest is free. */
#include "coll_internal.h"

/* The small limit whatever the crowding: the round's "does everything fit"
 * must come out the same on every member, from the entries alone. */
enum { SIZE_BYTES = sizeof(uint64_t), FITS = COLL_RING_SMALL - SIZE_BYTES };

bool collect_shm(const struct coll_call *c, void *dest, const void *src, size_t mine, size_t *off, size_t *len)
{
    unsigned char entry[COLL_RING_SMALL];
    uint64_t size = mine;
    memcpy(entry, &size, SIZE_BYTES);
    if (mine <= FITS)
        cc_copy(entry + SIZE_BYTES, src, mine);
    ring_publish(c, entry, SIZE_BYTES + (mine <= FITS ? mine : 0));
    bool all_fit = true;
    size_t at = 0;
    for (int i = 0; i < c->n; i++) {
        if (i != c->me)   /* the size heads the entry: read in place */
            memcpy(&size, ring_head(c, i), SIZE_BYTES);
        off[i] = at;
        len[i] = i == c->me ? mine : (size_t)size;
        at += len[i];
        all_fit &= len[i] <= FITS;
    }
    /* Only now: when a block does not fit, the data round's writers may be
     * in my dest already (every member has seen my entry). */
    if (all_fit) {
        cc_copy((char *)dest + off[c->me], src, mine);
        for (int s = 1; s < c->n; s++) {
            int from = (c->me + s) % c->n;
            ring_take(c, from, (char *)dest + off[from], SIZE_BYTES, len[from]);
        }
    }
    ring_done(c);
    return all_fit;
}
