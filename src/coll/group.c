/* Calls: who takes part and which flags and scratch they use, for team
 * collectives (the team's two pSync slots, alternating) and for the
 * deprecated active-set forms (the user's pSync, self-cleaning). */
#include <stdlib.h>

#include "coll_internal.h"

/* The 128 longs of an active-set pSync: the call's flags, scratch, and the
 * barrier's own words, so a barrier and another collective may follow each
 * other on one pSync (as long-standing codes do). */
enum { ACTIVE_FLAG_WORDS = 64, ACTIVE_SCRATCH_WORDS = 44, ACTIVE_BARRIER_WORD = 108 };

struct coll_team_state {
    uint64_t calls;     /* collectives begun on this team: picks the slot */
    uint64_t ring_last_use[COLL_BCAST_RING];   /* ring.c: per entry of my ring */
    uint64_t ring_arrivals[COLL_BCAST_RING];   /* bcast_shm.c: per entry of my ring */
    uint64_t synced;    /* calls begun when the last barrier on the team completed */
    int lead;           /* member to leave the next barrier first (barrier_shm.c), or -1 */
    int slot;           /* slot of the current call */
    unsigned used[SHOAL_PSYNC_PER_TEAM];   /* per slot: USED_* bits, what destroy must zero */
    bool hosts_ready;
    struct coll_hosts hosts;
    /* The ring's places in my pool block, fixed for the team's life: found
     * once (each is an address computation per call otherwise). */
    struct coll_ring_entry *ring;
    struct coll_ring_entry **peer_ring;   /* every member's ring in my mapping (teams on one host) */
    uint64_t *ring_taken;
    unsigned char *ring_tail[COLL_BCAST_RING];
    /* select.c's last answer per kind: a member of the team state, not a
     * thread-local (each thread-local access in a shared library is a
     * __tls_get_addr call); a team's collectives never run concurrently. */
    struct coll_memo memo[K_KINDS];
    /* A whole-team call on each slot, kept: a call sets its epoch and
     * synced and uses it in place (computing it was ~90 instructions of a
     * 2-PE broadcast's ~500, copying it ~40 of ~400). */
    struct coll_call call[SHOAL_PSYNC_PER_TEAM];
};
/* Parts of a slot's coll_area some call used: the flag words, a bank's
 * mailboxes, the ring.  Whatever a peer writes into mine belongs to a call
 * I take part in, so my own record covers it. */
enum { USED_FLAGS = 1u << COLL_BANKS, USED_RING = 2u << COLL_BANKS };

int coll_team_ext;

static void team_clear(struct shoal_team *t);
static void team_fini(struct shoal_team *t);
static const struct shoal_team_ext coll_ext = {
    .name = "collectives", .bytes = sizeof(struct shoal_psync), .clear = team_clear, .team_fini = team_fini,
};
__attribute__((constructor)) static void register_ext(void)
{
    coll_team_ext = shoal_team_ext_register(&coll_ext);
}

static void free_hosts(struct coll_hosts *h);

static struct coll_area *area_of(const struct shoal_team *t, int slot);

/* Each take from a member's ring would find its address (the member's PE,
 * then shoal_ptr) in every call: ~112 instructions per 1-long reduction at
 * 8 PEs (callgrind).  On one host there are few members, and their
 * mappings last as long as the job. */
static struct coll_ring_entry **peer_rings(const struct shoal_team *t, struct coll_ring_entry *mine)
{
    if (!t->all_local)
        return NULL;
    struct coll_ring_entry **r = malloc((size_t)t->n_pes * sizeof *r);
    if (!r)
        shoal_fatal("shmem collective", "out of memory for per-team collective state");
    for (int i = 0; i < t->n_pes; i++)
        r[i] = shoal_ptr(mine, shoal_team_pe(t, i));
    return r;
}

