/* Split-phase barrier: per-team state, the choice of algorithm, and
 * progress.
 *
 * A pending barrier must complete even when its PE never calls test (the
 * seed paper's MPI_Ibarrier control gets that from MPI's progress engine),
 * so one progress hook, registered at the first start and kept for good,
 * advances every pending barrier from inside each Shoal wait.  It costs one
 * load of pending_count when nothing is pending.
 *
 * A mutex guards the states and the pending list, because the hook may run
 * on any thread; the hook only try-locks it, so a thread already advancing
 * barriers is never waited for. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <strings.h>

#include "split_barrier.h"

static pthread_mutex_t split_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shoal_split_state *pending_head;
static int pending_count;        /* read without the lock by the hook */
static bool hook_registered;

const struct shoal_split_algo *shoal_split_choose(const struct shoal_team *t, const char *routine)
{
    const char *v = shoal_cfg.split_barrier;
    if (!v || !*v || strcasecmp(v, "auto") == 0 || strcasecmp(v, "shm") == 0)
        return t->all_local ? &shoal_split_shm : &shoal_split_put;   /* shm needs load/store to all */
    if (strcasecmp(v, "put") == 0)
        return &shoal_split_put;
    if (strcasecmp(v, "amo") == 0)
        return &shoal_split_amo;
    shoal_fatal(routine, "SHOAL_SPLIT_BARRIER=\"%s\" names no split barrier; "
                "use auto, put, amo or shm", v);
}

static int rounds_for(int n)
{
    int k = 0;
    while (k < 31 && (1 << k) < n)
        k++;
    return k;
}

/* Forget t's split state (team destroy, finalize). */
static void team_fini(struct shoal_team *t);
/* Its area is a few lines: destroy zeroes it all (no clear callback). */
static const struct shoal_team_ext split_ext = {
    .name = "split-phase barrier", .bytes = sizeof(struct shoal_split_area), .team_fini = team_fini,
};
int shoal_split_team_ext;
__attribute__((constructor)) static void register_ext(void)
{
    shoal_split_team_ext = shoal_team_ext_register(&split_ext);
}

static struct shoal_split_state *state_of(struct shoal_team *t, const char *routine)
{
    struct shoal_split_state *s = t->ext_state[shoal_split_team_ext];
    if (SHOAL_LIKELY(s))
        return s;
    s = calloc(1, sizeof *s);
    if (!s)
        shoal_fatal(routine, "out of memory for a split barrier's state");
    s->team = t;
    s->algo = shoal_split_choose(t, routine);
    s->n_rounds = rounds_for(t->n_pes);
    t->ext_state[shoal_split_team_ext] = s;
    return s;
}

static void link_pending(struct shoal_split_state *s)
{
    s->prev = NULL;
    s->next = pending_head;
    if (pending_head)
        pending_head->prev = s;
    pending_head = s;
    __atomic_store_n(&pending_count, pending_count + 1, __ATOMIC_RELEASE);
}

static void unlink_pending(struct shoal_split_state *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        pending_head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->prev = s->next = NULL;
    __atomic_store_n(&pending_count, pending_count - 1, __ATOMIC_RELEASE);
}

/* Lock held.  True when s has no barrier pending any more. */
static bool advance(struct shoal_split_state *s)
{
    if (!s->pending)
        return true;
    if (!s->algo->advance(s))
        return false;
    s->pending = false;
    unlink_pending(s);
    return true;
}

static void progress_hook(void *arg)
{
    (void)arg;
    if (SHOAL_LIKELY(!__atomic_load_n(&pending_count, __ATOMIC_ACQUIRE)))
        return;
    if (pthread_mutex_trylock(&split_lock) != 0)
        return;
    for (struct shoal_split_state *s = pending_head, *next; s; s = next) {
        next = s->next;
        advance(s);
    }
    pthread_mutex_unlock(&split_lock);
}

bool shoal_split_test(struct shoal_team *t)
{
    struct shoal_split_state *s = __atomic_load_n(&t->ext_state[shoal_split_team_ext], __ATOMIC_ACQUIRE);
    if (!s)
        return true;
    pthread_mutex_lock(&split_lock);
    bool done = advance(s);
    if (done)
        s->unreported = false;
    pthread_mutex_unlock(&split_lock);
    return done;
}

/* Tests in a row that found the barrier still open before the poller
 * yields: enough to catch a partner on another core, few enough that a
 * partner sharing this core is not kept off it for long. */
enum { POLLS_BEFORE_YIELD = 64 };

bool shoal_split_poll(struct shoal_team *t)
{
    struct shoal_split_state *s = __atomic_load_n(&t->ext_state[shoal_split_team_ext], __ATOMIC_ACQUIRE);
    shoal_poll();   /* a network transport with manual progress delivers our flags here */
    if (shoal_split_test(t)) {
        if (s)
            __atomic_store_n(&s->failed_polls, 0, __ATOMIC_RELAXED);
        return true;
    }
    unsigned n = __atomic_add_fetch(&s->failed_polls, 1, __ATOMIC_RELAXED);
    if (shoal.oversubscribed || n > POLLS_BEFORE_YIELD)
        sched_yield();
    return false;
}

void shoal_split_wait(struct shoal_team *t)
{
    SHOAL_WAIT_WHILE(!shoal_split_test(t));
}

void shoal_split_start(struct shoal_team *t, const char *routine)
{
    pthread_mutex_lock(&split_lock);
    struct shoal_split_state *s = state_of(t, routine);
    /* SHMEM_DEBUG holds the caller to the contract (a barrier is over when
     * test said 1 or wait returned), whether or not progress finished it
     * in the background, so the report does not depend on timing. */
    if (SHOAL_UNLIKELY(SHOAL_DEBUG_ON && s->unreported)) {
        unsigned long long e = s->epoch;
        pthread_mutex_unlock(&split_lock);
        shoal_fatal(routine, "split barrier %llu on this team has not completed yet; call the "
                    "matching _test until it returns 1, or _wait, before starting the next", e);
    }
    if (SHOAL_UNLIKELY(s->pending)) {
        /* Finish the earlier barrier first, so the epochs of all members stay in step. */
        pthread_mutex_unlock(&split_lock);
        shoal_split_wait(t);
        pthread_mutex_lock(&split_lock);
    }
    s->epoch++;
    s->unreported = true;
    if (t->n_pes > 1) {
        s->round = 0;
        s->pending = true;
        link_pending(s);
        s->algo->arrive(s);
        advance(s);
    }
    if (SHOAL_UNLIKELY(!hook_registered)) {
        shoal_progress_add(progress_hook, NULL);
        hook_registered = true;
    }
    pthread_mutex_unlock(&split_lock);
}

static void team_fini(struct shoal_team *t)
{
    pthread_mutex_lock(&split_lock);
    struct shoal_split_state *s = t->ext_state[shoal_split_team_ext];
    if (s) {
        if (s->pending)
            unlink_pending(s);
        free(s);
        t->ext_state[shoal_split_team_ext] = NULL;
    }
    pthread_mutex_unlock(&split_lock);
}
