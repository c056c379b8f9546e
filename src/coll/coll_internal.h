/* What every collective algorithm is written against: a call (who takes
 * part, which flag words and scratch it may use), counting flags, and the
 * reduction kernels.  Private to src/coll/.
 *
 * Flags count.  A sender adds 1 to a flag word of the receiver (an AMO, or
 * the signal of a put-with-signal, so it works over any transport); the
 * receiver waits until the word has reached the number of signals it has
 * consumed so far plus the ones it expects now.  Two ways to remember what
 * was consumed:
 *  - team calls keep the consumed count next to the word, in the PE's own
 *    copy of the pSync slot, so the slot can pass to a later team unchanged;
 *  - active-set calls (the user's pSync) take the count back off the word,
 *    so the pSync is left all SHMEM_SYNC_VALUE (0) on return.
 * Rule every algorithm keeps: every signal sent to a PE in a call is awaited
 * by that PE in that call.  Together with "no PE leaves a call before every
 * member has entered it" (each algorithm's data flow, or an explicit
 * handshake, guarantees it), alternating between a team's two pSync slots
 * makes back-to-back collectives safe without extra synchronisation: a
 * write for call k+2 into slot s can only come from a PE that has left call
 * k+1, so every member has left call k. */
#ifndef SHOAL_COLL_INTERNAL_H
#define SHOAL_COLL_INTERNAL_H

#include "coll.h"
#include "../prof/prof.h"

/* ---- this PE's part of a team's pSync slot (a team extension, group.c) ---- */
#define SHOAL_COLL_SCRATCH_BYTES 65536   /* struct coll_area; pages nobody touches cost no memory */
struct shoal_psync {
    uint64_t barrier[SHOAL_PSYNC_ROUNDS];   /* dissemination and tree barriers */
    uint64_t arrive;      /* shared-memory barrier: arrivals counter (on the team's first PE) */
    uint64_t release;     /* shared-memory barrier: epoch released (on the team's first PE) */
    uint64_t first_left;  /* shared-memory barrier: epoch its leading member has left (on the first PE) */
    _Alignas(64) char coll[SHOAL_COLL_SCRATCH_BYTES];
};
extern int coll_team_ext;   /* the collectives' extension id */
SHOAL_INLINE struct shoal_psync *coll_psync(const struct shoal_team *t, int slot)
{
    return shoal_team_ext_area(t, coll_team_ext, slot);
}

/* ---- layout of the coll[] part of a pSync slot ---- */
enum {
    COLL_NFLAGS = 64,   /* flag words per bank (an active-set pSync holds one bank) */
    COLL_BANKS = 4,     /* whole call, and the phases of a hierarchical one */
};
enum coll_bank { BANK_CALL = 0, BANK_HOST = 1, BANK_LEADERS = 2, BANK_SIZES = 3 };

/* A message of a few bytes and its signal in one cache line: on shared
 * memory the receiver then pays one line transfer, not two. */
struct coll_line {
    uint64_t sig;                 /* messages ever delivered to this line */
    unsigned char data[56];
};
enum { COLL_LINES = 2 * 34, COLL_LINE_BYTES = 56 };

/* Small broadcasts and alltoalls on shared memory (ring.c): the owner
 * publishes data in an entry of its own ring and members copy it out, so
 * no member's dest is written by another PE and nobody waits for anyone to
 * arrive.  The ring's stamps and heads live in slot 0 of the team, its
 * tails spread over the slots (COLL_RING_ROWS in each: the same memory as
 * four half-size entries in one slot); no other algorithm touches them.
 * An entry holds COLL_RING_BYTES; auto publishes up to COLL_RING_SMALL
 * when every PE has a core (beyond it copying straight into the dests wins)
 * and up to a whole entry when PEs outnumber cores (select.c, ring_limit). */
enum { COLL_BCAST_RING = 4, COLL_RING_BYTES = 8192, COLL_RING_SMALL = 512, COLL_RING_HEAD = 56 };
/* A tail row is a whole number of lines (64) at least COLL_RING_BYTES - COLL_RING_HEAD long;
 * each pSync slot holds COLL_RING_ROWS of them. */