static struct coll_call call_on_slot(const struct shoal_team *t, struct coll_team_state *st, int slot)
{
    struct coll_area *a = area_of(t, slot);
    return (struct coll_call){
        .n = t->n_pes, .me = t->my_pe, .start = t->start, .stride = t->stride, .members = t->members,
        .flag = a->flag[BANK_CALL], .seen = a->seen[BANK_CALL], .buf = a->buf, .buf_bytes = COLL_AREA_BUF_BYTES,
        .shm = t->all_local && !coll_no_loadstore, .line = a->line[BANK_CALL], .line_seen = a->line_seen[BANK_CALL],
        .bcast_ring = st->ring, .ring_last_use = st->ring_last_use, .ring_arrivals = st->ring_arrivals,
        .ring_taken = st->ring_taken, .ring_tail = st->ring_tail, .memo = st->memo, .peer_ring = st->peer_ring,
    };
}

static struct coll_team_state *new_state(const struct shoal_team *t)
{
    struct coll_team_state *st = calloc(1, sizeof *st);
    if (!st)
        shoal_fatal("shmem collective", "out of memory for per-team collective state");
    st->lead = -1;
    st->ring = area_of(t, 0)->bcast_ring;
    st->peer_ring = peer_rings(t, st->ring);
    st->ring_taken = area_of(t, 0)->ring_taken;
    for (int e = 0; e < COLL_BCAST_RING; e++)
        st->ring_tail[e] = area_of(t, e / COLL_RING_ROWS)->ring_tail[e % COLL_RING_ROWS];
    for (int s = 0; s < SHOAL_PSYNC_PER_TEAM; s++)
        st->call[s] = call_on_slot(t, st, s);
    return st;
}

static struct coll_team_state *state_of(struct shoal_team *t)
{
    void **state = &t->ext_state[coll_team_ext];
    if (SHOAL_UNLIKELY(!*state))
        *state = new_state(t);
    return *state;
}

void coll_team_synced(struct shoal_team *t)
{
    struct coll_team_state *st = state_of(t);
    st->synced = st->calls;
}

struct coll_memo *coll_team_memo(struct shoal_team *t)
{
    return state_of(t)->memo;
}

/* A guess from the team's last barrier: what followed it will follow the
 * next one.  A broadcast waits for its root; a barrier straight after a
 * barrier for nobody in particular; anything else for everyone, so nobody
 * leads there either.  Member 0 leading there (the older rule) measured
 * within noise of nobody by call times alone (4 and 8 PEs on 2 cores,
 * 0.81-1.11x), but against the plain-store floor timed beside the calls in
 * the same processes (bench collectives, "paired") it cost: 8 B, 3
 * alternating pairs each, ratio to the floor, member 0 leading -> nobody:
 * 4 PEs reduce 1.25-1.40 -> 1.16-1.18, alltoall 1.18-1.26 -> 1.14-1.18,
 * fcollect 1.20-1.34 -> 1.14-1.17; 8 PEs reduce 1.26 -> 1.15-1.22,
 * alltoall and fcollect within noise. */
int coll_team_barrier_lead(struct shoal_team *t)
{
    struct coll_team_state *st = state_of(t);
    return st->synced == st->calls ? -1 : st->lead;
}

void coll_team_broadcast_root(struct shoal_team *t, const struct coll_call *c, int root)
{
    if (c->synced)
        state_of(t)->lead = root;
}

static void team_fini(struct shoal_team *t)
{
    struct coll_team_state *st = t->ext_state[coll_team_ext];
    if (!st)
        return;
    if (st->hosts_ready)
        free_hosts(&st->hosts);
    free(st->peer_ring);
    free(st);
    t->ext_state[coll_team_ext] = NULL;
}

static struct coll_area *area_of(const struct shoal_team *t, int slot)
{
    return (struct coll_area *)coll_psync(t, slot)->coll;
}

#define ZERO(x) memset(&(x), 0, sizeof(x))

/* Destroy: zero what the team's calls used, and the barrier words (barriers
 * keep no record), so a team that only ever synchronised touches a page or
 * two instead of the whole slot.  The data scratch (buf) needs no zeroing:
 * every byte read there was written in the same call. */
