/* Which algorithm runs: the SHMEM_<COLL>_ALGORITHM overrides (checked at
 * init), else the alpha-beta-gamma cost model of 004 §5.1 with constants
 * measured on the development machine (see "Measured" below), evaluated per
 * call from facts every member shares: team size, payload, locality.
 *
 * Model, for P members, n bytes (per member for collects), L = ceil(log2 P):
 *   reduce  flat    P a + 2n(P-1) b + n(P-1) g
 *           recdbl  (L+f) a + nL (b + g)            f = 2 when P is not a power of two
 *           bruck   as recdbl (kept for comparison; never cheaper here)
 *           ring    2(P-1) a + 2n(P-1)/P b + n(P-1)/P g
 *           rsag    (2L+f) a + 2n(P-1)/P b + n(P-1)/P g
 *   bcast   linear 2a + (P-1) n b;  binomial 2L a + L n b;  scatter_allgather (P+1) a + 2n b
 *   collect linear 2a + (P-1) n b;  ring (P-1)(a + n b);  recdbl/bruck L a + (P-1) n b (+f a)
 * a is the latency of one signal: far larger when PEs outnumber cores (a
 * waiting PE must be scheduled before it can answer), which is what makes
 * the short-step algorithms win there. */
#include <stdio.h>
#include <strings.h>

#include "coll_internal.h"

int coll_fake_hosts;
bool coll_no_loadstore;
static bool hier_enabled;

/* ---- names ---- */
struct alg_name {
    const char *name;
    enum coll_alg alg;
};
static const struct alg_name barrier_names[] = {
    {"auto", A_AUTO}, {"shm", A_SHM}, {"dissem", A_DISSEM}, {"dissemination", A_DISSEM}, {"tree", A_TREE}, {0}};
static const struct alg_name bcast_names[] = {{"auto", A_AUTO},
                                              {"linear", A_LINEAR},
                                              {"binomial", A_BINOMIAL},
                                              {"tree", A_BINOMIAL},
                                              {"scatter_allgather", A_SCATTER_ALLGATHER},
                                              {0}};
static const struct alg_name reduce_names[] = {
    {"auto", A_AUTO}, {"flat", A_FLAT}, {"ft", A_FLAT},     {"linear", A_FLAT}, {"recdbl", A_RECDBL},
    {"rd", A_RECDBL}, {"ring", A_RING}, {"bruck", A_BRUCK}, {"br", A_BRUCK},    {"rsag", A_RSAG},
    {"rabenseifner", A_RSAG}, {0}};
static const struct alg_name collect_names[] = {
    {"auto", A_AUTO}, {"linear", A_LINEAR}, {"ring", A_RING}, {"recdbl", A_RECDBL}, {"rd", A_RECDBL},
    {"bruck", A_BRUCK}, {0}};
static const struct alg_name alltoall_names[] = {{"auto", A_AUTO}, {"pairwise", A_PAIRWISE}, {0}};

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
static bool initialized;   /* until core/init.c calls shoal_coll_init, the first choice does */

const char *coll_alg_name(enum coll_alg a)
{
    static const char *names[] = {[A_AUTO] = "auto", [A_SHM] = "shm", [A_DISSEM] = "dissem", [A_TREE] = "tree",
                                  [A_LINEAR] = "linear", [A_BINOMIAL] = "binomial",
                                  [A_SCATTER_ALLGATHER] = "scatter_allgather", [A_FLAT] = "flat",
                                  [A_RECDBL] = "recdbl", [A_RING] = "ring", [A_BRUCK] = "bruck",
                                  [A_RSAG] = "rsag", [A_HIER] = "hier", [A_PAIRWISE] = "pairwise"};
    return names[a];
}

