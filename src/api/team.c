/* Team management routines, team_sync, team_ptr and the colour split
 * extension.  Handles are pointers to struct shoal_team; SHMEM_TEAM_INVALID
 * is NULL, and every routine defines what it does with it (API.md §5.14). */
#include <limits.h>
#include <shmemx.h>

#include "api.h"
#include "../coll/coll.h"

void shoal_ctx_free(struct shoal_ctx *c);   /* api/ctx.c */

/* Argument problems are reported once per call site, by member 0 of the
 * team the call is collective over, and only under SHMEM_DEBUG. */
#define DEBUG_REPORT(team, routine, ...)                                       \
    do {                                                                        \
        if (SHOAL_DEBUG_ON && (team)->my_pe == 0)                               \
            shoal_warn(routine, __VA_ARGS__);                                   \
    } while (0)

static int debug_invalid(const char *routine, const char *what)
{
    if (SHOAL_DEBUG_ON)
        shoal_warn(routine, "%s is SHMEM_TEAM_INVALID: nothing done, nonzero returned "
                   "(check the return code of the split that made it)", what);
    return -1;
}

/* A team a split made, as the handle the user gets (recorded as live). */
static shmem_team_t returned(const char *routine, struct shoal_team *t)
{
    if (!t)
        return SHMEM_TEAM_INVALID;
    shoal_api_team_add(routine, t);
    return t;
}

/* num_contexts asked for in a team config; defaults to 0 (the spec: no
 * contexts on a new team unless asked for). */
static int config_contexts(const shmem_team_config_t *config, long mask, const char *routine)
{
    if (!(mask & SHMEM_TEAM_NUM_CONTEXTS))
        return 0;
    if (!config || config->num_contexts < 0) {
        if (SHOAL_DEBUG_ON)
            shoal_warn(routine, "config_mask has SHMEM_TEAM_NUM_CONTEXTS but %s; using num_contexts 0",
                       config ? "config->num_contexts is negative" : "config is NULL");
        return 0;
    }
    return config->num_contexts;
}

SHOAL_API(int, shmem_team_my_pe, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_team("shmem_team_my_pe", team);
    return t ? t->my_pe : -1;
}

SHOAL_API(int, shmem_team_n_pes, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_team("shmem_team_n_pes", team);
    return t ? t->n_pes : -1;
}

SHOAL_API(int, shmem_team_get_config, (shmem_team_t team, long config_mask, shmem_team_config_t *config))
{
    struct shoal_team *t = shoal_api_team("shmem_team_get_config", team);
    if (!t)
        return debug_invalid("shmem_team_get_config", "team");
    if (config_mask == 0)
        return 0;
    if (!config) {
        if (SHOAL_DEBUG_ON)
            shoal_warn("shmem_team_get_config", "config is NULL with a nonzero config_mask: pass a "
                       "shmem_team_config_t to fill, or mask 0");
        return -1;
    }
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = t->num_contexts;
    return 0;
}

SHOAL_API(int, shmem_team_translate_pe, (shmem_team_t src_team, int src_pe, shmem_team_t dest_team))
{
    struct shoal_team *src = shoal_api_team("shmem_team_translate_pe", src_team);
    struct shoal_team *dest = shoal_api_team("shmem_team_translate_pe", dest_team);
    if (!src || !dest)
        return -1;
    if (src_pe < 0 || src_pe >= src->n_pes)
        return -1;
    return shoal_team_index_of(dest, shoal_team_pe(src, src_pe));
}

/* A triplet the spec accepts: size >= 1, every member inside the parent
 * (so no wrap-around), stride 0 only with size 1. */
static bool valid_triplet(const struct shoal_team *p, int start, int stride, int size, const char *routine)
{
    long n = p->n_pes, last = start + (long)(size - 1) * stride;
    const char *why = NULL;
    if (size < 1)
        why = "size must be at least 1";
    else if (stride == 0 && size != 1)
        why = "stride 0 is allowed only with size 1";
    else if (start < 0 || start >= n || last < 0 || last >= n)
        why = "a member falls outside the parent team (start + i*stride must stay in 0..N-1, no wrap-around)";
    if (why)
        DEBUG_REPORT(p, routine, "triplet (start %d, stride %d, size %d) over a parent of %ld PEs: %s; "
                     "the split fails on every PE", start, stride, size, n, why);
    return !why;
}

/* My index in the triplet's team, or -1. */
static int triplet_index(int me, int start, int stride, int size)
{
    long d = (long)me - start;
    if (stride == 0)
        return d == 0 ? 0 : -1;
    if (d % stride)
        return -1;
    long i = d / stride;
    return i >= 0 && i < size ? (int)i : -1;
}

