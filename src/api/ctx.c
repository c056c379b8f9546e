/* Communication contexts and sessions.
 *
 * A context is a struct shoal_ctx: its team (PE numbers in ctx_ calls are
 * relative to it), its options, and the network transport's per-context
 * state.  Over shared memory a context needs nothing else: puts are stores
 * and AMOs CPU atomics, so contexts cost nothing there and threads on their
 * own contexts never contend.  The network transport gets a hook at create
 * and destroy to give each context its own endpoint; a PRIVATE context
 * (only its creating thread uses it) lets it skip locking. */
#include <stdlib.h>
#include <unistd.h>

#include "api.h"

static const long known_options = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;

static int ctx_new(struct shoal_team *t, long options, shmem_ctx_t *ctx, const char *routine)
{
    *ctx = SHMEM_CTX_INVALID;
    if (SHOAL_DEBUG_ON && (options & ~known_options))
        shoal_warn(routine, "options 0x%lx include bits that are not SHMEM_CTX_SERIALIZED, PRIVATE or "
                   "NOSTORE; they are ignored", options);
    struct shoal_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->team = t;
    c->host_atomics = t == &shoal_team_shared;
    c->options = options;
    /* Creating thread of a PRIVATE context (0: shareable), for destroy's check. */
    c->creator_thread_private = (options & SHMEM_CTX_PRIVATE) ? (int)gettid() : 0;
    /* A team's num_contexts is a reservation hint, as in other libraries:
     * programs create contexts on teams made with config = NULL and expect
     * them to work, so only running out of memory or endpoints fails. */
    if (!shoal_team_ctx_add(t, c)) {
        if (SHOAL_DEBUG_ON)
            shoal_warn(routine, "out of memory for the team's list of contexts; destroy unused contexts");
        free(c);
        return -1;
    }
    if (shoal_ctx_net_create(c) != 0) {   /* its own network endpoint when the job spans hosts */
        if (SHOAL_DEBUG_ON)
            shoal_warn(routine, "the network transport could not open another endpoint; use fewer contexts");
        shoal_team_ctx_remove(t, c);
        free(c);
        return -1;
    }
    *ctx = c;
    return 0;
}

/* Completes the context's operations and frees it (also team destroy's
 * path for the team's contexts). */
void shoal_ctx_free(struct shoal_ctx *c)
{
    shoal_quiet(c);
    shoal_ctx_net_destroy(c);
    shoal_team_ctx_remove(c->team, c);
    free(c);
}

SHOAL_API(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
{
    return ctx_new(&shoal_team_world, options, ctx, "shmem_ctx_create");
}

SHOAL_API(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx))
{
    struct shoal_team *t = shoal_api_team("shmem_team_create_ctx", team);
    if (!t) {
        *ctx = SHMEM_CTX_INVALID;
        if (SHOAL_DEBUG_ON)
            shoal_warn("shmem_team_create_ctx", "team is SHMEM_TEAM_INVALID: no context created");
        return -1;
    }
    return ctx_new(t, options, ctx, "shmem_team_create_ctx");
}

SHOAL_API(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    struct shoal_ctx *c = shoal_ctx_of(ctx);
    if (c == &shoal_ctx_default) {
        if (SHOAL_DEBUG_ON)
            shoal_warn("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed; call ignored");
        return;
    }
    if (SHOAL_DEBUG_ON && c->creator_thread_private && c->creator_thread_private != (int)gettid())
        shoal_warn("shmem_ctx_destroy", "a SHMEM_CTX_PRIVATE context must be destroyed by the thread that "
                   "created it (thread %d), not thread %d", c->creator_thread_private, (int)gettid());
    shoal_ctx_free(c);
}

SHOAL_API(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))
{
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = shoal_ctx_of(ctx)->team;
    return 0;
}

/* Sessions are hints: Shoal has no batching to turn on, and the spec says
 * sessions never change completion or ordering. */
SHOAL_API(void, shmem_ctx_session_start, (shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                                          long config_mask))
{
    if (ctx == SHMEM_CTX_INVALID || !SHOAL_DEBUG_ON)
        return;
    if (options & ~(long)SHMEM_CTX_SESSION_BATCH)
        shoal_warn("shmem_ctx_session_start", "options 0x%lx: only SHMEM_CTX_SESSION_BATCH is defined", options);
    if ((config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) && !config)
        shoal_warn("shmem_ctx_session_start", "config_mask has SHMEM_CTX_SESSION_TOTAL_OPS but config is NULL");
}

SHOAL_API(void, shmem_ctx_session_stop, (shmem_ctx_t ctx))
{
}
