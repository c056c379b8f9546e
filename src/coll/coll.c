/* The collectives' entry points (called by the typed API wrappers): set up
 * the call on the team's next pSync slot, or on an active set's pSync, ask
 * select.c for an algorithm, run it.  Zero-length calls return at once on
 * every member alike (the length is the same everywhere), and one-member
 * teams just copy. */
#include "coll_internal.h"

struct shoal_ctx shoal_coll_ctx = {.team = &shoal_team_world, .awaited = true};

enum { ACTIVE_MIN_WRK = 16 };   /* SHMEM_REDUCE_MIN_WRKDATA_SIZE */

bool coll_spans_hosts(struct shoal_team *t)
{
    if (t->n_pes < 3 || (t->all_local && coll_fake_hosts == 0))
        return false;
    const struct coll_hosts *h = coll_team_hosts(t);
    return h->n_hosts > 1 && h->n_hosts < t->n_pes;
}

static struct coll_shape shape_of(const struct coll_call *c, size_t bytes)
{
    return (struct coll_shape){.n = c->n, .bytes = bytes, .shm = c->shm, .scratch = c->buf_bytes, .lines = c->line,
                               .ring = c->bcast_ring, .memo = c->memo};
}

/* Whether a team call goes host, leaders, host.  Only a team that spans
 * hosts can (select.c), so a team on one host asks nothing here: the
 * algorithm's own run asks once (each question is ~100 instructions of a
 * call that takes ~700 in all: 2 PEs, an 8-byte broadcast). */
static bool hier_chosen(struct shoal_team *t, const struct coll_call *c, enum coll_kind k, size_t bytes)
{
    if (!coll_spans_hosts(t))
        return false;
    struct coll_shape s = shape_of(c, bytes);
    s.multi_host = true;
    return coll_choose(k, &s) == A_HIER;
}

/* The same call with its flags moved to another set of words (a phase). */
static struct coll_call with_flags(const struct coll_call *c, ptrdiff_t shift)
{
    struct coll_call p = *c;
    p.flag += shift;
    if (p.seen)
        p.seen += shift;
    return p;
}

/* ---- reductions ---- */

void coll_reduce_run(const struct coll_call *c, const struct coll_reduce *r)
{
    if (c->n == 1) {
        if (r->dest != r->src)
            memcpy(r->dest, r->src, r->count * r->elem);
        return;
    }
    struct coll_shape s = shape_of(c, r->count * r->elem);
    switch (coll_choose(K_REDUCE, &s)) {
    case A_FLAT: reduce_flat(c, r); break;
    case A_RING: reduce_ring(c, r); break;
    case A_BRUCK: reduce_bruck(c, r); break;
    case A_RSAG: reduce_rsag(c, r); break;
    case A_SHM:
        if (c->bcast_ring && c->shm && s.bytes <= COLL_RING_BYTES) {
            reduce_shm(c, r);
            break;
        }
        __attribute__((fallthrough));   /* no ring here (an active set, a phase of a hierarchy) */
    default:
        if (c->shm && s.bytes > COLL_RECDBL_LS_BYTES)
            reduce_recdbl_ls(c, r);
        else
            reduce_recdbl(c, r);
        break;
    }
}

int shoal_coll_reduce(struct shoal_team *t, enum shoal_op op, enum shoal_dtype dt, void *dest, const void *src,
                      size_t nreduce)
{
    struct coll_reduce r = {op, dt, coll_dtype_size(dt), dest, src, nreduce};
    if (!nreduce)
        return 0;
    if (t->n_pes == 1) {
        if (dest != src)
            memcpy(dest, src, nreduce * r.elem);
        return 0;
    }
    const struct coll_call *c = coll_team_call(t);
    if (hier_chosen(t, c, K_REDUCE, nreduce * r.elem))
        reduce_hier(t, &r);
    else
        coll_reduce_run(c, &r);
    return 0;
}

int shoal_coll_scan(struct shoal_team *t, enum shoal_dtype dt, void *dest, const void *src, size_t nelems,
                    bool inclusive)
{
    if (!nelems)
        return 0;
    const struct coll_call *c = coll_team_call(t);
    scan_recdbl(c, dt, dest, src, nelems, inclusive);
    return 0;
}

/* ---- broadcast ---- */