SHOAL_API(int, shmem_team_split_strided, (shmem_team_t parent_team, int start, int stride, int size,
                                          const shmem_team_config_t *config, long config_mask,
                                          shmem_team_t *new_team))
{
    static const char routine[] = "shmem_team_split_strided";
    *new_team = SHMEM_TEAM_INVALID;
    struct shoal_team *p = shoal_api_team(routine, parent_team);
    if (!p)
        return debug_invalid(routine, "parent_team");
    if (!valid_triplet(p, start, stride, size, routine))
        return -1;
    struct shoal_team_spec s = {.start = start, .stride = stride, .n_pes = size,
                                .num_contexts = config_contexts(config, config_mask, routine)};
    s.my_pe = triplet_index(p->my_pe, start, stride, size);
    if (s.my_pe < 0)
        s.n_pes = 0;
    struct shoal_team *t;
    if (shoal_team_create(p, 1, &s, &t, routine) != 0)
        return -1;
    *new_team = returned(routine, t);
    return 0;
}

SHOAL_API(int, shmem_team_split_2d, (shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                                     long xaxis_mask, shmem_team_t *xaxis_team,
                                     const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                     shmem_team_t *yaxis_team))
{
    static const char routine[] = "shmem_team_split_2d";
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    struct shoal_team *p = shoal_api_team(routine, parent_team);
    if (!p)
        return debug_invalid(routine, "parent_team");
    if (xrange < 1) {
        DEBUG_REPORT(p, routine, "xrange %d: it must be at least 1; the split fails on every PE", xrange);
        return -1;
    }
    int n = p->n_pes, xr = xrange > n ? n : xrange;   /* xrange > N acts as N */
    int x = p->my_pe % xr, y = p->my_pe / xr;
    struct shoal_team_spec s[2] = {
        /* x-axis team: my row, members y*xr .. */
        {.n_pes = n - y * xr < xr ? n - y * xr : xr, .my_pe = x, .start = y * xr, .stride = 1,
         .num_contexts = config_contexts(xaxis_config, xaxis_mask, routine)},
        /* y-axis team: my column, members x, x+xr, .. */
        {.n_pes = (n - x + xr - 1) / xr, .my_pe = y, .start = x, .stride = xr,
         .num_contexts = config_contexts(yaxis_config, yaxis_mask, routine)},
    };
    struct shoal_team *t[2];
    if (shoal_team_create(p, 2, s, t, routine) != 0)
        return -1;
    *xaxis_team = returned(routine, t[0]);
    *yaxis_team = returned(routine, t[1]);
    return 0;
}

SHOAL_API(int, shmemx_team_split_color, (shmem_team_t parent_team, int color, int key,
                                         const shmem_team_config_t *config, long config_mask,
                                         shmem_team_t *new_team))
{
    static const char routine[] = "shmemx_team_split_color";
    *new_team = SHMEM_TEAM_INVALID;
    struct shoal_team *p = shoal_api_team(routine, parent_team);
    if (!p)
        return debug_invalid(routine, "parent_team");
    if (color < 0 && color != SHMEMX_COLOR_UNDEFINED && SHOAL_DEBUG_ON)
        shoal_warn(routine, "color %d is negative: treated as SHMEMX_COLOR_UNDEFINED (no team)", color);
    struct shoal_team *t;
    if (shoal_team_split_color(p, color, key,
                               config_contexts(config, config_mask, routine), &t, routine) != 0)
        return -1;
    *new_team = returned(routine, t);
    return 0;
}

SHOAL_API(void, shmem_team_destroy, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_team("shmem_team_destroy", team);
    if (!t)
        return;
    if (t->predefined) {
        if (SHOAL_DEBUG_ON)
            shoal_warn("shmem_team_destroy", "a predefined team (WORLD, SHARED, HOST, LEADERS) cannot be "
                       "destroyed; call ignored");
        return;
    }
    shoal_api_team_drop(t);
    shoal_team_destroy(t, shoal_ctx_free);
}

SHOAL_API(void *, shmem_team_ptr, (shmem_team_t team, const void *dest, int pe))
{
    struct shoal_team *t = shoal_api_team("shmem_team_ptr", team);
    if (!t)
        return NULL;
    if (pe < 0 || pe >= t->n_pes)
        return NULL;
    return shoal_ptr(dest, shoal_team_pe(t, pe));
}

SHOAL_API(int, shmem_team_sync, (shmem_team_t team))
{
    struct shoal_team *t = shoal_api_team("shmem_team_sync", team);
    if (!t)
        return debug_invalid("shmem_team_sync", "team");
    SHOAL_PROF_SPAN("shmem_team_sync", SHOAL_PROF_BARRIER, t, 0, shoal_team_barrier(t));
    return 0;
}
