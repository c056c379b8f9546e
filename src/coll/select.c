/* Which algorithm runs: the SHMEM_<COLL>_ALGORITHM overrides (checked at
 * init), else the first matching rule of a tuning file (tuning.c, written
 * by tools/oshtune on the machine itself), else the alpha-beta-gamma cost
 * model of 004 §5.1 with constants
 * measured on the development machine (see "Measured" below), evaluated per
 * call from facts every member shares: team size, payload, locality.
 *
 * Model, for P members, n bytes (per member for collects), L = ceil(log2 P),
 * f = 2 when P is not a power of two (the fold), c = 8 for the scratch-based
 * forms on shared memory (measured: the copy into the peer's scratch and the
 * read back cost that much more than streaming), 1 over the network:
 *   reduce  flat    2 a + n(P-1)(2b + g) on shared memory
 *           recdbl  (L+f) a + nL (c b + g)            (n <= 56 on shared memory: (L+f) a_line)
 *           bruck   as recdbl (kept for comparison; never cheaper here)
 *           ring    2(P-1) a + n(P-1)/P (2 c b + g)
 *           rsag    (2L+f+1) a + n(P-1)/P (2b + g)
 *   (over the network, reduce_cost adds what the wire charges: pieces of a
 *   short scratch, long steps, reads and credits: see the note above it)
 *   bcast   linear 2a + (P-1) n b;  binomial 2L a + (L+k-1) (n/k) b in k pieces;
 *           scatter_allgather (P+1) a + 2n b
 *           (on shared memory beyond the ring: pull, every member copying the root's source at once,
 *           3a + n b on each core; not priced: on team calls it won at every size measured,
 *           active sets keep linear up to ACTIVE_PULL_BYTES with a core per PE)
 *   collect linear 2a + (P-1) n b;  ring (P-1)(a + n b);  recdbl/bruck L a + (P-1) n b (+f a)
 * a is the latency of one signal: far larger when PEs outnumber cores (a
 * waiting PE must be scheduled before it can answer), which is what makes
 * the short-step algorithms win there. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#include "coll_internal.h"
#include "../prof/prof.h"

int coll_fake_hosts;
bool coll_no_loadstore;
static bool hier_enabled;

/* ---- names ---- */
struct alg_name {
    const char *name;
    enum coll_alg alg;
};
static const struct alg_name barrier_names[] = {
    {"auto", A_AUTO}, {"shm", A_SHM}, {"dissem", A_DISSEM}, {"dissemination", A_DISSEM}, {"tree", A_TREE},
    {"hier", A_HIER}, {0}};
static const struct alg_name bcast_names[] = {{"auto", A_AUTO},
                                              {"shm", A_SHM},
                                              {"linear", A_LINEAR},
                                              {"binomial", A_BINOMIAL},
                                              {"tree", A_BINOMIAL},
                                              {"scatter_allgather", A_SCATTER_ALLGATHER},
                                              {"pull", A_PULL},
                                              {"hier", A_HIER},
                                              {0}};
static const struct alg_name reduce_names[] = {
    {"auto", A_AUTO}, {"flat", A_FLAT}, {"ft", A_FLAT},     {"linear", A_FLAT}, {"recdbl", A_RECDBL},
    {"rd", A_RECDBL}, {"ring", A_RING}, {"bruck", A_BRUCK}, {"br", A_BRUCK},    {"rsag", A_RSAG},
    {"rabenseifner", A_RSAG}, {"shm", A_SHM}, {0}};
static const struct alg_name collect_names[] = {
    {"auto", A_AUTO}, {"shm", A_SHM}, {"linear", A_LINEAR}, {"ring", A_RING}, {"recdbl", A_RECDBL},
    {"rd", A_RECDBL}, {"bruck", A_BRUCK}, {"hier", A_HIER}, {0}};
static const struct alg_name alltoall_names[] = {
    {"auto", A_AUTO}, {"shm", A_SHM}, {"pairwise", A_PAIRWISE}, {"hier", A_HIER}, {0}};   /* hier: active sets */

