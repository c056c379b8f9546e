/* Host, then leaders, then host for the deprecated active-set forms
 * (shmem_long_sum_to_all, shmem_broadcast64, shmem_fcollect64,
 * shmem_barrier on a PE_start/logPE_stride/PE_size set) when the set spans
 * hosts: legacy codes and OSU call these, and run flat every step of an
 * algorithm over all members would be a network operation (in a job that
 * spans hosts every flag AMO goes through the network, even to a PE on my
 * host).  Here only one leader per host touches the network, with the
 * flat algorithm the selection picks for the leaders.
 *
 * Everything lives in the user's pSync (no team, no state between calls),
 * which every member leaves all SHMEM_SYNC_VALUE on return:
 *   flag words [0, H_ARRIVE)   the leaders' phase (any flat algorithm; the
 *                              largest uses fewer than 60 words);
 *   H_ARRIVE, H_DATA           the host phase: a member's arrival at its
 *                              leader, the leader's "your data is there".
 *                              Only CPU atomics on this host touch them (or
 *                              only network AMOs when my host's members do
 *                              not share memory), never both, so they count
 *                              exactly; each owner takes back what it waited
 *                              for.
 * The barrier keeps to its own words (ACTIVE_BARRIER_WORD.., group.c), the
 * host words at the end of them.  Active sets promise that every member's
 * dest (and pWrk) is ready before any member calls (coll_call.dest_ready):
 * a leader writes members' dests without waiting for them, and members
 * push their blocks into their leader's dest. */
#include "coll_internal.h"

enum { H_ARRIVE = 62, H_DATA = 63 };   /* flag words of the host phase */
enum { BARRIER_WORDS = 20 };           /* ACTIVE_BARRIER_WORD.. to the pSync's end */

struct as_host {
    struct coll_call c;   /* my host's members */
    bool shm;             /* they share memory with me */
};

static struct as_host host_call(const struct coll_call *all, const struct coll_hosts *h)
{
    struct as_host hc = {.c = *all};
    hc.c.n = h->n_host;
    hc.c.me = h->my_host_idx;
    hc.c.members = h->host_pes;
    hc.shm = !coll_no_loadstore;
    for (int i = 0; i < h->n_host && hc.shm; i++)
        hc.shm = shoal_ptr(all->flag, h->host_pes[i]) != NULL;
    hc.c.shm = hc.shm;
    return hc;
}

static struct coll_call leader_call(const struct coll_call *all, const struct coll_hosts *h, const int *pes)
{
    struct coll_call L = *all;
    L.n = h->n_hosts;
    L.me = h->my_leader_idx;
    L.members = pes;
    L.shm = false;
    return L;
}

static void host_signal(const struct as_host *hc, int i, int idx)
{
    if (!hc->shm) {
        cc_signal(&hc->c, i, idx);
        return;
    }
    int pe = cc_pe(&hc->c, i);
    __atomic_fetch_add((uint64_t *)shoal_ptr(&hc->c.flag[idx], pe), 1, __ATOMIC_RELEASE);
    shoal_notify(pe);
}

static void host_await(const struct as_host *hc, int idx, uint64_t count)
{
    if (!hc->shm) {
        cc_await(&hc->c, idx, count);
        return;
    }
    if (!count)
        return;
    uint64_t *w = &hc->c.flag[idx];
    if (__atomic_load_n(w, __ATOMIC_ACQUIRE) < count)
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(w, __ATOMIC_ACQUIRE) < count);
    __atomic_fetch_sub(w, count, __ATOMIC_RELAXED);
}

/* n bytes into host member i's symmetric dst, then its flag idx. */
static void host_put_signal(const struct as_host *hc, int i, void *dst, const void *src, size_t n, int idx)
{
    if (!hc->shm) {
        cc_put_signal(&hc->c, i, dst, src, n, idx);
        return;
    }
    if (n)
        memcpy(shoal_ptr(dst, cc_pe(&hc->c, i)), src, n);
    host_signal(hc, i, idx);
}