enum { COLL_RING_TAIL = (COLL_RING_BYTES - COLL_RING_HEAD + 63) / 64 * 64,
       COLL_RING_ROWS = (COLL_BCAST_RING + SHOAL_PSYNC_PER_TEAM - 1) / SHOAL_PSYNC_PER_TEAM };
/* An entry's first COLL_RING_HEAD bytes share the stamp's line, the rest
 * lie in the entry's tail (coll_area.ring_tail), so the four entries'
 * heads share a page: a call of a few bytes maps one page of each peer,
 * not four (16 PEs on 2 cores: the first sum-reduces of 8 B took 85-111
 * us while each PE faulted in four pages of every peer, 24-28 with one). */
struct coll_ring_entry {
    uint64_t ready;                                /* epoch of the call published here */
    unsigned char data[COLL_RING_HEAD];            /* the head of the data */
    _Alignas(64) uint64_t arrived;                 /* members that entered, when the root must know */
    uint64_t expected;                             /* what arrived reaches once all entered this call */
};

struct coll_area {
    uint64_t flag[COLL_BANKS][COLL_NFLAGS];   /* written by peers */
    uint64_t seen[COLL_BANKS][COLL_NFLAGS];   /* consumed so far; touched only by the owner */
    uint64_t barrier_seen[SHOAL_PSYNC_ROUNDS];
    uint64_t line_seen[COLL_BANKS][COLL_LINES];
    struct coll_line line[COLL_BANKS][COLL_LINES] __attribute__((aligned(64)));
    struct coll_ring_entry bcast_ring[COLL_BCAST_RING];
    _Alignas(64) uint64_t ring_taken[COLL_BCAST_RING];   /* per entry index: epoch of my last ring call there */
    _Alignas(64) unsigned char ring_tail[COLL_RING_ROWS][COLL_RING_TAIL];   /* entries' data past the head */
    _Alignas(64) char buf[];                  /* receive scratch of the scratch-based algorithms */
};
#define COLL_AREA_BUF_BYTES (SHOAL_COLL_SCRATCH_BYTES - sizeof(struct coll_area))
_Static_assert(sizeof(struct coll_area) + 16384 <= SHOAL_COLL_SCRATCH_BYTES, "coll scratch too small");

/* ---- a call ---- */
struct coll_call {
    int n, me;                   /* members, my index */
    int start, stride;           /* member i is start + i*stride ... */
    const int *members;          /* ... unless this lists them */
    uint64_t *flag;              /* COLL_NFLAGS symmetric words */
    uint64_t *seen;              /* consumed counts, or NULL: take them back off the words */
    char *buf;                   /* symmetric receive scratch (NULL when none) */
    size_t buf_bytes;
    bool shm;                    /* every member load/store reachable: algorithms may use shoal_ptr */
    bool dest_ready;             /* active sets: the user made every dest ready before any PE called,
                                  * so data may be written before its owner arrives */
    struct coll_line *line;      /* COLL_LINES one-line mailboxes (team calls only, else NULL) */
    uint64_t *line_seen;
    struct coll_ring_entry *bcast_ring;   /* whole-team calls only, else NULL */
    unsigned char *const *ring_tail;   /* my ring's tails, entry by entry (COLL_BCAST_RING) */
    uint64_t *ring_last_use;     /* per entry of my ring: epoch of the call that last published there */
    uint64_t *ring_arrivals;     /* per entry of my ring: members' arrivals it has counted (bcast_shm.c) */
    uint64_t *ring_taken;        /* my ring_taken words (slot 0) */
    uint64_t epoch;              /* collectives begun on the team: the same on every member */
    bool synced;                 /* a barrier on the team since its previous call: all members left it */
    struct coll_memo *memo;      /* the team's last choices, K_KINDS (team calls), or NULL */
    struct coll_ring_entry *const *peer_ring;   /* member i's ring in my mapping, or NULL: shoal_ptr */
};

/* A copy of n bytes, the one-long case without a library call: on the
 * ring's paths of a 2-PE call each memcpy of 8 bytes is ~15 instructions
 * of ~450 (callgrind), on the path between one member's publish and the
 * other's return.  memmove's meaning: the regions may be the same. */