static const struct {
    const char *var;
    const struct alg_name *names;
} kinds[K_KINDS] = {
    [K_BARRIER] = {"SHMEM_BARRIER_ALGORITHM", barrier_names},
    [K_BCAST] = {"SHMEM_BCAST_ALGORITHM", bcast_names},
    [K_REDUCE] = {"SHMEM_REDUCE_ALGORITHM", reduce_names},
    [K_COLLECT] = {"SHMEM_COLLECT_ALGORITHM", collect_names},
    [K_FCOLLECT] = {"SHMEM_FCOLLECT_ALGORITHM", collect_names},
    [K_ALLTOALL] = {"SHMEM_ALLTOALL_ALGORITHM", alltoall_names},
};
static enum coll_alg forced[K_KINDS];
static bool initialized;   /* until shmem_init calls shoal_coll_init, the first choice does */
/* Bumped by every init and finalize: remembered choices are stale after
 * either, and a choice remembered under one generation is valid only in it. */
unsigned coll_memo_generation;

const char *coll_alg_name(enum coll_alg a)
{
    static const char *names[] = {[A_AUTO] = "auto", [A_SHM] = "shm", [A_DISSEM] = "dissem", [A_TREE] = "tree",
                                  [A_LINEAR] = "linear", [A_BINOMIAL] = "binomial",
                                  [A_SCATTER_ALLGATHER] = "scatter_allgather", [A_FLAT] = "flat",
                                  [A_RECDBL] = "recdbl", [A_RING] = "ring", [A_BRUCK] = "bruck",
                                  [A_RSAG] = "rsag", [A_HIER] = "hier", [A_PAIRWISE] = "pairwise",
                                  [A_PULL] = "pull"};
    return names[a];
}

bool coll_alg_lookup(enum coll_kind k, const char *name, enum coll_alg *out)
{
    for (const struct alg_name *n = kinds[k].names; n->name; n++)
        if (strcasecmp(n->name, name) == 0) {
            *out = n->alg;
            return true;
        }
    return false;
}

void coll_alg_list(enum coll_kind k, char *valid, size_t len)
{
    *valid = 0;
    for (const struct alg_name *n = kinds[k].names; n->name; n++)
        snprintf(valid + strlen(valid), len - strlen(valid), "%s%s", *valid ? ", " : "", n->name);
}

static enum coll_alg parse(enum coll_kind k, const char *value)
{
    enum coll_alg a;
    if (coll_alg_lookup(k, value, &a))
        return a;
    char valid[256];
    coll_alg_list(k, valid, sizeof valid);
    shoal_fatal("shmem_init", "%s=\"%s\" is not an algorithm for this collective; valid: %s", kinds[k].var, value,
                valid);
}

/* Whether a forced algorithm can run in this job: the counter barrier
 * needs every PE on one host. */
static bool runs_here(enum coll_kind k, enum coll_alg a)
{
    return !(k == K_BARRIER && a == A_SHM && shoal.n_hosts > 1);
}

/* From the host table every PE holds alike, so the answer is the same on
 * every PE whatever its own host. */
void shoal_coll_init(void)
{
    const char *values[K_KINDS] = {shoal_cfg.barrier_alg, shoal_cfg.bcast_alg,    shoal_cfg.reduce_alg,
                                   shoal_cfg.collect_alg, shoal_cfg.fcollect_alg, shoal_cfg.alltoall_alg};
    for (int k = 0; k < K_KINDS; k++)
        forced[k] = parse(k, values[k] && *values[k] ? values[k] : "auto");
    if (!runs_here(K_BARRIER, forced[K_BARRIER]))
        shoal_fatal("shmem_init", "SHMEM_BARRIER_ALGORITHM=shm needs every PE on one host, but this job spans "
                    "%d hosts; use auto, dissem or tree", shoal.n_hosts);
    if (shoal_cfg.coll_fake_hosts < 0)
        shoal_fatal("shmem_init", "SHOAL_COLL_FAKE_HOSTS=%ld: give a number of pseudo-hosts >= 0",
                    shoal_cfg.coll_fake_hosts);
    coll_fake_hosts = (int)shoal_cfg.coll_fake_hosts;
    coll_no_loadstore = shoal_cfg.coll_no_loadstore;
    hier_enabled = shoal_cfg.coll_hier;
    coll_memo_generation++;
    initialized = true;
}