void coll_bcast_run(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest)
{
    struct coll_shape s = shape_of(c, n);
    switch (coll_choose(K_BCAST, &s)) {
    case A_PULL:
        if (c->shm) {
            bcast_pull(c, dest, src, n, root, root_dest);
            break;
        }
        __attribute__((fallthrough));   /* members cannot read the root's memory */
    case A_SHM:
        if (c->bcast_ring && c->shm && root_dest && n <= COLL_RING_BYTES) {
            bcast_shm(c, dest, src, n, root);
            break;
        }
        __attribute__((fallthrough));   /* not applicable here (an active set): one put each, a signal */
    case A_LINEAR: bcast_linear(c, dest, src, n, root, root_dest); break;
    case A_SCATTER_ALLGATHER:
        if (root_dest) {
            bcast_scatter_allgather(c, dest, src, n, root);
            break;
        }
        __attribute__((fallthrough));   /* an active-set root's dest must stay untouched */
    default: bcast_binomial(c, dest, src, n, root, root_dest); break;
    }
}

int shoal_coll_broadcast(struct shoal_team *t, void *dest, const void *src, size_t nbytes, int root)
{
    if (!nbytes)
        return 0;
    if (t->n_pes == 1) {
        if (dest != src)
            memcpy(dest, src, nbytes);
        return 0;
    }
    const struct coll_call *c = coll_team_call(t);
    coll_team_broadcast_root(t, c, root);
    if (hier_chosen(t, c, K_BCAST, nbytes))
        bcast_hier(t, c, dest, src, nbytes, root);
    else
        coll_bcast_run(c, dest, src, nbytes, root, true);
    return 0;
}

/* ---- collect / fcollect ---- */

void coll_collect_run(const struct coll_call *c, enum coll_kind k, const struct coll_blocks *b, size_t avg)
{
    struct coll_shape s = shape_of(c, avg);
    switch (coll_choose(k, &s)) {
    case A_SHM:
        if (!b->off && c->bcast_ring && c->shm && b->len0 <= COLL_RING_BYTES) {
            fcollect_shm(c, b);
            break;
        }
        __attribute__((fallthrough));   /* not applicable here: the small equal-block form that is */
    case A_LINEAR: collect_linear(c, b); break;
    case A_RING: collect_ring(c, b); break;
    case A_RECDBL: collect_recdbl(c, b); break;
    default: collect_bruck(c, b); break;
    }
}

int shoal_coll_fcollect(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    if (!nbytes)
        return 0;
    const struct coll_call *c = coll_team_call(t);
    if (hier_chosen(t, c, K_FCOLLECT, nbytes) && collect_hier(t, dest, src, nbytes, true))
        return 0;
    struct coll_blocks b = {.dest = dest, .mine = src, .len0 = nbytes};
    coll_collect_run(c, K_FCOLLECT, &b, nbytes);
    return 0;
}

/* Offsets from every member's size, gathered into my scratch.  The slot's
 * scratch is free on entry (no member is still in the slot's previous
 * call), so no entry handshake; one round of direct writes for teams small
 * enough that P-1 signals on one word do not queue up, Bruck's log2 P
 * rounds beyond. */
enum { SIZES_LINEAR_MAX = 16 };
static void offsets_from_sizes(const struct coll_call *sizes, size_t mine, size_t *off, size_t *len)
{
    uint64_t *all = (uint64_t *)sizes->buf, me = mine;
    struct coll_blocks b = {.dest = all, .mine = &me, .len0 = sizeof(uint64_t)};
    struct coll_call free_scratch = *sizes;
    free_scratch.dest_ready = true;
    if (sizes->n <= SIZES_LINEAR_MAX)
        collect_linear(&free_scratch, &b);
    else
        collect_bruck(&free_scratch, &b);
    size_t at = 0;
    for (int i = 0; i < sizes->n; i++) {
        off[i] = at;
        len[i] = all[i];
        at += all[i];
    }
}

/* Only my own offset, by an exclusive scan: for teams too large to gather
 * every size into scratch, and active sets (whose pSync holds little). */
static size_t my_offset(const struct coll_call *scan, size_t mine)
{
    uint64_t me = mine, before = 0;
    scan_recdbl(scan, SHOAL_DT_uint64, &before, &me, 1, false);
    return before;
}

/* A flat team over the network: every member its own host of one in
 * collect_sized.c's round, sizes and blocks together. */
enum sized_result { SIZED_NOT_RUN, SIZED_SIZES, SIZED_MOVED };
enum { F_SIZED = 62 };   /* above the collect algorithms' flags */

static void fetch_own(void *arg, int k, void *to, size_t len)
{
    (void)k;
    memcpy(to, arg, len);
}

/* SIZED_MOVED: every block is in dest; SIZED_SIZES: off/len are set and
 * my block is in place, the others still to exchange; SIZED_NOT_RUN: the
 * sizes do not fit the scratch (decided from P alone). */