static void team_clear(struct shoal_team *t)
{
    struct coll_team_state *st = t->ext_state[coll_team_ext];
    struct shoal_psync *p0 = coll_psync(t, 0);
    memset(p0, 0, offsetof(struct shoal_psync, coll));
    ZERO(area_of(t, 0)->barrier_seen);
    for (int s = 0; st && s < SHOAL_PSYNC_PER_TEAM; s++) {
        struct coll_area *a = area_of(t, s);
        if (st->used[s] & USED_FLAGS) {
            ZERO(a->flag);
            ZERO(a->seen);
        }
        for (int b = 0; b < COLL_BANKS; b++)
            if (st->used[s] & 1u << b) {
                ZERO(a->line_seen[b]);
                ZERO(a->line[b]);
            }
        if (st->used[s] & USED_RING) {
            ZERO(a->bcast_ring);
            ZERO(a->ring_taken);
        }
    }
}

static bool reachable(const int *pes, int n, int start, int stride)
{
    for (int i = 0; i < n; i++)
        if (!shoal.peers[pes ? pes[i] : start + i * stride].base[SHOAL_SEG_HEAP])
            return false;
    return true;
}

const struct coll_call *coll_team_call(struct shoal_team *t)
{
    struct coll_team_state *st = state_of(t);
    st->slot = (int)(st->calls++ % SHOAL_PSYNC_PER_TEAM);
    st->used[st->slot] |= USED_FLAGS | 1u << BANK_CALL;
    st->used[0] |= USED_RING;
    bool synced = st->synced == st->calls - 1;
    if (synced)
        st->lead = -1;   /* the first call after a barrier: a broadcast names its root instead */
    struct coll_call *c = &st->call[st->slot];
    c->epoch = st->calls;
    c->synced = synced;
    return c;
}

/* Phases of a hierarchical call share its slot; each gets its own flag bank
 * and half of the scratch, since a leader may receive from other leaders
 * while its own host is still in the first phase. */
struct coll_call coll_team_phase(struct shoal_team *t, int bank, const int *pes, int n, int me)
{
    struct coll_team_state *st = state_of(t);
    st->used[st->slot] |= USED_FLAGS | 1u << bank;
    struct coll_area *a = area_of(t, st->slot);
    size_t half = (COLL_AREA_BUF_BYTES / 2) & ~(size_t)63;
    return (struct coll_call){
        .n = n, .me = me, .members = pes, .flag = a->flag[bank], .seen = a->seen[bank],
        .buf = a->buf + (bank == BANK_LEADERS ? half : 0), .buf_bytes = half,
        .shm = reachable(pes, n, 0, 0) && !coll_no_loadstore, .line = a->line[bank],
        .line_seen = a->line_seen[bank],
    };
}

/* Signals consumed in the current active-set call, per flag word: the
 * words are taken back once, at the end (coll_active_done), not after each
 * wait.  By then every signal sent to me in the call has been applied (each
 * is awaited in the call), and no signal of a later call on this pSync can
 * come before I return (the caller's promise for active sets; for
 * reductions alternating two pSyncs, a member's input to the next call
 * proves it left this one), so a plain local subtraction races with no
 * network AMO, and each wait saves a round trip through the network to
 * myself.  Barriers, whose pSync may be reused back to back, take back
 * after each wait (seen NULL). */
static __thread uint64_t active_seen[COLL_NFLAGS];   /* all 0 between calls (coll_active_done) */

struct coll_call coll_active_call(const struct shoal_active_set *as, void *buf, size_t buf_bytes)
{
    int stride = 1 << as->logstride;
    uint64_t *words = (uint64_t *)as->psync;
    struct coll_call c = {
        .n = as->size, .me = (shoal.my_pe - as->start) / stride, .start = as->start, .stride = stride,
        .flag = words, .seen = active_seen, .buf = buf, .buf_bytes = buf_bytes,
        .shm = reachable(NULL, as->size, as->start, stride) && !coll_no_loadstore, .dest_ready = true,
    };
    if (!buf) {
        c.buf = (char *)(words + ACTIVE_FLAG_WORDS);
        c.buf_bytes = ACTIVE_SCRATCH_WORDS * sizeof(uint64_t);
    }
    return c;
}

