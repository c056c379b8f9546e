/* Hierarchical collect and fcollect for teams that span hosts.
 *  1. Members tell their host's leader they have arrived (shared memory);
 *     the leader copies their blocks out of their sources into its own dest,
 *     at the blocks' final places.
 *  2. The leaders exchange their hosts' blocks over the network.  When each
 *     host's members are consecutive in the team (block placement) a host's
 *     blocks are one span of dest, and the collect algorithm the selection
 *     picks runs on the spans; when placements interleave hosts
 *     (round-robin), each leader puts its host's blocks straight to their
 *     places in every other leader's dest, then signals once per leader.
 *  3. Each leader copies the whole result into its host members' dests.
 * collect's sizes differ per member and only leaders need them: members
 * leave theirs in their scratch, the leader reads them in step 1 and the
 * leaders exchange them with the blocks in one round (collect_sized.c),
 * or, when they do not fit, first the same way (in the slot's scratch,
 * which is free on entry, so with no entry handshake; having every
 * leader's sizes then proves every leader has entered, so the data needs
 * none either).  Blocks that fit go through the scratch too
 * (exchange_via_scratch), without the entry round. */
#include <stdlib.h>

#include "hier_host.h"

enum { L_ARRIVE = 0, L_DATA = 1 };    /* host lines */
enum { F_ARRIVE = 60, F_DATA = 61 };  /* leaders' flags of the interleaved exchange (above the algorithms') */
enum { F_SIZED = 62 };                /* leaders' flag of a collect's sizes-and-blocks round */
enum { SIZES_AT = 64 };               /* host scratch: my size at 0, the team's sizes from here */

/* Bytes of host k's blocks. */
static size_t host_bytes(const struct coll_hosts *h, const struct coll_blocks *b, int k, int P)
{
    size_t sum = 0;
    for (int i = 0; i < P; i++)
        if (h->member_host[i] == k)
            sum += blk_len(b, i);
    return sum;
}

/* Host k's blocks between dest (at their places) and one packed run. */
static void host_pack(const struct coll_hosts *h, const struct coll_blocks *b, int k, int P, char *run, bool out)
{
    char *dest = b->dest;
    for (int i = 0; i < P; i++)
        if (h->member_host[i] == k) {
            if (out)
                memcpy(run, dest + blk_off(b, i), blk_len(b, i));
            else
                memcpy(dest + blk_off(b, i), run, blk_len(b, i));
            run += blk_len(b, i);
        }
}

/* When the dests are not known to be free but every host's blocks fit a
 * leader's share of the scratch (cc_scratch_room), each leader packs its
 * host's blocks into its own share of its scratch and puts that run into
 * the same share of every other leader's: one message per leader instead
 * of an entry round and then one per block.  false when they do not fit
 * (decided from facts every leader shares). */
static bool exchange_via_scratch(const struct coll_call *L, const struct coll_hosts *h, const struct coll_blocks *b,
                                 int P)
{
    size_t room = cc_scratch_room(L, L->n);
    if (!room)
        return false;
    for (int k = 0; k < L->n; k++)
        if (host_bytes(h, b, k, P) > room)
            return false;
    char *run = L->buf + (size_t)L->me * room;   /* nobody else writes my own share */
    size_t len = host_bytes(h, b, L->me, P);
    host_pack(h, b, L->me, P, run, true);
    for (int d = 1; d < L->n; d++)
        cc_put_signal(L, (L->me + d) % L->n, run, run, len, F_DATA);
    cc_await(L, F_DATA, (uint64_t)(L->n - 1));
    for (int k = 0; k < L->n; k++)
        if (k != L->me)
            host_pack(h, b, k, P, L->buf + (size_t)k * room, false);
    return true;
}

/* Every leader puts its host's blocks into every other leader's dest, each
 * block with its own signal: a put_signal's data comes before its signal,
 * while puts, a fence and one signal cost a round trip across hosts for
 * the fence (2 hosts x 2 PEs round-robin on 2 cores, fcollect 8 B of the
 * active-set form: 115-139 us -> 67-82). */
static void exchange_interleaved(const struct coll_call *L, const struct coll_hosts *h, const struct coll_blocks *b,
                                 int P)
{
    if (exchange_via_scratch(L, h, b, P))
        return;
    if (!L->dest_ready) {
        for (int d = 1; d < L->n; d++)
            cc_signal(L, (L->me + d) % L->n, F_ARRIVE);
        cc_await(L, F_ARRIVE, L->n - 1);
    }
    char *dest = b->dest;
    for (int d = 1; d < L->n; d++) {
        int j = (L->me + d) % L->n;
        for (int k = 0; k < h->n_host; k++) {
            int m = h->host_members[k];
            cc_put_signal(L, j, dest + blk_off(b, m), dest + blk_off(b, m), blk_len(b, m), F_DATA);
        }
    }
    cc_await(L, F_DATA, (uint64_t)(P - h->n_host));   /* every block of the other hosts */
}