SHOAL_INLINE void cc_copy(void *dest, const void *src, size_t n)
{
    if (SHOAL_LIKELY(n == sizeof(uint64_t))) {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        memcpy(dest, &v, sizeof v);
    } else {
        memmove(dest, src, n);
    }
}

SHOAL_INLINE int cc_pe(const struct coll_call *c, int i)
{
    return c->members ? c->members[i] : c->start + i * c->stride;
}

/* The collectives' context: the default endpoint, but their signals are
 * awaited by their targets, so no quiet pays a round trip for them. */
extern struct shoal_ctx shoal_coll_ctx;
#define COLL_CTX (&shoal_coll_ctx)

/* Add v to member i's flag idx: a count of signals, or (cc_await_value)
 * a value its one awaited signal on idx carries. */
SHOAL_INLINE void cc_signal_value(const struct coll_call *c, int i, int idx, uint64_t v)
{
    shoal_amo(COLL_CTX, SHOAL_AMO_ADD, 8, &c->flag[idx], NULL, &v, NULL, cc_pe(c, i), false);
}

/* Tell member i one more thing happened on its flag idx. */
SHOAL_INLINE void cc_signal(const struct coll_call *c, int i, int idx)
{
    cc_signal_value(c, i, idx, 1);
}

/* Deliver n bytes to member i's symmetric dst, then signal its flag idx. */
SHOAL_INLINE void cc_put_signal(const struct coll_call *c, int i, void *dst, const void *src, size_t n, int idx)
{
    if (!n) {
        cc_signal(c, i, idx);
        return;
    }
    shoal_put_signal(COLL_CTX, dst, src, n, &c->flag[idx], 1, SHOAL_SIG_ADD, cc_pe(c, i), false);
}

/* The same, returning at once: the source must stay until shoal_complete(COLL_CTX). */
SHOAL_INLINE void cc_put_signal_nbi(const struct coll_call *c, int i, void *dst, const void *src, size_t n, int idx)
{
    shoal_put_signal(COLL_CTX, dst, src, n, &c->flag[idx], 1, SHOAL_SIG_ADD, cc_pe(c, i), true);
}

SHOAL_INLINE void cc_put(const struct coll_call *c, int i, void *dst, const void *src, size_t n)
{
    if (n)
        shoal_put(COLL_CTX, dst, src, n, cc_pe(c, i), false);
}

/* Wait for count more signals on my flag idx. */
void cc_await(const struct coll_call *c, int idx, uint64_t count);
/* The value of the one signal on my flag idx in this call (cc_signal_value
 * with v nonzero; nothing else signals idx in the call). */
uint64_t cc_await_value(const struct coll_call *c, int idx);

/* Over the network a member's dest is free only once it says it has
 * entered, a message before the data; the call's receive scratch is free on
 * entry (the slot rule at the top).  So the linear forms send payloads that
 * fit there straight away, one message each, and the receiver copies them
 * out: one latency instead of two.  Bytes of scratch per sender, 0 where
 * this does not apply (dests ready anyway, or shared memory, where the
 * rings and line mailboxes serve small payloads). */
SHOAL_INLINE size_t cc_share(size_t scratch_bytes, int senders)   /* whole lines: 0 or at least one */
{
    return (scratch_bytes / (size_t)senders) & ~(size_t)63;
}
SHOAL_INLINE size_t cc_scratch_room(const struct coll_call *c, int senders)
{
    if (c->dest_ready || c->shm || !c->buf)
        return 0;
    return cc_share(c->buf_bytes, senders);
}