bool shoal_coll_force(const char *kind, const char *name)
{
    static const char *const kind_names[K_KINDS] = {[K_BARRIER] = "barrier", [K_BCAST] = "broadcast",
                                                    [K_REDUCE] = "reduce",   [K_COLLECT] = "collect",
                                                    [K_FCOLLECT] = "fcollect", [K_ALLTOALL] = "alltoall"};
    if (SHOAL_UNLIKELY(!initialized))
        shoal_coll_init();
    for (int k = 0; k < K_KINDS; k++) {
        enum coll_alg a;
        if (strcasecmp(kind, kind_names[k]) && !(k == K_BCAST && !strcasecmp(kind, "bcast")))
            continue;
        if (!coll_alg_lookup(k, name, &a) || !runs_here(k, a))
            return false;
        forced[k] = a;
        coll_memo_generation++;   /* every remembered choice is stale */
        return true;
    }
    return false;
}

unsigned coll_generation(void)
{
    if (SHOAL_UNLIKELY(!initialized))
        shoal_coll_init();
    return coll_memo_generation;
}

void shoal_coll_fini(void)
{
    initialized = false;   /* a later shmem_init reads the environment again (and forgets choices) */
    coll_memo_generation++;
}

/* ---- the model ----
 * Constants measured on the development machine (2 cores; see the note at
 * the end of this file): shared memory, and the tcp network between
 * network-namespace hosts. */
struct model {
    double a;       /* seconds per latency step (one signal one way) */
    double a_line;  /* a step of a payload that travels in one cache line with its signal */
    double b;       /* seconds per byte moved (read or written once) */
    double g;       /* seconds per byte reduced, beyond moving it */
    double copy;    /* per-byte factor of the scratch-based forms (copy into the peer, read back) */
    bool crowded;   /* more PEs than cores: a step waits for a descheduled partner */
    double share;   /* PEs per core: the parallel algorithms' per-PE work queues for a core */
    double o;       /* CPU seconds a network message costs at each end (none on shared memory) */
};

/* Crowding adds to a step's latency: a waiting partner must be scheduled
 * before it can answer, over shared memory or the network alike.  Fitted to
 * 1-element reductions at 4 and 8 PEs on 2 cores: a step on shared memory
 * costs about 1.2 us x (PEs per core)^2 there, all of it but the 0.17 us of
 * an uncrowded step being the wait for the core. */
static double crowding_delay(double share) { return 1.2e-6 * share * share - 0.17e-6; }

static struct model model_for(const struct coll_shape *s)
{
    struct model m = {0.17e-6, 0.08e-6, 0.038e-9, 0.005e-9, 8.0, false, 1, 0};   /* shared memory */
    if (!s->shm)
        m = (struct model){13.8e-6, 13.8e-6, 0.43e-9, 0.005e-9, 1.0, false, 1, 3.5e-6};   /* network: tcp (see end) */
    /* Every input must be a fact every member of the call shares, or members
     * pick different algorithms and wait for each other forever: on shared
     * memory every member is on my machine (its PEs and CPUs); across
     * machines, the job's most crowded machine (my own machine's counts
     * differ from machine to machine). */
    int pes = s->shm ? shoal.machine_pes : shoal.crowded_pes;
    int cpus = s->shm ? shoal.machine_cpus : shoal.crowded_cpus;   /* a PE bound to its own core is not crowded */
    if (pes > cpus) {
        m.share = (double)pes / cpus;
        m.a += crowding_delay(m.share);
        m.a_line = m.a;   /* the line's saving is lost in the wait */
        m.crowded = true;
    }
    return m;
}