bool coll_active_spans_hosts(const struct shoal_active_set *as)
{
    if (as->size < 3 || coll_no_loadstore)
        return false;
    const struct coll_hosts *h = coll_active_hosts(as);
    return h->n_hosts > 1 && h->n_hosts < as->size;
}

/* Reduce: the leader combines its host's sources (read in place once the
 * members have arrived), the leaders reduce among themselves, each leader
 * writes the result into its members' dests. */
void reduce_as_hier(const struct coll_call *c, const struct shoal_active_set *as, const struct coll_reduce *r)
{
    const struct coll_hosts *h = coll_active_hosts(as);
    struct as_host hc = host_call(c, h);
    size_t bytes = r->count * r->elem;
    if (h->my_leader_idx < 0) {
        host_signal(&hc, 0, H_ARRIVE);
        host_await(&hc, H_DATA, 1);
        return;
    }
    host_await(&hc, H_ARRIVE, h->n_host - 1);
    memmove(r->dest, r->src, bytes);
    void *tmp = hc.shm ? NULL : cc_tmp(bytes, 4);
    for (int i = 1; i < h->n_host; i++)
        coll_combine(r->op, r->dt, r->dest, cc_peer_view(&hc.c, i, r->src, bytes, tmp), r->count);
    struct coll_call L = leader_call(c, h, h->leader_pes);
    struct coll_reduce again = *r;
    again.src = r->dest;
    coll_reduce_run(&L, &again);
    for (int i = 1; i < h->n_host; i++)
        host_put_signal(&hc, i, r->dest, r->dest, bytes, H_DATA);
}

/* Broadcast: each host's representative (the root on its host, the leader
 * elsewhere) takes part in the leaders' broadcast, then copies into its
 * host members' dests.  The root's dest stays untouched (1.4 semantics). */
void bcast_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                   size_t n, int root)
{
    const struct coll_hosts *h = coll_active_hosts(as);
    int root_host = h->member_host[root], my_host = h->member_host[c->me];
    int rep = 0;
    if (my_host == root_host)
        while (h->host_members[rep] != root)
            rep++;
    struct as_host hc = host_call(c, h);
    if (h->my_host_idx != rep) {
        host_await(&hc, H_DATA, 1);
        return;
    }
    int *reps = cc_tmp((size_t)h->n_hosts * sizeof(int), 4);   /* 0-3: the leaders' algorithm */
    memcpy(reps, h->leader_pes, h->n_hosts * sizeof(int));
    reps[root_host] = cc_pe(c, root);
    struct coll_call L = leader_call(c, h, reps);
    L.me = my_host;
    coll_bcast_run(&L, dest, src, n, root_host, false);
    const void *data = c->me == root ? src : dest;
    for (int i = 0; i < h->n_host; i++)
        if (i != rep)
            host_put_signal(&hc, i, dest, data, n, H_DATA);
}

/* A leader's share of the pSync's scratch past its first line, where each
 * member left its size, for the leaders' run of sizes and blocks
 * (collect_sized.c): the same on every member. */
static size_t sized_room(const struct coll_call *c, const struct coll_hosts *h)
{
    return c->buf_bytes > 64 ? cc_share(c->buf_bytes - 64, h->n_hosts) : 0;
}

/* Fcollect: members push their blocks into their leader's dest, the
 * leaders exchange their hosts' blocks (collect_hier.c), each leader
 * copies the whole result into its members' dests.  Where hosts
 * interleave in the set (round-robin placement) that exchange sends a
 * message per block; when every host's blocks fit a leader's share of the
 * scratch the collect's way sends one run per leader instead (2 hosts x 2
 * PEs round-robin, fcollect 8 B: 37 -> 15.5 us, as with block placement). */