/* One-line mailboxes, for payloads of at most COLL_LINE_BYTES on shared memory. */
SHOAL_INLINE bool cc_lines_ok(const struct coll_call *c, size_t bytes)
{
    return c->line && c->shm && bytes <= COLL_LINE_BYTES;
}
SHOAL_INLINE void cc_line_put(const struct coll_call *c, int i, int idx, const void *src, size_t n)
{
    int pe = cc_pe(c, i);
    struct coll_line *l = shoal_ptr(&c->line[idx], pe);
    memcpy(l->data, src, n);
    __atomic_fetch_add(&l->sig, 1, __ATOMIC_RELEASE);
    shoal_notify(pe);
}
SHOAL_INLINE const void *cc_line_wait(const struct coll_call *c, int idx)
{
    struct coll_line *l = &c->line[idx];
    uint64_t want = ++c->line_seen[idx];
    if (__atomic_load_n(&l->sig, __ATOMIC_ACQUIRE) < want)
        SHOAL_WAIT_WHILE(__atomic_load_n(&l->sig, __ATOMIC_ACQUIRE) < want);
    return l->data;
}

/* Where member i's symmetric object addr is, readable here: a direct pointer
 * when c->shm, else a copy fetched into tmp. */
SHOAL_INLINE const void *cc_peer_view(const struct coll_call *c, int i, const void *addr, size_t n, void *tmp)
{
    if (c->shm)
        return shoal_ptr(addr, cc_pe(c, i));
    if (n)
        shoal_get(COLL_CTX, tmp, addr, n, cc_pe(c, i), false);
    return tmp;
}

/* Dissemination barrier on the call's flags [idx, idx + rounds). */
void cc_barrier(const struct coll_call *c, int idx);
int cc_log2_ceil(int n);
int cc_pow2_floor(int n);

/* Private temporary memory (grows, never shrinks; per thread).  which: 0-2
 * for algorithms, 3 for offset tables of the callers that compose them, 4
 * for the hierarchical collectives (their network phase may use 0-3). */
void *cc_tmp(size_t bytes, int which);

/* ---- the call's setup from a team or an active set (group.c) ---- */
/* Start a collective on team t: the next of its slots, bank BANK_CALL.
 * The slot's own call, kept in the team's state: valid until the team's
 * next call on that slot (a team's collectives never run concurrently). */
const struct coll_call *coll_team_call(struct shoal_team *t);
/* The same slot as the last coll_team_call on t, another bank (phases). */
struct coll_call coll_team_phase(struct shoal_team *t, int bank, const int *pes, int n, int me);
/* An active set's call: flags in the user's pSync (left as given), scratch
 * in buf (the reduction's pWrk) or, when NULL, in the second half of pSync. */
struct coll_call coll_active_call(const struct shoal_active_set *as, void *buf, size_t buf_bytes);
void coll_active_done(const struct coll_call *c, const struct shoal_active_set *as);
/* A barrier's call on an active set: words of the pSync no other collective uses. */
struct coll_call coll_active_barrier_call(const struct shoal_active_set *as);

/* A team's members grouped by host (real hosts, or SHOAL_COLL_FAKE_HOSTS
 * pseudo-hosts by member index), as world PE lists in team order. */
struct coll_hosts {
    int n_hosts;
    int *host_pes, n_host, my_host_idx;   /* my host's members; my index among them */
    int *host_members;                    /* their team indices */
    int *leader_pes, my_leader_idx;       /* first member of each host; my index, or -1 */
    int *member_host;                     /* host (leader index) of every team member */
    bool contiguous;                      /* each host's members are consecutive in the team */
};
const struct coll_hosts *coll_team_hosts(struct shoal_team *t);
/* The same for an active set (kept for the set's next calls). */
const struct coll_hosts *coll_active_hosts(const struct shoal_active_set *as);
/* Every member has entered a barrier on t: every member has left t's calls so far. */
void coll_team_synced(struct shoal_team *t);
/* The team's remembered choices (coll_choose), for calls that build their own shape: a barrier. */
struct coll_memo *coll_team_memo(struct shoal_team *t);
/* The member whose leaving first the next barrier on t should wait for
 * (barrier_shm.c), or -1; a broadcast that is the first call after a
 * barrier names its root. */
int coll_team_barrier_lead(struct shoal_team *t);
void coll_team_broadcast_root(struct shoal_team *t, const struct coll_call *c, int root);