/* Over the network (2 hosts, tcp;ofi_rxm, each algorithm forced through the
 * OSU reduce at 4 B..256 KiB, team and active-set forms) a step costs more
 * than one latency a unless its data fits in one message with its signal
 * (32 bytes: a longer put_signal is a write, its completion, then the
 * signal: about 3a); the flat tree's root reads every source, a round trip
 * each (4a at 2 PEs: 50-70 us), and moves each byte about twice as slowly
 * as a put stream; Rabenseifner's steps are reads too (7-9a: 85-120 us).
 * The scratch-based forms move a long vector in pieces that fit the
 * receive scratch (the team's leaders have tens of KiB, an active set's
 * pWrk half the vector): recursive doubling through 2(L+1) regions, the
 * ring through 2, and each piece after the first waits for its region to
 * be free again, a round trip.  Unmodelled, 64 Ki longs ran recursive
 * doubling in ~85 pieces (1565 us against Rabenseifner's 202) and a 1 KiB
 * active-set reduce in 8 (343 us against the flat tree's 71). */
enum { COLL_NET_INLINE_BYTES = 32 };

static double piece_steps(const struct coll_shape *s, double bytes, double regions)
{
    double room = s->scratch / regions;
    if (!s->scratch || room <= 0 || bytes <= room)
        return 1;
    return s->shm ? ceil(bytes / room) : 2 * ceil(bytes / room) - 1;
}

/* One step carrying `bytes` (a piece of them when the scratch is short). */
static double step(const struct coll_shape *s, const struct model *m, double bytes, double regions)
{
    double room = s->scratch ? s->scratch / regions : bytes;
    double piece = bytes < room ? bytes : room;
    if (s->shm)
        return 2 * m->a;   /* the data's lines, then the signal's */
    return piece <= COLL_NET_INLINE_BYTES ? m->a : 3 * m->a;
}

/* Latency steps of a linear form before its data: over the network a
 * payload that fits the receivers' scratch goes there at once
 * (cc_scratch_room), else each receiver first says its dest is free.  The
 * one round wins over a few members only: each member still sends P-1
 * messages, and their cost at both ends grows with P (team fcollect 8 B
 * across hosts against recursive doubling's log2 P handshaken steps, the
 * library before, 2 alternating runs: 4 hosts x 2 PEs 0.41x, 8 x 2 1.41x). */
enum { SCRATCH_LINEAR_MAX = 4 };

static double linear_steps(const struct coll_shape *s, double bytes)
{
    size_t room = cc_share(s->scratch, s->n);
    return !s->shm && s->n <= SCRATCH_LINEAR_MAX && room && bytes <= (double)room ? 1 : 2;
}

static double reduce_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n), f = (s->n & (s->n - 1)) ? 2 : 0;
    /* crowded: a step of the pairwise algorithms needs both partners on a
     * core at once; measured 1.5x the cost of a flat-tree step */
    double pair = m->crowded ? 1.5 : 1, w = m->share;   /* w: every PE works at once, on shared cores */
    double regions = 2 * (cc_log2_ceil(cc_pow2_floor(s->n)) + 1);
    switch (a) {
    case A_FLAT: /* root reads every source and writes every dest; 2 steps on shared memory.  Over the
                  * network the root's core is shared too (2 x 4 PEs on 2 cores, 512 KiB between the
                  * leaders: flat 2175 us, Rabenseifner 631) */
        if (s->shm)
            return 2 * m->a + (P - 1) * n * (2 * m->b + m->g);
        return 2 * P * m->a + w * (P - 1) * n * (4 * m->b + m->g);
    case A_RECDBL:
        if (s->shm && n <= COLL_LINE_BYTES && s->lines)
            return (L + f) * m->a_line * pair;
        return (L + f) * step(s, m, n, regions) * pair *
                   (s->shm && n > COLL_RECDBL_LS_BYTES ? 1 : piece_steps(s, n, regions)) +
               w * n * L * (m->copy * m->b + m->g);
    case A_BRUCK:
        return (L + f) * step(s, m, n, regions) * pair * piece_steps(s, n, regions) +
               w * n * L * (m->copy * m->b + m->g) * 1.05;
    case A_RING: /* over the network each step waits for its credit: a round trip */
        return (s->shm ? 1 : 2) * (P - 1) * (piece_steps(s, n / P, 2) + 1) * step(s, m, n / P, 2) * pair +
               w * n * (P - 1) / P * (2 * m->copy * m->b + m->g);
    case A_RSAG: /* one step more than its levels (the merged middle's done); sources read in place */
        return (2 * L + f + 1) * m->a * pair * (s->shm ? 1 : 3) + w * n * (P - 1) / P * (2 * m->b + m->g);
    default: return 1e30;
    }
}