static enum sized_result sized_round_flat(const struct coll_call *c, void *dest, const void *src, size_t mine,
                                          size_t *off, size_t *len)
{
    int P = c->n, me = c->me;
    size_t room = c->buf ? cc_share(c->buf_bytes, P) : 0;
    if (!room)
        return SIZED_NOT_RUN;
    int *host_of = cc_tmp((size_t)P * sizeof(int), 2);
    for (int i = 0; i < P; i++)
        host_of[i] = i;
    struct coll_hosts one = {.n_hosts = P, .n_host = 1, .my_host_idx = 0, .host_members = &me, .member_host = host_of,
                             .my_leader_idx = me};
    if (!collect_sized_fits(&one, P, room, 0))
        return SIZED_NOT_RUN;
    uint64_t size = mine;
    return collect_sized_round(c, &one, P, c->buf, room, F_SIZED, &size, fetch_own, (void *)src, dest, off, len)
               ? SIZED_MOVED
               : SIZED_SIZES;
}

/* The general path of a team collect: the sizes first (unless the ring or
 * sized round gave them), then the blocks.  ring: collect_shm ran and set
 * off/len, but some block did not fit its entry. */
static void collect_exchange(const struct coll_call *c, bool ring, void *dest, const void *src, size_t nbytes, size_t *off,
                             size_t *len)
{
    int P = c->n;
    struct coll_call sizes = with_flags(c, (BANK_SIZES - BANK_CALL) * COLL_NFLAGS);
    struct coll_blocks b = {.dest = dest, .mine = src, .off = off, .len = len};
    enum sized_result sized = !c->shm && !ring ? sized_round_flat(c, dest, src, nbytes, off, len) : SIZED_NOT_RUN;
    if (sized == SIZED_MOVED)
        return;
    if (ring || sized == SIZED_SIZES || (size_t)P * sizeof(uint64_t) <= c->buf_bytes) {
        if (!ring && sized == SIZED_NOT_RUN)   /* else the ring or sized round gave every size */
            offsets_from_sizes(&sizes, nbytes, off, len);
        /* Every member's size reached me, so every member has entered and
         * its dest is free: the data phase needs no entry handshake (one
         * round of P-1 signals and wake-ups fewer). */
        struct coll_call data = *c;   /* the slot's own call stays as it is for later calls */
        data.dest_ready = true;
        size_t total = off[P - 1] + len[P - 1];
        if (total)
            coll_collect_run(&data, K_COLLECT, &b, total / P);
        return;
    }
    off[c->me] = my_offset(&sizes, nbytes);
    len[c->me] = nbytes;
    collect_linear(c, &b);
}

/* The ring's one round first: on a team that shares memory it is the whole
 * call whenever every block fits an entry, so that path asks nothing else
 * (2 PEs, 8 B, callgrind: ~800 -> ~650 instructions a call). */
int shoal_coll_collect(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    int P = t->n_pes;
    if (P == 1) {
        memcpy(dest, src, nbytes);
        return 0;
    }
    const struct coll_call *c = coll_team_call(t);
    struct coll_shape s = shape_of(c, 0);   /* sizes differ per member: not a shared fact */
    s.multi_host = coll_spans_hosts(t);
    enum coll_alg a = coll_choose(K_COLLECT, &s);
    if (s.multi_host && a == A_HIER && collect_hier(t, dest, src, nbytes, false))
        return 0;
    size_t *off = cc_tmp(2 * P * sizeof(size_t), 3), *len = off + P;
    bool ring = c->bcast_ring && c->shm && a == A_SHM;
    if (ring && collect_shm(c, dest, src, nbytes, off, len))
        return 0;   /* every block fitted its ring entry */
    collect_exchange(c, ring, dest, src, nbytes, off, len);
    return 0;
}

/* ---- alltoall ---- */

int shoal_coll_alltoall(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    if (!nbytes)
        return 0;
    const struct coll_call *c = coll_team_call(t);
    struct coll_shape s = shape_of(c, nbytes);
    if (coll_choose(K_ALLTOALL, &s) == A_SHM && c->shm && (size_t)c->n * nbytes <= COLL_RING_BYTES)
        alltoall_shm(c, dest, src, nbytes);
    else
        alltoall_pairwise(c, dest, src, 1, 1, nbytes, 1);
    return 0;
}

int shoal_coll_alltoalls(struct shoal_team *t, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                         size_t elem, size_t nelems)
{
    if (!nelems)
        return 0;
    const struct coll_call *c = coll_team_call(t);
    alltoall_pairwise(c, dest, src, dst, sst, elem, nelems);
    return 0;
}