/* ---- reductions (combine.c) ---- */
size_t coll_dtype_size(enum shoal_dtype dt);
bool coll_op_valid(enum shoal_op op, enum shoal_dtype dt, bool active_set);
/* acc[i] = acc[i] op in[i] for count elements. */
void coll_combine(enum shoal_op op, enum shoal_dtype dt, void *acc, const void *in, size_t count);
/* out[i] = a[i] op b[i]; out may be a or b. */
void coll_combine3(enum shoal_op op, enum shoal_dtype dt, void *out, const void *a, const void *b, size_t count);

struct coll_reduce {
    enum shoal_op op;
    enum shoal_dtype dt;
    size_t elem;          /* bytes per element */
    void *dest;
    const void *src;
    size_t count;
};

/* ---- algorithms: one file each ---- */
void bcast_linear(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest);
/* Publish-and-copy through each member's ring (ring.c; needs c->bcast_ring). */
struct coll_ring_entry *ring_entry(const struct coll_call *c);   /* mine for this call */
struct coll_ring_entry *ring_peer_entry(const struct coll_call *c, int owner);   /* member owner's, in my mapping */
void ring_publish(const struct coll_call *c, const void *src, size_t n);
void ring_take(const struct coll_call *c, int owner, void *dest, size_t off, size_t n);
/* Member owner's first COLL_RING_HEAD published bytes, in place (8-byte
 * aligned), once they are there: valid until this member's ring_done. */
const void *ring_head(const struct coll_call *c, int owner);
void ring_done(const struct coll_call *c);   /* every member, after its last take of the call */
/* The first of members[0..k) whose entry of this call is there (so who has
 * entered the call), waiting for one: its index in members. */
int ring_first_ready(const struct coll_call *c, const int *members, int k);
/* Need c->bcast_ring and at most COLL_RING_BYTES published; bcast_shm
 * updates the root's dest too (team calls). */
void bcast_shm(const struct coll_call *c, void *dest, const void *src, size_t n, int root);
void alltoall_shm(const struct coll_call *c, void *dest, const void *src, size_t block);
void bcast_binomial(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest);
/* Pieces bcast_binomial cuts n bytes into on P members (1: whole), for the model too. */
size_t bcast_binomial_pieces(bool shm, int P, size_t n);
void bcast_scatter_allgather(const struct coll_call *c, void *dest, const void *src, size_t n, int root);
/* Needs c->shm: every member copies from the root's source (symmetric) itself. */
void bcast_pull(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest);

void reduce_flat(const struct coll_call *c, const struct coll_reduce *r);
void reduce_shm(const struct coll_call *c, const struct coll_reduce *r);   /* needs c->bcast_ring, <= COLL_RING_BYTES */
void reduce_recdbl(const struct coll_call *c, const struct coll_reduce *r);
void reduce_recdbl_ls(const struct coll_call *c, const struct coll_reduce *r);
void reduce_ring(const struct coll_call *c, const struct coll_reduce *r);
void reduce_bruck(const struct coll_call *c, const struct coll_reduce *r);
void reduce_rsag(const struct coll_call *c, const struct coll_reduce *r);

/* Collects: block i (member i's) goes to dest + off[i], len[i] bytes.  mine
 * is my block's source, or NULL when it is already in place in dest. */
struct coll_blocks {
    void *dest;
    const void *mine;
    const size_t *off, *len;   /* NULL off: equal blocks of len0 bytes */
    size_t len0;
};
SHOAL_INLINE size_t blk_off(const struct coll_blocks *b, int i) { return b->off ? b->off[i] : (size_t)i * b->len0; }
SHOAL_INLINE size_t blk_len(const struct coll_blocks *b, int i) { return b->len ? b->len[i] : b->len0; }
/* Bytes of members [i, j) (contiguous in dest). */
SHOAL_INLINE size_t blk_span(const struct coll_blocks *b, int i, int j)
{
    return j > i ? blk_off(b, j - 1) + blk_len(b, j - 1) - blk_off(b, i) : 0;
}
void collect_linear(const struct coll_call *c, const struct coll_blocks *b);
void fcollect_shm(const struct coll_call *c, const struct coll_blocks *b);   /* equal blocks, <= COLL_RING_BYTES */
/* Every member's size into off/len; true when the blocks also moved (all fit a ring entry). */
bool collect_shm(const struct coll_call *c, void *dest, const void *src, size_t mine, size_t *off, size_t *len);
void collect_ring(const struct coll_call *c, const struct coll_blocks *b);
void collect_recdbl(const struct coll_call *c, const struct coll_blocks *b);
void collect_bruck(const struct coll_call *c, const struct coll_blocks *b);