static double bcast_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n);
    switch (a) {
    case A_LINEAR: return 2 * m->a + (P - 1) * n * m->b;
    case A_BINOMIAL: {   /* in pieces over the network, the first forwarded as the next arrive */
        double k = (double)bcast_binomial_pieces(s->shm, s->n, s->bytes);
        return 2 * L * m->a + (L + k - 1) * (n / k) * m->b;
    }
    case A_SCATTER_ALLGATHER: return (P + 1) * m->a + 2 * n * m->b;
    default: return 1e30;
    }
}

/* Over the network each member sends and receives one message per step
 * (P-1 in the linear form), and each costs CPU at both ends (system calls,
 * the handler), queued for a core shared by `share` PEs; Bruck's partner
 * to wait for is not the one just sent to, so a descheduled one delays it
 * more than a pairwise exchange (see "Collects across hosts" at the end). */
static double collect_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n), f = (s->n & (s->n - 1)) ? 2 : 0;
    double msg = 2 * m->o * m->share;
    switch (a) {
    case A_LINEAR:
        return linear_steps(s, n) * m->a + (P - 1) * (n * m->b + msg) + (P > 8 ? (P - 8) * m->a : 0);
    case A_RING: return (P - 1) * (m->a + n * m->b + msg);
    case A_RECDBL: return (L + f) * (m->a + msg) + (P - 1) * n * m->b;
    case A_BRUCK: return (L * (m->a + msg) + (P - 1) * n * m->b) * (s->shm ? 1 : 1.05);
    default: return 1e30;
    }
}

/* Bytes beyond which auto pulls an active-set broadcast with a core per PE (K_BCAST below). */
enum { ACTIVE_PULL_BYTES = 8192 };

/* Bytes auto reduces through the ring when PEs outnumber cores (K_REDUCE below). */
enum { REDUCE_SHM_BYTES = 2048 };

/* Bytes auto publishes through a ring (ring.c).  With more PEs than cores
 * a ring form's one round beats any exchange whose steps wait for
 * descheduled partners, up to a whole entry (8 PEs on 2 cores, 3
 * alternating runs, us: broadcast 1 KiB 11.3-14.8 -> 2.9-3.0, alltoall
 * 64 B 18.5-29.2 -> 12.6-13.8, 256 B 14.7-26.3 -> 9.2-10.8, sum-reduce
 * 512 B 14.6-20.0 -> 12.8-16.9; with 8 KiB entries instead of 4 KiB,
 * broadcast 8 KiB 13.3-14.7 -> 0.7-0.9 and alltoall 1 KiB blocks
 * 15.3-19.0 -> 10.0-12.9); with a core each, copying straight into
 * the dests wins beyond COLL_RING_SMALL (2 PEs, broadcast 2 KiB 0.21-0.24
 * against 0.30-0.40, fcollect 0.27-0.29 against 0.31-0.44). */
static size_t ring_limit(const struct coll_shape *s)
{
    return model_for(s).crowded && s->ring ? COLL_RING_BYTES : COLL_RING_SMALL;
}

static enum coll_alg cheapest(double (*cost)(enum coll_alg, const struct coll_shape *, const struct model *),
                              const enum coll_alg *cands, int k, const struct coll_shape *s)
{
    struct model m = model_for(s);
    enum coll_alg best = cands[0];
    double best_cost = cost(best, s, &m);
    for (int i = 1; i < k; i++) {
        double c = cost(cands[i], s, &m);
        if (c < best_cost)
            best = cands[i], best_cost = c;
    }
    return best;
}

static enum coll_alg choose(enum coll_kind k, const struct coll_shape *s);

/* Loops repeat one call shape: remember the last answer per kind, in the
 * team's state for team calls (coll_choose answers those), else per thread. */