void fcollect_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                      size_t n)
{
    const struct coll_hosts *h = coll_active_hosts(as);
    if (!h->contiguous && collect_sized_fits(h, c->n, sized_room(c, h), n) && collect_as_hier(c, as, dest, src, n))
        return;
    struct as_host hc = host_call(c, h);
    if (h->my_leader_idx < 0) {
        host_put_signal(&hc, 0, (char *)dest + (size_t)c->me * n, src, n, H_ARRIVE);
        host_await(&hc, H_DATA, 1);
        return;
    }
    memmove((char *)dest + (size_t)c->me * n, src, n);
    host_await(&hc, H_ARRIVE, h->n_host - 1);
    struct coll_call L = leader_call(c, h, h->leader_pes);
    struct coll_blocks b = {.dest = dest, .mine = NULL, .len0 = n};
    collect_hier_exchange(&L, h, &b, c->n, K_FCOLLECT);
    for (int i = 1; i < h->n_host; i++)
        host_put_signal(&hc, i, dest, dest, (size_t)c->n * n, H_DATA);
}

/* Collect (sizes differ): every member leaves its size in its own scratch
 * word 0 and arrives; its leader reads the sizes and puts them, at their
 * members' indices, into every other leader's scratch (words 1..P, signal
 * W_LEADERS), so every leader knows every offset; then each leader pulls its
 * host's blocks into place and the leaders exchange them as fcollect does.
 * false (on every member alike, from P) when the sizes do not fit the
 * pSync's scratch: run flat. */
enum { W_LEADERS = 59 };   /* a leaders' flag no collect algorithm uses (theirs: below 59, 60-61) */

/* Every member's size into every leader's table (P members): each put
 * carries its own signal (puts, a fence and one signal cost a round trip
 * across hosts for the fence), one span per host when each host's members
 * are consecutive, else one size per member. */
static void exchange_sizes(const struct coll_call *L, const struct coll_hosts *h, uint64_t *table, int P)
{
    int first = h->host_members[0], n = h->n_host;
    for (int d = 1; d < L->n; d++) {
        int j = (L->me + d) % L->n;
        if (h->contiguous)
            cc_put_signal(L, j, &table[first], &table[first], (size_t)n * sizeof(uint64_t), W_LEADERS);
        else
            for (int k = 0; k < n; k++) {
                uint64_t *w = &table[h->host_members[k]];
                cc_put_signal(L, j, w, w, sizeof(uint64_t), W_LEADERS);
            }
    }
    cc_await(L, W_LEADERS, (uint64_t)(h->contiguous ? L->n - 1 : P - n));
}

/* Every member's offset from my host's sizes (mine, in its order), and my
 * host's blocks at their places: sizes and blocks in one round of the
 * leaders when the sizes fit the pSync's scratch past its first line, where
 * each member left its size (collect_sized.c; true when every other host's
 * blocks came too), else the sizes in a round of their own, through a table
 * in the scratch that this round's shares would overlap. */
static bool sizes_and_blocks(const struct coll_call *L, const struct coll_hosts *h, const struct coll_call *c,
                             const uint64_t *mine, struct coll_host_sources *hb, struct coll_blocks *b, int P)
{
    size_t *off = (size_t *)b->off, *len = (size_t *)b->len;
    size_t room = sized_room(c, h);
    if (collect_sized_fits(h, P, room, 0))
        return collect_sized_round(L, h, P, c->buf + 64, room, W_LEADERS, mine, coll_fetch_host_block, hb, b->dest, off,
                                   len);
    uint64_t *sizes = (uint64_t *)c->buf;   /* [1 + i]: member i's */
    for (int k = 0; k < h->n_host; k++)
        sizes[1 + h->host_members[k]] = mine[k];
    exchange_sizes(L, h, sizes + 1, P);
    size_t at = 0;
    for (int i = 0; i < P; i++) {
        off[i] = at;
        len[i] = sizes[1 + i];
        at += len[i];
    }
    coll_gather_host(hb, b);
    return false;
}

