/* The profile's counts: per target PE, per routine, per wait class and per
 * collective (routine, team, algorithm).  Counts are exact under threads
 * (relaxed atomic adds under SHMEM_THREAD_MULTIPLE); the tables are fixed-size, so recording never
 * allocates after init. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <shmem.h>

#include "prof.h"
#include "prof_tables.h"

bool shoal_prof_on;
struct shoal_prof_state shoal_prof;

static bool threaded;   /* SHMEM_THREAD_MULTIPLE: counters are shared between threads */
__thread struct shoal_prof_choices shoal_prof_choices;

uint64_t shoal_prof_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A locked add costs several times a plain one: only threads need it. */
static void add(uint64_t *counter, uint64_t v)
{
    if (threaded)
        __atomic_fetch_add(counter, v, __ATOMIC_RELAXED);
    else
        *counter += v;
}

/* Routine names are the API's __func__ strings: one pointer per routine,
 * so the table hashes the pointer (open addressing, never removed). */
static struct shoal_prof_routine *routine_row(const char *name)
{
    size_t h = ((uintptr_t)name >> 3) * 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < SHOAL_PROF_ROUTINES; i++) {
        struct shoal_prof_routine *r = &shoal_prof.routines[(h + i) % SHOAL_PROF_ROUTINES];
        const char *seen = __atomic_load_n(&r->name, __ATOMIC_ACQUIRE);
        if (seen == name)
            return r;
        if (!seen && __atomic_compare_exchange_n(&r->name, &seen, name, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return r;
        if (seen == name)
            return r;
    }
    return &shoal_prof.routine_overflow;   /* more distinct routines than slots: pooled, still counted */
}

void shoal_prof_op(const char *routine, enum shoal_prof_kind kind, bool nbi, int pe, size_t bytes)
{
    struct shoal_prof_count *c = &shoal_prof.ops[shoal_prof_op_index(kind, nbi, pe)];
    add(&c->n, 1);
    add(&c->bytes, bytes);
    add(&shoal_prof.issued[kind], 1);
    struct shoal_prof_routine *r = routine_row(routine);
    add(&r->calls, 1);
    add(&r->bytes, bytes);
    if (shoal_trace_on)
        shoal_trace_op(routine, kind, pe, bytes);
}

void shoal_prof_begin(struct shoal_prof_span *s)
{
    s->choice0 = shoal_prof_choices.n;
    s->t0 = shoal_prof_now();
}

/* Barriers and collectives also get a row per (routine, team, algorithm). */
static void coll_add(const struct shoal_prof_span *s, const char *alg, uint64_t ns)
{
    while (threaded && __atomic_exchange_n(&shoal_prof.coll_lock, 1, __ATOMIC_ACQUIRE))
        shoal_cpu_relax();
    struct shoal_prof_coll *c = shoal_prof.colls;
    int n = shoal_prof.n_colls;
    while (c < shoal_prof.colls + n && !(c->routine == s->routine && c->team == s->team && c->alg == alg))
        c++;
    if (c == shoal_prof.colls + n && n < SHOAL_PROF_COLLS) {
        *c = (struct shoal_prof_coll){.routine = s->routine, .team = s->team, .alg = alg};
        shoal_prof_team_label(s->team, c->team_label, sizeof c->team_label, &c->team_pes);
        shoal_prof.n_colls++;
    }
    if (c < shoal_prof.colls + SHOAL_PROF_COLLS) {
        c->calls++;
        c->bytes += s->bytes;
        c->ns += ns;
    }
    __atomic_store_n(&shoal_prof.coll_lock, 0, __ATOMIC_RELEASE);
}

void shoal_prof_end(struct shoal_prof_span *s)
{
    uint64_t t1 = shoal_prof_now(), ns = t1 - s->t0;
    const char *alg = shoal_prof_choices.n != s->choice0 ? shoal_prof_choices.alg[s->choice0 % 8] : NULL;
    struct shoal_prof_routine *r = routine_row(s->routine);
    add(&r->calls, 1);
    add(&r->bytes, s->bytes);
    add(&r->ns, ns);
    add(&shoal_prof.waits[s->what].calls, 1);
    add(&shoal_prof.waits[s->what].ns, ns);
    if (s->what == SHOAL_PROF_BARRIER || s->what == SHOAL_PROF_COLL)
        coll_add(s, alg, ns);
    if (s->what == SHOAL_PROF_QUIET || s->what == SHOAL_PROF_BARRIER)
        shoal_prof_mark_completed();
    if (shoal_trace_on)
        shoal_trace_span(s, alg, t1);
}

void shoal_prof_totals(struct shoal_prof_totals *out)
{
    const uint64_t *n = shoal_prof.issued;
    *out = (struct shoal_prof_totals){n[SHOAL_PROF_PUT], n[SHOAL_PROF_GET], n[SHOAL_PROF_AMO], n[SHOAL_PROF_SIGNAL]};
}

/* A quiet or barrier completes every operation issued before it. */
void shoal_prof_mark_completed(void)
{
    struct shoal_prof_totals t;
    shoal_prof_totals(&t);
    shoal_prof.completed = t;
}

void shoal_prof_completed(struct shoal_prof_totals *out)
{
    *out = shoal_prof.completed;
}

/* ---- lifecycle ---- */
void shoal_prof_init(void (*world_barrier)(void))
{
    free(shoal_prof.ops);
    shoal_prof = (struct shoal_prof_state){.world_barrier = world_barrier};
    threaded = shoal.thread_level == SHMEM_THREAD_MULTIPLE;
    shoal_prof.enabled = (shoal_cfg.profile && *shoal_cfg.profile) || (shoal_cfg.trace && *shoal_cfg.trace) ||
                         shoal_cfg.counters;
    if (!shoal_prof.enabled)
        return;
    shoal_prof.ops = calloc((size_t)SHOAL_PROF_KINDS * 2 * shoal.n_pes, sizeof *shoal_prof.ops);
    if (!shoal_prof.ops)
        shoal_fatal("shmem_init", "out of memory for the communication profile of %d PEs (unset SHOAL_PROFILE)",
                    shoal.n_pes);
    shoal_trace_init();   /* collective: every PE has the same settings */
    shoal_prof.t_init = shoal_prof_now();
    shoal_prof_on = true;
}

/* Recording stops for good; the files are written once. */
static void stop_and_write(const char *when, bool collective)
{
    if (!shoal_prof.enabled)
        return;
    shoal_prof_on = false;
    shoal_prof_write(when);
    shoal_trace_write(collective);
    shoal_prof.enabled = false;
}

void shoal_prof_finalize(void)
{
    stop_and_write("shmem_finalize", true);
}

void shoal_prof_exit(void)
{
    stop_and_write("shmem_global_exit", false);   /* the other PEs are being stopped: no barrier */
}

/* The spec's levels: 0 stops recording, 1 resumes it, 2 flushes (this PE
 * writes its profile now; recording goes on).  Other levels are ours to
 * define and do nothing. */
void shoal_prof_control(int level)
{
    if (!shoal_prof.enabled)
        return;
    if (level == 0)
        shoal_prof_on = false;
    else if (level == 1)
        shoal_prof_on = true;
    else if (level == 2)
        shoal_prof_write("shmem_pcontrol");
}