enum coll_alg coll_choose_slow(enum coll_kind k, const struct coll_shape *s)
{
    static __thread struct coll_memo per_thread[K_KINDS];
    struct coll_memo *m = s->memo ? &s->memo[k] : &per_thread[k];
    if (SHOAL_UNLIKELY(!initialized))
        shoal_coll_init();
    if (m->generation != coll_memo_generation || !coll_same_shape(&m->s, s)) {
        m->s = *s;
        m->a = choose(k, s);
        m->generation = coll_memo_generation;
    }
    if (SHOAL_UNLIKELY(shoal_prof_on))   /* a thread-local store costs a call in a shared library */
        shoal_prof_choice(coll_alg_name(m->a));
    return m->a;
}

/* Barrier, broadcast and collects on a team that spans hosts run host,
 * leaders, host (SHMEM_<COLL>_ALGORITHM=hier forces it; another name forces
 * one flat algorithm; SHOAL_COLL_HIER=off makes auto flat).  Reductions
 * differ: across hosts they always run in phases unless SHOAL_COLL_HIER=off,
 * and SHMEM_REDUCE_ALGORITHM picks the algorithm of each phase.  multi_host
 * is a fact every member shares.  Within a phase (multi_host false) a forced
 * hier means auto. */
static enum coll_alg hier_or(enum coll_alg a, const struct coll_shape *s)
{
    if (s->multi_host && (a == A_HIER || (a == A_AUTO && hier_enabled)))
        return A_HIER;
    return a == A_HIER ? A_AUTO : a;
}

static enum coll_alg choose(enum coll_kind k, const struct coll_shape *s)
{
    enum coll_alg a = forced[k];
    if (k == K_BARRIER || k == K_BCAST || k == K_COLLECT || k == K_FCOLLECT || k == K_ALLTOALL)
        a = hier_or(a, s);
    if (a == A_HIER || (k == K_REDUCE && s->multi_host && hier_enabled))
        return A_HIER;
    if (a == A_AUTO)
        a = coll_tuned(k, s);   /* a measured rule (tuning.c) before the model below */
    switch (k) {
    case K_BARRIER:
        /* Measured (see the note at the end): on shared memory the counter
         * barrier wins once PEs outnumber cores (one wake-up per PE instead of
         * log2 P waits on descheduled partners); with a core per PE,
         * dissemination's single line transfer per round wins. */
        if (a == A_AUTO || (a == A_SHM && !s->shm))
            a = s->shm && (shoal.oversubscribed || s->n > 8) ? A_SHM : A_DISSEM;
        return a;
    case K_BCAST:
        /* Published in the root's ring, copied out by each member: no
         * arrival handshake (measured at the end of this file); larger,
         * copied by every member straight from the root's source, all at
         * once (2 PEs, 1 KiB-1 MiB, 3 alternating runs against the linear
         * form the model picked: 0.3 -> 0.2 us at 1 KiB, 118 -> 52 at 1
         * MiB; 8 PEs on 2 cores 1 MiB 431 (binomial) -> 92; Open MPI
         * 1.9-4.7x slower at every size from 1 KiB) */
        if (a == A_AUTO && s->shm && s->ring)
            return s->bytes <= ring_limit(s) ? A_SHM : A_PULL;
        /* An active set has no ring, and its dests are ready on entry, so
         * the linear form is one put and signal per member; with a core per
         * PE that beats pull's handshake up to a few KiB (2 PEs, 5
         * alternating runs: pull 1.24-1.43x linear at 8 B-4 KiB, 0.86x at
         * 16 KiB, 0.39x at 1 MiB), while with more PEs than cores the
         * members' own copies win at every size (4 and 8 PEs, 8 B-1 KiB:
         * 0.59-0.70x). */
        if (a == A_AUTO && s->shm)
            return model_for(s).crowded || s->bytes > ACTIVE_PULL_BYTES ? A_PULL : A_LINEAR;
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_LINEAR, A_BINOMIAL, A_SCATTER_ALLGATHER};
            a = cheapest(bcast_cost, c, 3, s);
        }
        return a;
    case K_REDUCE:
        /* One round through the ring beats log2 P waits for descheduled
         * partners (measured at the end of this file), up to 2 KiB (a
         * quarter of an entry): each member combines all P vectors, and at 4 KiB the flat
         * tree's P - 1 combines at the root won (3 alternating runs, flat
         * against shm: 4 PEs on 2 cores 5.2-7.9 against 6.3-12.8 us, 8 PEs
         * 11.0-14.2 against 14.7-20.5; at 1 KiB within noise, at 2 KiB shm
         * ahead at 4 PEs, 4.2 against 4.8) */
        if (a == A_AUTO && s->shm && s->ring && s->bytes <= REDUCE_SHM_BYTES && model_for(s).crowded)
            return A_SHM;
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_RECDBL, A_FLAT, A_RSAG, A_RING};
            a = cheapest(reduce_cost, c, 4, s);
        }
        return a;
    case K_FCOLLECT:
    case K_COLLECT:
        /* Published in each member's ring, copied out by the others: one
         * round, nobody waits to write (fcollect_shm.c, collect_shm.c).
         * A collect asks before the sizes are known (bytes 0): its ring
         * round learns them, and moves the data when every block fits. */
        if (a == A_AUTO && s->shm && (k == K_FCOLLECT ? s->bytes <= ring_limit(s) : s->bytes == 0))
            return A_SHM;
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_LINEAR, A_BRUCK, A_RECDBL, A_RING};
            a = cheapest(collect_cost, c, 4, s);
        }
        return a;
    case K_ALLTOALL:
    default:
        /* the ring's one round beats pairwise exchange's two when it fits */
        if (a == A_SHM || (a == A_AUTO && s->shm && (size_t)s->n * s->bytes <= ring_limit(s)))
            return A_SHM;
        return A_PAIRWISE;
    }
}