static enum coll_alg parse(enum coll_kind k, const char *value)
{
    for (const struct alg_name *n = kinds[k].names; n->name; n++)
        if (strcasecmp(n->name, value) == 0)
            return n->alg;
    char valid[256] = "";
    for (const struct alg_name *n = kinds[k].names; n->name; n++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", *valid ? ", " : "", n->name);
    shoal_fatal("shmem_init", "%s=\"%s\" is not an algorithm for this collective; valid: %s", kinds[k].var, value,
                valid);
}

void shoal_coll_init(void)
{
    const char *values[K_KINDS] = {shoal_cfg.barrier_alg, shoal_cfg.bcast_alg,    shoal_cfg.reduce_alg,
                                   shoal_cfg.collect_alg, shoal_cfg.fcollect_alg, shoal_cfg.alltoall_alg};
    for (int k = 0; k < K_KINDS; k++)
        forced[k] = parse(k, values[k] && *values[k] ? values[k] : "auto");
    if (forced[K_BARRIER] == A_SHM && shoal.n_hosts > 1)
        shoal_fatal("shmem_init", "SHMEM_BARRIER_ALGORITHM=shm needs every PE on one host, but this job spans "
                    "%d hosts; use auto, dissem or tree", shoal.n_hosts);
    if (shoal_cfg.coll_fake_hosts < 0)
        shoal_fatal("shmem_init", "SHOAL_COLL_FAKE_HOSTS=%ld: give a number of pseudo-hosts >= 0",
                    shoal_cfg.coll_fake_hosts);
    coll_fake_hosts = (int)shoal_cfg.coll_fake_hosts;
    coll_no_loadstore = shoal_cfg.coll_no_loadstore;
    hier_enabled = shoal_cfg.coll_hier;
    initialized = true;
}

void shoal_coll_fini(void)
{
    initialized = false;   /* a later shmem_init reads the environment again */
}

/* ---- the model ----
 * Measured: see the note at the end of this file. */
struct model {
    double a;   /* seconds per signal latency */
    double b;   /* seconds per byte moved */
    double g;   /* seconds per byte reduced */
};

static struct model model_for(const struct coll_shape *s)
{
    struct model m = {0.25e-6, 0.12e-9, 0.15e-9};   /* shared memory, a core per PE */
    if (!s->shm)
        m = (struct model){3e-6, 0.5e-9, 0.15e-9};  /* network-class (or forced put/get) */
    if (shoal.oversubscribed)
        m.a *= 20;   /* a peer must be scheduled before it answers */
    return m;
}

static double reduce_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n), f = (s->n & (s->n - 1)) ? 2 : 0;
    switch (a) {
    case A_FLAT: return P * m->a + 2 * n * (P - 1) * m->b + n * (P - 1) * m->g;
    case A_RECDBL: return (L + f) * m->a + n * L * (m->b + m->g);
    case A_BRUCK: return (L + f) * m->a + n * L * (m->b + m->g) * 1.05;
    case A_RING: return 2 * (P - 1) * m->a + 2 * n * (P - 1) / P * m->b + n * (P - 1) / P * m->g;
    case A_RSAG: return (2 * L + f) * m->a + 2 * n * (P - 1) / P * m->b + n * (P - 1) / P * m->g;
    default: return 1e30;
    }
}

static double bcast_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n);
    switch (a) {
    case A_LINEAR: return 2 * m->a + (P - 1) * n * m->b;
    case A_BINOMIAL: return 2 * L * m->a + L * n * m->b;
    case A_SCATTER_ALLGATHER: return (P + 1) * m->a + 2 * n * m->b;
    default: return 1e30;
    }
}

static double collect_cost(enum coll_alg a, const struct coll_shape *s, const struct model *m)
{
    double P = s->n, n = (double)s->bytes, L = cc_log2_ceil(s->n), f = (s->n & (s->n - 1)) ? 2 : 0;
    switch (a) {
    case A_LINEAR: return 2 * m->a + (P - 1) * n * m->b + (P > 8 ? (P - 8) * m->a : 0);
    case A_RING: return (P - 1) * (m->a + n * m->b);
    case A_RECDBL: return (L + f) * m->a + (P - 1) * n * m->b;
    case A_BRUCK: return L * m->a + (P - 1) * n * m->b;
    default: return 1e30;
    }
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

enum coll_alg coll_choose(enum coll_kind k, const struct coll_shape *s)
{
    if (SHOAL_UNLIKELY(!initialized))
        shoal_coll_init();
    enum coll_alg a = forced[k];
    switch (k) {
    case K_BARRIER:
        if (a == A_AUTO || (a == A_SHM && !s->shm))
            a = s->shm ? A_SHM : A_DISSEM;
        return a;
    case K_BCAST:
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_LINEAR, A_BINOMIAL, A_SCATTER_ALLGATHER};
            a = cheapest(bcast_cost, c, 3, s);
        }
        return a;
    case K_REDUCE:
        if (s->multi_host && hier_enabled)
            return A_HIER;
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_RECDBL, A_FLAT, A_RING, A_RSAG};
            a = cheapest(reduce_cost, c, 4, s);
        }
        return a;
    case K_COLLECT:
    case K_FCOLLECT:
        if (a == A_AUTO) {
            static const enum coll_alg c[] = {A_LINEAR, A_BRUCK, A_RECDBL, A_RING};
            a = cheapest(collect_cost, c, 4, s);
        }
        return a;
    case K_ALLTOALL:
    default:
        return A_PAIRWISE;
    }
}

/* ---- barrier ---- */
void shoal_team_barrier(struct shoal_team *t)
{
    if (t->n_pes <= 1)
        return;
    struct coll_shape s = {.n = t->n_pes, .shm = t->all_local};
    switch (coll_choose(K_BARRIER, &s)) {
    case A_SHM: shoal_barrier_shm(t); break;
    case A_TREE: shoal_barrier_tree(t); break;
    default: shoal_barrier_dissem(t); break;
    }
}