bool collect_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                     size_t n)
{
    int P = c->n;
    if ((size_t)(P + 1) * sizeof(uint64_t) > c->buf_bytes)
        return false;
    const struct coll_hosts *h = coll_active_hosts(as);
    struct as_host hc = host_call(c, h);
    uint64_t *sizes = (uint64_t *)c->buf;   /* [0]: mine; [1 + i]: member i's (leaders) */
    if (h->my_leader_idx < 0) {
        sizes[0] = n;
        host_signal(&hc, 0, H_ARRIVE);   /* releases the size too */
        host_await(&hc, H_DATA, 1);
        return true;
    }
    host_await(&hc, H_ARRIVE, h->n_host - 1);
    uint64_t *mine = cc_tmp((size_t)h->n_host * sizeof(uint64_t), 0);   /* my host's, in its order */
    for (int k = 0; k < h->n_host; k++) {
        mine[k] = n;
        if (k != h->my_host_idx)
            mine[k] = *(const uint64_t *)cc_peer_view(&hc.c, k, &sizes[0], sizeof mine[k], &mine[k]);
    }
    struct coll_call L = leader_call(c, h, h->leader_pes);
    /* (sized as collect_hier_exchange wants slot 4: its span table follows) */
    size_t *off = cc_tmp(2 * (size_t)(P + L.n) * sizeof(size_t), 4), *len = off + P;
    struct coll_blocks b = {.dest = dest, .mine = NULL, .off = off, .len = len};
    struct coll_host_sources hb = {h, src};
    if (!sizes_and_blocks(&L, h, c, mine, &hb, &b, P))
        collect_hier_exchange(&L, h, &b, P, K_COLLECT);
    for (int i = 1; i < h->n_host; i++)
        host_put_signal(&hc, i, dest, dest, blk_span(&b, 0, P), H_DATA);
    return true;
}

/* Alltoall: once its host's members have arrived, the leader sends every
 * block of their sources straight to its place: a copy on this host, a put
 * (all in flight at once) to another host's member, whose dest is ready by
 * the active-set promise.  One quiet, one signal to each other leader;
 * each leader releases its host when every other leader has signalled.
 * The network carries one latency instead of the P - 1 handshaken rounds
 * of the flat pairwise exchange. */
void alltoall_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                      size_t n)
{
    const struct coll_hosts *h = coll_active_hosts(as);
    struct as_host hc = host_call(c, h);
    if (h->my_leader_idx < 0) {
        host_signal(&hc, 0, H_ARRIVE);
        host_await(&hc, H_DATA, 1);
        return;
    }
    host_await(&hc, H_ARRIVE, h->n_host - 1);
    int P = c->n, here = h->member_host[c->me];
    void *tmp = hc.shm ? NULL : cc_tmp((size_t)P * n, 4);
    for (int k = 0; k < h->n_host; k++) {
        int a = h->host_members[k];   /* the sender */
        const char *blocks = cc_peer_view(&hc.c, k, src, (size_t)P * n, tmp);
        char *to = (char *)dest + (size_t)a * n;
        for (int b = 0; b < P; b++) {
            if (h->member_host[b] == here && hc.shm)
                memcpy(shoal_ptr(to, cc_pe(c, b)), blocks + (size_t)b * n, n);
            else
                cc_put(c, b, to, blocks + (size_t)b * n, n);
        }
        if (!hc.shm)
            shoal_quiet(COLL_CTX);   /* tmp is reused for the next sender */
    }
    shoal_quiet(COLL_CTX);   /* every block delivered before the other leaders hear of it */
    struct coll_call L = leader_call(c, h, h->leader_pes);
    for (int d = 1; d < L.n; d++)
        cc_signal(&L, (L.me + d) % L.n, W_LEADERS);
    cc_await(&L, W_LEADERS, L.n - 1);
    for (int i = 1; i < h->n_host; i++)
        host_signal(&hc, i, H_DATA);
}

/* Barrier: arrive at the leader, dissemination among leaders, release. */
void barrier_as_hier(const struct coll_call *c, const struct shoal_active_set *as)
{
    const struct coll_hosts *h = coll_active_hosts(as);
    struct as_host hc = host_call(c, h);
    enum { ARRIVE = BARRIER_WORDS - 2, RELEASE = BARRIER_WORDS - 1 };
    if (h->my_leader_idx < 0) {
        host_signal(&hc, 0, ARRIVE);
        host_await(&hc, RELEASE, 1);
        return;
    }
    host_await(&hc, ARRIVE, h->n_host - 1);
    struct coll_call L = leader_call(c, h, h->leader_pes);
    cc_barrier(&L, 0);
    for (int i = 1; i < h->n_host; i++)
        host_signal(&hc, i, RELEASE);
}