/* ---- barrier ---- */
void shoal_team_barrier(struct shoal_team *t)
{
    if (t->n_pes <= 1)
        return;
    struct coll_shape s = {.n = t->n_pes, .shm = t->all_local, .multi_host = coll_spans_hosts(t),
                           .memo = coll_team_memo(t)};
    switch (coll_choose(K_BARRIER, &s)) {
    case A_HIER: barrier_hier(t); break;
    case A_SHM: shoal_barrier_shm(t); break;
    case A_TREE: shoal_barrier_tree(t); break;
    default: shoal_barrier_dissem(t); break;
    }
    coll_team_synced(t);
}

/* ---- Measured (the constants above and the barrier rule) ----
 * Machine: the 2-core development VM, Debian 12, gcc 12; other jobs were
 * running, so Shoal's 2-PE runs used SCHED_FIFO (chrt -f 10) to get one
 * core per PE, and the 4- and 8-PE runs nice -n -15.  Command:
 *   SHMEM_REDUCE_ALGORITHM=<alg> chrt -f 10 build/bin/oshrun -np 2 coll_algs reduce 524288
 * (bench/coll/coll_algs.c, since replaced by the runner's
 * `bench/run --programs reduce_algorithms --algorithms`, the same
 * back-to-back slowest-PE method; median of 7 batches; us per call, long sum).
 *   2 PEs      8 B   128 B  512 B  2 KiB  8 KiB  32 KiB  128 KiB  512 KiB
 *   recdbl    0.16   0.26   0.39   0.95   2.02    7.26    27.3     59.3
 *   rsag      0.36   0.39   0.67   0.90   1.47    4.37    16.1     41.0
 *   flat      0.37   0.37   0.34   0.40   0.54    2.12     7.67    39.9
 *   ring      0.61   0.71   0.84   1.26   2.54    7.61    21.3     92.0
 *   bruck     0.23   0.25   0.39   0.92   2.05    8.63    32.9    133
 *   auto      0.17   0.28   0.37   0.40   0.56    2.12     7.56    40.7
 * Crossovers at 2 PEs: recdbl (one cache line per step) up to ~256 B, then
 * flat (the root reduces straight out of the peer's source: no scratch
 * copy); rsag only draws level at 512 KiB.  The scratch copy costs about 8x
 * streaming (copy = 8).  With more PEs per core (8 B / 512 KiB, us):
 *   4 PEs: recdbl 16.6 / 581, flat 9.5 / 494, rsag 26.4 / 439, ring 25.8 / 803, bruck 15.3 / 1566
 *   8 PEs: recdbl 79.6 / 2082, flat 54.5 / 910, rsag 182 / 1612, ring 121 / 2399, bruck 55.7 / 6722
 * so a crowded step costs ~1.2 us x (PEs per core)^2, pairwise steps 1.5x
 * a flat-tree step, and parallel per-PE work queues for the cores (share).
 * Later, rsag stopped copying source into dest first (its first step reads
 * the sources): 2 PEs, best of 5 batches under load (redsz.c in the
 * session notes; us per call):
 *   2 PEs      64 B   1 KiB  4 KiB  16 KiB  64 KiB  256 KiB
 *   rsag      0.42   0.38   0.44   0.55    1.83    6.33
 *   flat      0.24   0.23   0.30   0.85    3.97   17.5
 * so rsag wins from ~8 KiB (the model: one more latency step than its
 * levels, half the bytes per member at 2 PEs).
 * Barrier, 2 PEs: dissemination 0.19 us, counter 0.34 us; 3, 4, 8 PEs on 2
 * cores: counter 3.5 / 4.4 / 14 us, dissemination 4.9 / 6.7 / 33 us.
 * Broadcast and fcollect at 2 PEs: all forms within noise of each other
 * except scatter_allgather (2-3x slower at 2 PEs, as the model says).
 * Network constants: the only network here is libfabric's tcp;ofi_rxm over
 * veth pairs between network-namespace hosts (tests/multihost).  From
 * bench/multihost/mh_p2p.c, 1 PE per host, quiet machine: one-way
 * ping-pong 13.8 us (a), put bandwidth 2.3 GB/s (b = 0.43 ns/B), and the
 * reduction itself is the CPU's (g as on shared memory).  A site with
 * another provider should re-measure with that program; the shape of the
 * choice (latency-bound recursive doubling for short vectors, Rabenseifner
 * for long ones) holds for any network with a >> b.
 * The start-up constant of the scratch algorithms is copy = 1 over the
 * network: the copy into the peer is the transfer itself.
 * Collects across hosts (session 11, libfabric net, the leaders' exchange
 * of fcollect 8 B on active sets, bench/multihost/mh_peer.c, medians of 4-6
 * runs, us): 8 hosts x 2 PEs linear 1025-1107, Bruck 1142-1213, recursive
 * doubling 762-798; 4 x 2 linear 239, Bruck 305, recursive doubling 210.
 * The model's 2a for linear against 3a for the others had picked linear:
 * its P-1 messages per member each cost CPU at both ends, o = 3.5 us fitted
 * to these (8 x 2: 5 us, 4 x 2: 3.6), and Bruck 5% more over the network.
 * Small reductions with more PEs than cores (session 12, `collectives
 * --op=reduce`, 5 alternating runs, medians, us): recdbl against the ring
 * (reduce_shm.c) at 4 PEs 5.86 / 4.12 (8 B), 4.00 / 2.90 (512 B); 8 PEs
 * 16.6 / 10.4 (8 B), 12.8 / 8.6 (64 B); 16 PEs 56 / 35 (8 B).  At 2 PEs
 * with a core each the ring is slower (0.17-0.18 against 0.13-0.16).
 * Reductions through scratch on shared memory (session 12, OSU float sum
 * on active sets, osu_reduce_teams alg1): a step is the data's lines, then
 * the signal's (2a), and a vector longer than a region of the pWrk goes in
 * as many steps; the model had priced one step of a per exchange and
 * picked recdbl, then chunked through a pWrk of half the vector.  2 PEs,
 * us, before / after: 64 B 0.39-0.45 / 0.17-0.23, 256 B 0.73-0.83 / 0.20-
 * 0.25; 4 PEs on 2 cores 32 B 12.8-17.0 / 3.3-6.1, 256 B 43-44 / 2.7-6.0;
 * 8 PEs 64 B 152-179 / 14-18 (the flat tree now, everywhere up to 4 KiB
 * with more PEs than cores). */