struct coll_call coll_active_barrier_call(const struct shoal_active_set *as)
{
    struct coll_call c = coll_active_call(as, NULL, 0);
    c.flag = (uint64_t *)as->psync + ACTIVE_BARRIER_WORD;
    c.seen = NULL;
    c.buf = NULL;
    c.buf_bytes = 0;
    return c;
}

SHOAL_INLINE bool any_nonzero(const uint64_t *w, int n)
{
    uint64_t any = 0;
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)   /* no early exit: straight-line ORs */
        any |= w[i];
    return any != 0;
}

/* Every signal was consumed: the flags go back to 0 (see active_seen), and
 * so do the counts, ready for the next call.  A call uses a few of the
 * words, so they are looked at a line at a time (a small call's own path:
 * 2-PE broadcast). */
void coll_active_done(const struct coll_call *c, const struct shoal_active_set *as)
{
    enum { LINE = 8 };
    _Static_assert(COLL_NFLAGS % LINE == 0, "whole lines of counts");
    for (int l = 0; l < COLL_NFLAGS; l += LINE)
        if (any_nonzero(c->seen + l, LINE))
            for (int i = l; i < l + LINE; i++)
                if (c->seen[i]) {
                    __atomic_fetch_sub(&c->flag[i], c->seen[i], __ATOMIC_RELAXED);
                    c->seen[i] = 0;
                }
    uint64_t *scratch = (uint64_t *)as->psync + ACTIVE_FLAG_WORDS;
    if ((uint64_t *)c->buf == scratch)
        memset(scratch, 0, ACTIVE_SCRATCH_WORDS * sizeof(uint64_t));
}

/* An active-set call takes what it consumed back off its pSync word.
 * Fetching, so it has happened when this returns: over the network a
 * non-fetching AMO may still be in flight, and the next wait on this word
 * would count these signals twice. */
static void take_back(uint64_t *w, uint64_t v)
{
    uint64_t back = -v, before;
    shoal_amo(COLL_CTX, SHOAL_AMO_ADD, 8, w, &before, &back, NULL, shoal.my_pe, false);
}

void cc_await(const struct coll_call *c, int idx, uint64_t count)
{
    if (!count)
        return;
    uint64_t *w = &c->flag[idx];
    if (c->seen) {
        uint64_t want = c->seen[idx] += count;
        SHOAL_WAIT_WHILE(__atomic_load_n(w, __ATOMIC_ACQUIRE) < want);
        return;
    }
    SHOAL_WAIT_WHILE(__atomic_load_n(w, __ATOMIC_ACQUIRE) < count);
    take_back(w, count);
}

uint64_t cc_await_value(const struct coll_call *c, int idx)
{
    uint64_t *w = &c->flag[idx];
    uint64_t was = c->seen ? c->seen[idx] : 0;
    SHOAL_WAIT_WHILE(__atomic_load_n(w, __ATOMIC_ACQUIRE) == was);
    uint64_t now = __atomic_load_n(w, __ATOMIC_ACQUIRE);
    if (c->seen)
        c->seen[idx] = now;
    else
        take_back(w, now);
    return now - was;
}

void cc_barrier(const struct coll_call *c, int idx)
{
    for (int d = 1, k = 0; d < c->n; d <<= 1, k++) {
        cc_signal(c, (c->me + d) % c->n, idx + k);
        cc_await(c, idx + k, 1);
    }
}