void alltoall_pairwise(const struct coll_call *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                       size_t elem, size_t nelems);
/* Prefix sums, inclusive or exclusive (member 0's exclusive sum is 0). */
void scan_recdbl(const struct coll_call *c, enum shoal_dtype dt, void *dest, const void *src, size_t count,
                 bool inclusive);

/* Elements per chunk of the scratch-based recursive doubling and Bruck. */
size_t recdbl_chunk(size_t buf_bytes, int n, size_t elem);
/* Recursive doubling's chunked schedule; bruck: send to v - 2^k instead of v ^ 2^k. */
void reduce_pairwise_chunked(const struct coll_call *c, const struct coll_reduce *r, bool bruck);
void reduce_hier(struct shoal_team *t, const struct coll_reduce *r);
/* Host, then leaders, then host again, for teams that span hosts. */
void barrier_hier(struct shoal_team *t);
void bcast_hier(struct shoal_team *t, const struct coll_call *c, void *dest, const void *src, size_t n, int root);
/* nbytes: mine (fixed: fcollect, everyone's).  false, on every member
 * alike and before any communication, when the team is too large for the
 * sizes table in scratch: run a flat collect instead. */
bool collect_hier(struct shoal_team *t, void *dest, const void *src, size_t nbytes, bool fixed);
/* The team spans more than one host and some host holds two or more of its
 * members (else there is nothing to share); the same on every member. */
bool coll_spans_hosts(struct shoal_team *t);
/* Run the algorithm the selection picks for call c (no hierarchy). */
void coll_bcast_run(const struct coll_call *c, void *dest, const void *src, size_t n, int root, bool root_dest);
/* Run the reduction algorithm the selection picks for call c (no hierarchy). */
void coll_reduce_run(const struct coll_call *c, const struct coll_reduce *r);
void barrier_tree_call(const struct coll_call *c);

/* ---- selection (select.c) ---- */
enum coll_kind { K_BARRIER, K_BCAST, K_REDUCE, K_COLLECT, K_FCOLLECT, K_ALLTOALL, K_KINDS };
enum coll_alg {
    A_AUTO, A_SHM, A_DISSEM, A_TREE,                 /* barrier */
    A_LINEAR, A_BINOMIAL, A_SCATTER_ALLGATHER,       /* broadcast (and linear collect) */
    A_FLAT, A_RECDBL, A_RING, A_BRUCK, A_RSAG, A_HIER, /* reductions (recdbl/ring/bruck: collects too) */
    A_PAIRWISE,                                      /* alltoall */
    A_PULL,                                          /* broadcast on shared memory */
};
/* Facts a choice may depend on: equal on every member of the call. */
struct coll_shape {
    int n;
    size_t bytes;          /* per-member payload (whole vector for reductions and broadcasts) */
    bool shm;              /* load/store reachable */
    bool multi_host;       /* team spans hosts (or fake hosts) */
    size_t scratch;        /* receive scratch available */
    bool lines;            /* line mailboxes (team calls): a few bytes travel with their signal */
    bool ring;             /* a publish ring (whole-team calls, ring.c) */
    struct coll_memo *memo;   /* where the answer is remembered, per kind (not part of the shape) */
};
/* The last answer for one kind: loops repeat one call shape. */
struct coll_memo {
    struct coll_shape s;
    enum coll_alg a;
    unsigned generation;
};
/* Above this many bytes on shared memory recursive doubling reduces in the
 * partner's dest ("left computes", reduce_recdbl_ls.c), through no scratch. */