void collect_hier_exchange(const struct coll_call *L, const struct coll_hosts *h, const struct coll_blocks *b,
                             int P, enum coll_kind k)
{
    if (!h->contiguous) {
        exchange_interleaved(L, h, b, P);
        return;
    }
    size_t *hoff = (size_t *)cc_tmp(2 * (size_t)(P + L->n) * sizeof(size_t), 4) + 2 * (size_t)P, *hlen = hoff + L->n;
    for (int i = 0, host = 0; host < L->n; host++) {
        int first = i;
        while (i < P && h->member_host[i] == host)
            i++;
        hoff[host] = blk_off(b, first);
        hlen[host] = blk_span(b, first, i);
    }
    struct coll_blocks spans = {.dest = b->dest, .mine = NULL, .off = hoff, .len = hlen};
    size_t total = blk_span(b, 0, P);
    if (total)
        coll_collect_run(L, k, &spans, total / L->n);   /* the user's choice for that kind, if any */
}

/* My host's members' sizes (they left them in their scratch word 0 before
 * arriving), by team index into all[]. */
static void host_sizes(const struct coll_hosts *h, const struct coll_call *host, size_t mine, uint64_t *all)
{
    for (int k = 0; k < h->n_host; k++) {
        int m = h->host_members[k];
        if (k == h->my_host_idx)
            all[m] = mine;
        else
            shoal_get(COLL_CTX, &all[m], host->buf, sizeof(uint64_t), h->host_pes[k], false);
    }
}

/* Offsets from the sizes of every member (leaders only), a round of their own. */
static void sizes_to_offsets(struct shoal_team *t, const struct coll_hosts *h, const struct coll_call *host,
                             size_t mine, size_t *off, size_t *len)
{
    int P = t->n_pes;
    uint64_t *all = (uint64_t *)(host->buf + SIZES_AT);
    host_sizes(h, host, mine, all);
    struct coll_call L = coll_team_phase(t, BANK_SIZES, h->leader_pes, h->n_hosts, h->my_leader_idx);
    L.dest_ready = true;   /* the slot's scratch is free on entry */
    struct coll_blocks b = {.dest = all, .mine = NULL, .len0 = sizeof(uint64_t)};
    collect_hier_exchange(&L, h, &b, P, K_COLLECT);
    size_t at = 0;
    for (int i = 0; i < P; i++) {
        off[i] = at;
        len[i] = all[i];
        at += all[i];
    }
}

/* Every member's offset, and my host's blocks at their places: sizes and
 * blocks in one round of the leaders when the sizes fit their scratch
 * (collect_sized.c; true when every other host's blocks came too), else
 * the sizes in a round of their own. */
static bool sizes_and_blocks(struct shoal_team *t, const struct coll_hosts *h, const struct coll_call *host,
                             const struct coll_call *L, size_t mine, const void *src, struct coll_blocks *b)
{
    int P = t->n_pes;
    size_t room = cc_share(L->buf_bytes, L->n);
    struct coll_host_sources s = {h, src};
    if (collect_sized_fits(h, P, room, 0)) {
        uint64_t *all = (uint64_t *)(host->buf + SIZES_AT);   /* by team index */
        uint64_t *sizes = cc_tmp((size_t)h->n_host * sizeof(uint64_t), 0);   /* my host's, in its order */
        host_sizes(h, host, mine, all);
        for (int k = 0; k < h->n_host; k++)
            sizes[k] = all[h->host_members[k]];
        return collect_sized_round(L, h, P, L->buf, room, F_SIZED, sizes, coll_fetch_host_block, &s, b->dest,
                                   (size_t *)b->off, (size_t *)b->len);
    }
    sizes_to_offsets(t, h, host, mine, (size_t *)b->off, (size_t *)b->len);
    coll_gather_host(&s, b);
    return false;
}

bool collect_hier(struct shoal_team *t, void *dest, const void *src, size_t nbytes, bool fixed)
{
    const struct coll_hosts *h = coll_team_hosts(t);
    int P = t->n_pes;
    struct coll_call host = coll_team_phase(t, BANK_HOST, h->host_pes, h->n_host, h->my_host_idx);
    if (!fixed && SIZES_AT + (size_t)P * sizeof(uint64_t) > host.buf_bytes)
        return false;   /* decided from P alone: the same on every member */
    if (h->my_leader_idx < 0) {
        if (!fixed)
            *(uint64_t *)host.buf = nbytes;   /* the leader reads it after my arrival */
        host_signal(&host, 0, L_ARRIVE);
        host_await(&host, L_DATA, 1);
        return true;
    }
    host_await(&host, L_ARRIVE, h->n_host - 1);
    struct coll_blocks b = {.dest = dest, .mine = NULL, .len0 = nbytes};
    struct coll_call L = coll_team_phase(t, BANK_LEADERS, h->leader_pes, h->n_hosts, h->my_leader_idx);
    bool moved = false;
    if (!fixed) {
        size_t *off = (size_t *)cc_tmp(2 * (size_t)(P + h->n_hosts) * sizeof(size_t), 4);   /* 0-3: the network phase */
        b.off = off;
        b.len = off + P;
        moved = sizes_and_blocks(t, h, &host, &L, nbytes, src, &b);
    } else {
        struct coll_host_sources s = {h, src};
        coll_gather_host(&s, &b);   /* step 1 for the leader: my host's blocks into my dest */
    }
    L.dest_ready = !fixed;   /* every leader's size reached me: every leader has entered */
    if (!moved)
        collect_hier_exchange(&L, h, &b, P, fixed ? K_FCOLLECT : K_COLLECT);
    size_t total = blk_span(&b, 0, P);
    for (int k = 1; k < h->n_host; k++)
        host_put_signal(&host, k, dest, dest, total, L_DATA);
    return true;
}