/* ---- deprecated active-set forms: flags in the user's pSync, which is
 * left all SHMEM_SYNC_VALUE on return; scratch in pWrk or the pSync's
 * second half. ---- */

enum { ACTIVE_PHASE = 32 };   /* flags of a first phase, away from the data phase's */

/* Host, leaders, host (active_hier.c) when the set spans hosts, as for teams. */
static bool active_hier(enum coll_kind k, const struct coll_call *c, const struct shoal_active_set *as, size_t bytes)
{
    struct coll_shape s = shape_of(c, bytes);
    s.multi_host = coll_active_spans_hosts(as);
    return s.multi_host && coll_choose(k, &s) == A_HIER;
}

void shoal_coll_barrier_as(const struct shoal_active_set *as)
{
    struct coll_call c = coll_active_barrier_call(as);
    if (c.n > 1) {
        struct coll_shape s = {.n = c.n, .shm = false, .multi_host = coll_active_spans_hosts(as)};
        enum coll_alg a = coll_choose(K_BARRIER, &s);
        if (a == A_HIER)
            barrier_as_hier(&c, as);
        else if (a == A_TREE)
            barrier_tree_call(&c);
        else
            cc_barrier(&c, 0);
    }
}

void shoal_coll_broadcast_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes,
                             int root)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    if (nbytes && c.n > 1) {
        if (active_hier(K_BCAST, &c, as, nbytes))
            bcast_as_hier(&c, as, dest, src, nbytes, root);
        else
            coll_bcast_run(&c, dest, src, nbytes, root, false);
    }
    coll_active_done(&c, as);
}

void shoal_coll_fcollect_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    struct coll_blocks b = {.dest = dest, .mine = src, .len0 = nbytes};
    if (nbytes && active_hier(K_FCOLLECT, &c, as, nbytes))
        fcollect_as_hier(&c, as, dest, src, nbytes);
    else if (nbytes)
        coll_collect_run(&c, K_FCOLLECT, &b, nbytes);
    coll_active_done(&c, as);
}

void shoal_coll_collect_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    if (active_hier(K_COLLECT, &c, as, 0) && collect_as_hier(&c, as, dest, src, nbytes)) {
        coll_active_done(&c, as);
        return;
    }
    struct coll_call scan = with_flags(&c, ACTIVE_PHASE);
    size_t *off = cc_tmp(2 * c.n * sizeof(size_t), 3), *len = off + c.n;
    struct coll_blocks b = {.dest = dest, .mine = src, .off = off, .len = len};
    enum sized_result sized = !c.shm && c.n > 1 ? sized_round_flat(&c, dest, src, nbytes, off, len) : SIZED_NOT_RUN;
    if (sized == SIZED_NOT_RUN) {   /* only my own offset, by a scan */
        off[c.me] = c.n > 1 ? my_offset(&scan, nbytes) : 0;
        len[c.me] = nbytes;
    }
    if (sized != SIZED_MOVED)
        collect_linear(&c, &b);
    coll_active_done(&c, as);
}

void shoal_coll_alltoall_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    if (nbytes && active_hier(K_ALLTOALL, &c, as, nbytes))
        alltoall_as_hier(&c, as, dest, src, nbytes);
    else if (nbytes)
        alltoall_pairwise(&c, dest, src, 1, 1, nbytes, 1);
    coll_active_done(&c, as);
}

void shoal_coll_alltoalls_as(const struct shoal_active_set *as, void *dest, const void *src, ptrdiff_t dst,
                             ptrdiff_t sst, size_t elem, size_t nelems)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    if (nelems)
        alltoall_pairwise(&c, dest, src, dst, sst, elem, nelems);
    coll_active_done(&c, as);
}

void shoal_coll_reduce_as(const struct shoal_active_set *as, enum shoal_op op, enum shoal_dtype dt, void *dest,
                          const void *src, size_t nreduce, void *pwrk)
{
    size_t elem = coll_dtype_size(dt), wrk = nreduce / 2 + 1;
    if (wrk < ACTIVE_MIN_WRK)
        wrk = ACTIVE_MIN_WRK;
    struct coll_call c = coll_active_call(as, pwrk, wrk * elem);
    struct coll_reduce r = {op, dt, elem, dest, src, nreduce};
    if (nreduce && active_hier(K_REDUCE, &c, as, nreduce * elem))
        reduce_as_hier(&c, as, &r);
    else if (nreduce)
        coll_reduce_run(&c, &r);
    coll_active_done(&c, as);
}