enum { COLL_RECDBL_LS_BYTES = 16384 };
/* Field by field: cheaper than clearing a key's padding for memcmp. */
SHOAL_INLINE bool coll_same_shape(const struct coll_shape *a, const struct coll_shape *b)
{
    return a->n == b->n && a->bytes == b->bytes && a->scratch == b->scratch && a->shm == b->shm &&
           a->multi_host == b->multi_host && a->lines == b->lines && a->ring == b->ring;
}
extern unsigned coll_memo_generation;   /* select.c: what a remembered answer is valid for */
enum coll_alg coll_choose_slow(enum coll_kind k, const struct coll_shape *s);
/* The algorithm for a call of this shape: a team call repeating its last
 * shape of the kind is answered here (the common loop), else select.c. */
SHOAL_INLINE enum coll_alg coll_choose(enum coll_kind k, const struct coll_shape *s)
{
    const struct coll_memo *m = s->memo ? &s->memo[k] : NULL;
    if (SHOAL_LIKELY(m && m->generation == coll_memo_generation && !shoal_prof_on && coll_same_shape(&m->s, s)))
        return m->a;
    return coll_choose_slow(k, s);
}
void coll_collect_run(const struct coll_call *c, enum coll_kind k, const struct coll_blocks *b, size_t avg);
const char *coll_alg_name(enum coll_alg a);
/* select.c's names (those SHMEM_<COLL>_ALGORITHM takes): a name's algorithm, and the list for messages */
bool coll_alg_lookup(enum coll_kind k, const char *name, enum coll_alg *out);
void coll_alg_list(enum coll_kind k, char *valid, size_t len);
/* tuning.c: the first rule matching the call, else A_AUTO (the model decides) */
enum coll_alg coll_tuned(enum coll_kind k, const struct coll_shape *s);
unsigned coll_generation(void);   /* bumped by every shmem_init: cached groupings are stale after it */
extern int coll_fake_hosts;    /* SHOAL_COLL_FAKE_HOSTS */
extern bool coll_no_loadstore; /* SHOAL_COLL_NO_LOADSTORE */

/* The leaders' round of a collect with sizes and blocks together
 * (collect_sized.c).  fetch copies my host's k-th member's block (len
 * bytes) to `to`.  collect_sized_fits: every host's sizes, and its blocks
 * when every member's is `block` bytes (0: unknown), fit a share of room
 * bytes (the same answer on every leader).  collect_sized_round fills
 * off/len for all P members from the runs; true when every block is in
 * dest too, false when the caller must still exchange the blocks (mine
 * are at their places in dest then). */
typedef void (*coll_fetch_fn)(void *arg, int k, void *to, size_t len);
/* The fetch of a hierarchical collect: arg is a coll_host_sources. */
struct coll_host_sources {
    const struct coll_hosts *h;
    const void *src;   /* symmetric: every member's source at the same address */
};
void coll_fetch_host_block(void *arg, int k, void *to, size_t len);
/* Every block of my host's members to its place in b->dest. */
void coll_gather_host(const struct coll_host_sources *s, const struct coll_blocks *b);
bool collect_sized_fits(const struct coll_hosts *h, int P, size_t room, size_t block);
bool collect_sized_round(const struct coll_call *L, const struct coll_hosts *h, int P, char *scratch, size_t room,
                         int flag, const uint64_t *mine, coll_fetch_fn fetch, void *arg, void *dest, size_t *off,
                         size_t *len);

/* The leaders' step of collect_hier: every leader holds its host's blocks
 * in b->dest (P members in all); afterwards every block. */
void collect_hier_exchange(const struct coll_call *L, const struct coll_hosts *h, const struct coll_blocks *b, int P,
                           enum coll_kind k);
/* The same host, leaders, host shape for active sets (active_hier.c), on
 * the call c of coll_active_call / coll_active_barrier_call. */
bool coll_active_spans_hosts(const struct shoal_active_set *as);
void reduce_as_hier(const struct coll_call *c, const struct shoal_active_set *as, const struct coll_reduce *r);
void bcast_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                   size_t n, int root);
void fcollect_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                      size_t n);
bool collect_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                     size_t n);
void alltoall_as_hier(const struct coll_call *c, const struct shoal_active_set *as, void *dest, const void *src,
                      size_t n);
void barrier_as_hier(const struct coll_call *c, const struct shoal_active_set *as);

#endif