int cc_log2_ceil(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

int cc_pow2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

void *cc_tmp(size_t bytes, int which)
{
    static __thread void *mem[5];
    static __thread size_t cap[5];
    if (bytes > cap[which]) {
        size_t want = bytes < 4096 ? 4096 : bytes;
        void *p = realloc(mem[which], want);
        if (!p)
            shoal_fatal("shmem collective", "out of memory for a %zu-byte temporary buffer", want);
        mem[which] = p;
        cap[which] = want;
    }
    return mem[which];
}

/* ---- hosts ---- */

/* Member i of a group of n whose world PE is pe: real host, or pseudo-host
 * by index (SHOAL_COLL_FAKE_HOSTS). */
static int host_of(int i, int n, int pe)
{
    if (coll_fake_hosts > 0) {
        int k = coll_fake_hosts < n ? coll_fake_hosts : n;
        return (int)((long)i * k / n);
    }
    return shoal.peers[pe].host;
}

/* Group the members (world PEs pes[0..n), I am member me) by host. */
static void build_hosts(const int *pes, int n, int me, struct coll_hosts *h)
{
    int mine = host_of(me, n, pes[me]);
    int *first_of = malloc(n * sizeof(int));   /* host id of each leader, in order of appearance */
    h->host_pes = malloc(n * sizeof(int));
    h->host_members = malloc(n * sizeof(int));
    h->leader_pes = malloc(n * sizeof(int));
    h->member_host = malloc(n * sizeof(int));
    if (!first_of || !h->host_pes || !h->host_members || !h->leader_pes || !h->member_host)
        shoal_fatal("shmem collective", "out of memory grouping %d PEs by host", n);
    h->n_hosts = h->n_host = 0;
    h->my_leader_idx = -1;
    h->contiguous = true;
    for (int i = 0; i < n; i++) {
        int host = host_of(i, n, pes[i]), k = 0;
        while (k < h->n_hosts && first_of[k] != host)
            k++;
        if (k == h->n_hosts) {
            first_of[k] = host;
            h->leader_pes[h->n_hosts++] = pes[i];
            if (i == me)
                h->my_leader_idx = k;
        }
        h->member_host[i] = k;
        if (i > 0 && k < h->member_host[i - 1])   /* hosts are numbered by first appearance */
            h->contiguous = false;
        if (host == mine) {
            if (i == me)
                h->my_host_idx = h->n_host;
            h->host_members[h->n_host] = i;
            h->host_pes[h->n_host++] = pes[i];
        }
    }
    free(first_of);
}

static int *group_pes(int n)
{
    int *pes = malloc((size_t)n * sizeof(int));
    if (!pes)
        shoal_fatal("shmem collective", "out of memory listing a group of %d PEs", n);
    return pes;
}

static void free_hosts(struct coll_hosts *h)
{
    free(h->host_pes);
    free(h->host_members);
    free(h->leader_pes);
    free(h->member_host);
}

const struct coll_hosts *coll_team_hosts(struct shoal_team *t)
{
    struct coll_team_state *st = state_of(t);
    if (!st->hosts_ready) {
        int *pes = group_pes(t->n_pes);
        for (int i = 0; i < t->n_pes; i++)
            pes[i] = shoal_team_pe(t, i);
        build_hosts(pes, t->n_pes, t->my_pe, &st->hosts);
        free(pes);
        st->hosts_ready = true;
    }
    return &st->hosts;
}

/* Active sets have no state of their own: the last few groupings are kept
 * here (per thread), keyed by the set and the init generation. */
enum { AS_CACHE = 4 };
const struct coll_hosts *coll_active_hosts(const struct shoal_active_set *as)
{
    static __thread struct {
        int start, logstride, size;
        unsigned generation;
        struct coll_hosts h;
    } cache[AS_CACHE];
    static __thread unsigned next;
    unsigned gen = coll_generation();
    for (int i = 0; i < AS_CACHE; i++)
        if (cache[i].generation == gen && cache[i].size == as->size && cache[i].start == as->start &&
            cache[i].logstride == as->logstride)
            return &cache[i].h;
    unsigned k = next++ % AS_CACHE;
    if (cache[k].generation)
        free_hosts(&cache[k].h);
    int *pes = group_pes(as->size), stride = 1 << as->logstride;
    for (int i = 0; i < as->size; i++)
        pes[i] = as->start + i * stride;
    build_hosts(pes, as->size, (shoal.my_pe - as->start) / stride, &cache[k].h);
    free(pes);
    cache[k].start = as->start, cache[k].logstride = as->logstride, cache[k].size = as->size;
    cache[k].generation = gen;
    return &cache[k].h;
}
