/* What the collective programs (collectives, reduce_algorithms,
 * osu_reduce_teams) share: the choice of API, the two pSync/pWrk sets that
 * back-to-back 1.4 active-set calls alternate between, and the back-to-back
 * timed loop (the OSU-style one, a barrier before every call, is bench.h's
 * bench_loop_separated). */
#ifndef COLL_BENCH_H
#define COLL_BENCH_H

#include "bench.h"

enum coll_api { API_ACTIVE_SET, API_TEAMS };

/* --api=teams or --api=active-set; the default (or --api=auto) takes teams
 * when the library has them. */
static inline enum coll_api coll_choose_api(struct bench_ctx *c)
{
    const char *want = bench_arg_str(c->o.argc, c->o.argv, "api");
    if (want && strcmp(want, "active-set") == 0 && BENCH_HAVE_ACTIVE_SET)
        return API_ACTIVE_SET;
    if (want && strcmp(want, "teams") == 0 && BENCH_HAVE_TEAMS)
        return API_TEAMS;
    if (want && strcmp(want, "auto") != 0 && c->me == 0)
        fprintf(stderr, "%s: --api=%s not available, using the default\n", c->name, want);
    return BENCH_HAVE_TEAMS ? API_TEAMS : API_ACTIVE_SET;
}

/* ---- the alternating active-set sets ---- */

#if BENCH_HAVE_ACTIVE_SET
#define COLL_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define COLL_SYNC_SIZE COLL_MAX2(COLL_MAX2(SHMEM_REDUCE_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE), \
                                 COLL_MAX2(SHMEM_COLLECT_SYNC_SIZE, SHMEM_ALLTOALL_SYNC_SIZE))
#define COLL_REDUCE_MIN_WRK SHMEM_REDUCE_MIN_WRKDATA_SIZE
static long coll_psync[2][COLL_SYNC_SIZE];
#else
#define COLL_REDUCE_MIN_WRK 0
#endif

/* Back-to-back active-set calls alternate between two pSync/pWrk sets
 * (the idiom of the OSU benchmark, 000 Algorithm 1) instead of paying a
 * barrier per call. */
struct coll_sets {
    void *pwrk[2];  /* symmetric reduction work arrays */
    int turn;
};

/* pWrk for reductions of up to max_elems elements of elem_size bytes (the
 * 1.4 rule: max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements),
 * and both pSync arrays filled.  Collective: ends with a barrier. */
static inline void coll_sets_init(struct bench_ctx *c, struct coll_sets *s, size_t max_elems,
                                  size_t elem_size)
{
    size_t bytes = elem_size * (max_elems / 2 + 1 + COLL_REDUCE_MIN_WRK);
    for (int i = 0; i < 2; i++)
        s->pwrk[i] = shmem_malloc(bytes);
    if (!s->pwrk[0] || !s->pwrk[1]) {
        fprintf(stderr, "%s: shmem_malloc of 2 x %zu bytes of pWrk failed\n", c->name, bytes);
        shmem_global_exit(2);
    }
#if BENCH_HAVE_ACTIVE_SET
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < COLL_SYNC_SIZE; j++)
            coll_psync[i][j] = SHMEM_SYNC_VALUE;
#endif
    shmem_barrier_all();
}

/* The set the next call uses. */
static inline int coll_next_set(struct coll_sets *s)
{
    return s->turn ^= 1;
}

static inline void coll_sets_free(struct coll_sets *s)
{
    shmem_free(s->pwrk[0]);
    shmem_free(s->pwrk[1]);
}

/* ---- back-to-back timing ---- */

/* One call of a collective on every PE. */
struct coll_call {
    void (*call)(void *arg);
    void *arg;
};

/* Calls with nothing in between (as applications such as NAS IS issue
 * them, so a call that leaves work for the next one pays for it), all PEs
 * starting together after a barrier. */
static inline double coll_loop_back_to_back(void *state, long iters)
{
    const struct coll_call *l = state;
    shmem_barrier_all();
    double t0 = bench_now();
    for (long i = 0; i < iters; i++)
        l->call(l->arg);
    return bench_now() - t0;
}

#endif
