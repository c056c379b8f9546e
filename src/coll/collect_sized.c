/* The leaders' round of a collect across hosts, sizes and blocks together.
 * A collect's sizes are known only on each member's host, and a leader may
 * write another leader's dest only once that one has entered, so the plain
 * way is two network rounds: the sizes (into scratch, free on entry), then
 * the blocks (into dests, free once every leader's sizes have come).  Here
 * each leader puts into its share of every other leader's scratch one run:
 *
 *   word 0           1 when the blocks follow, 0 when they did not fit
 *   words 1..n       the sizes of its host's members, in team order
 *   then             those members' blocks, packed in the same order
 *
 * When every run carried its blocks, that one round is the whole exchange;
 * otherwise every leader knows it from the same runs, and the caller
 * exchanges the blocks into the dests as before (every leader has entered).
 * Only when even the sizes do not fit a share (a host of many members, a
 * small active-set pSync) does the caller keep to the two rounds. */
#include "coll_internal.h"

void coll_fetch_host_block(void *arg, int k, void *to, size_t len)
{
    const struct coll_host_sources *s = arg;
    if (k == s->h->my_host_idx)
        memmove(to, s->src, len);
    else if (len)
        shoal_get(COLL_CTX, to, s->src, len, s->h->host_pes[k], false);
}

void coll_gather_host(const struct coll_host_sources *s, const struct coll_blocks *b)
{
    for (int k = 0; k < s->h->n_host; k++) {
        int m = s->h->host_members[k];
        coll_fetch_host_block((void *)s, k, (char *)b->dest + blk_off(b, m), blk_len(b, m));
    }
}

static size_t host_count(const struct coll_hosts *h, int P, int k)
{
    size_t n = 0;
    for (int i = 0; i < P; i++)
        n += h->member_host[i] == k;
    return n;
}

/* Every leader's run lands on the same flag of each other leader: beyond
 * this many, P-1 signals on one word queue up (coll.c, SIZES_LINEAR_MAX),
 * and the two rounds, each with the selection's algorithm, are kept. */
enum { SIZED_MAX_LEADERS = 16 };

bool collect_sized_fits(const struct coll_hosts *h, int P, size_t room, size_t block)
{
    if (!room || h->n_hosts > SIZED_MAX_LEADERS)
        return false;
    for (int k = 0; k < h->n_hosts; k++)
        if ((host_count(h, P, k) + 1) * sizeof(uint64_t) + host_count(h, P, k) * block > room)
            return false;
    return true;
}

/* My run, in my own share of my scratch (nobody else writes it): its length. */
static size_t fill_run(uint64_t *run, size_t room, const struct coll_hosts *h, const uint64_t *mine,
                       coll_fetch_fn fetch, void *arg)
{
    size_t head = (size_t)(h->n_host + 1) * sizeof(uint64_t), total = 0;
    for (int k = 0; k < h->n_host; k++) {
        run[1 + k] = mine[k];
        total += mine[k];
    }
    run[0] = head + total <= room;
    if (!run[0])
        return head;
    char *p = (char *)run + head;
    for (int k = 0; k < h->n_host; k++) {
        fetch(arg, k, p, mine[k]);
        p += mine[k];
    }
    return head + total;
}

bool collect_sized_round(const struct coll_call *L, const struct coll_hosts *h, int P, char *scratch, size_t room,
                         int flag, const uint64_t *mine, coll_fetch_fn fetch, void *arg, void *dest, size_t *off,
                         size_t *len)
{
    uint64_t *run = (uint64_t *)(scratch + (size_t)L->me * room);
    size_t bytes = fill_run(run, room, h, mine, fetch, arg);
    for (int d = 1; d < L->n; d++)
        cc_put_signal(L, (L->me + d) % L->n, run, run, bytes, flag);
    cc_await(L, flag, (uint64_t)(L->n - 1));
    /* member i is the next of its host's run, in team order */
    size_t *next = cc_tmp((size_t)L->n * sizeof(size_t), 1);
    bool all = true;
    for (int k = 0; k < L->n; k++) {
        next[k] = 0;
        all = all && ((const uint64_t *)(scratch + (size_t)k * room))[0];
    }
    size_t at = 0;
    for (int i = 0; i < P; i++) {
        int k = h->member_host[i];
        len[i] = ((const uint64_t *)(scratch + (size_t)k * room))[1 + next[k]++];
        off[i] = at;
        at += len[i];
    }
    if (!all) {   /* my host's blocks to their places, for the caller's exchange */
        for (int k = 0; k < h->n_host; k++)
            fetch(arg, k, (char *)dest + off[h->host_members[k]], mine[k]);
        return false;
    }
    /* next[k] now counts host k's members: its blocks start past its sizes */
    for (int k = 0; k < L->n; k++)
        next[k] = (next[k] + 1) * sizeof(uint64_t);
    for (int i = 0; i < P; i++) {
        int k = h->member_host[i];
        memcpy((char *)dest + off[i], scratch + (size_t)k * room + next[k], len[i]);
        next[k] += len[i];
    }
    return true;
}
