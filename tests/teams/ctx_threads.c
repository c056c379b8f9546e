/* Contexts from many threads (SHMEM_THREAD_MULTIPLE): every thread creates
 * its own PRIVATE context on WORLD and a shareable one on a team configured
 * for exactly as many contexts, writes and adds through them with
 * team-relative PE numbers, quiets its own context and destroys it.  Also:
 * num_contexts is a hint (more threads than it create contexts at once and
 * all succeed), options are
 * kept, ctx_get_team, sessions as hints, and team_destroy taking the team's
 * remaining shareable contexts with it. */
#include <pthread.h>

#include "teams_util.h"

#define THREADS 4
#define ROUNDS 200

static long box[THREADS][MAX_PES];     /* box[t][from]: last round thread t of PE `from` wrote here */
static long adds[THREADS];
static shmem_team_t reversed;          /* WORLD in reverse order, num_contexts = THREADS */
static int created_ok[THREADS + 2];

struct arg {
    int id;
};

static void *worker(void *p)
{
    int id = ((struct arg *)p)->id, me = shmem_my_pe(), n = shmem_n_pes();
    shmem_ctx_t mine, shared;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, &mine) == 0, "thread %d: ctx_create", id);
    shmem_team_t t;
    CHECK(shmem_ctx_get_team(mine, &t) == 0 && t == SHMEM_TEAM_WORLD, "ctx_create contexts are on WORLD");
    CHECK(shmem_team_create_ctx(reversed, SHMEM_CTX_SERIALIZED, &shared) == 0, "thread %d: team_create_ctx", id);
    CHECK(shmem_ctx_get_team(shared, &t) == 0 && t == reversed, "team context's team");
    shmem_ctx_session_start(mine, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    int next = (me + 1) % n;
    int rev_next = n - 1 - next;        /* world PE `next` in the reversed team */
    for (long r = 1; r <= ROUNDS; r++) {
        shmem_ctx_long_p(mine, &box[id][me], r, next);
        shmem_ctx_long_atomic_add(shared, &adds[id], 1, rev_next);
    }
    shmem_ctx_session_stop(mine);
    shmem_ctx_quiet(mine);
    shmem_ctx_quiet(shared);
    shmem_ctx_destroy(mine);
    shmem_ctx_destroy(shared);
    return NULL;
}

static void *try_create(void *p)
{
    int id = ((struct arg *)p)->id;
    shmem_ctx_t ctx;
    created_ok[id] = shmem_team_create_ctx(reversed, 0, &ctx) == 0;
    CHECK(created_ok[id] || ctx == SHMEM_CTX_INVALID, "failed create must give SHMEM_CTX_INVALID");
    return NULL;   /* left alive: team_destroy takes them */
}

static void run_threads(void *(*fn)(void *), int count)
{
    pthread_t th[THREADS + 2];
    struct arg a[THREADS + 2];
    for (int i = 0; i < count; i++) {
        a[i].id = i;
        pthread_create(&th[i], NULL, fn, &a[i]);
    }
    for (int i = 0; i < count; i++)
        pthread_join(th[i], NULL);
}

int main(void)
{
    int provided;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "THREAD_MULTIPLE provided %d", provided);
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_config_t cfg = {.num_contexts = THREADS};
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &reversed) == 0,
          "reversed team");

    run_threads(worker, THREADS);
    shmem_barrier_all();
    int prev = (me + n - 1) % n;
    for (int t = 0; t < THREADS; t++) {
        CHECK_EQ_LONG(box[t][prev], ROUNDS);
        CHECK_EQ_LONG(adds[t], ROUNDS);
    }

    /* THREADS + 2 threads create contexts on a team configured for THREADS: all succeed */
    run_threads(try_create, THREADS + 2);
    int wins = 0;
    for (int i = 0; i < THREADS + 2; i++)
        wins += created_ok[i];
    CHECK(wins == THREADS + 2, "%d of %d contexts created on a team configured for %d", wins, THREADS + 2,
          THREADS);
    shmem_barrier_all();
    shmem_team_destroy(reversed);   /* destroys the contexts left alive */

    /* many contexts on WORLD, destroyed in a different order */
    shmem_ctx_t many[64];
    for (int i = 0; i < 64; i++)
        CHECK(shmem_ctx_create(i % 2 ? SHMEM_CTX_SERIALIZED : 0, &many[i]) == 0, "context %d on WORLD", i);
    for (int i = 0; i < 64; i++)
        shmem_ctx_long_atomic_inc(many[(i * 7) % 64], &adds[0], (me + i) % n);
    for (int i = 63; i >= 0; i -= 2)
        shmem_ctx_destroy(many[i]);   /* destroy quiets first */
    for (int i = 0; i < 64; i += 2)
        shmem_ctx_destroy(many[i]);
    shmem_barrier_all();
    CHECK_EQ_LONG(adds[0], ROUNDS + 64);   /* each PE's 64 incs go round-robin: 64 land here in total */
    if (me == 0)
        printf("ctx_threads: %d PEs x %d threads ok\n", n, THREADS);
    shmem_finalize();
    return 0;
}
