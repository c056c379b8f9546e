/* Predefined teams, member lookup, and the per-team context list. */
#include <limits.h>
#include <stdlib.h>

#include "team_impl.h"

SHOAL_EXPORT struct shoal_team shoal_team_world;
/* The core declares the default context (core/rma.h); its team is WORLD, so
 * it lives here, where the core need not know teams. */
SHOAL_EXPORT struct shoal_ctx shoal_ctx_default = {.team = &shoal_team_world};
SHOAL_EXPORT struct shoal_team shoal_team_shared;
SHOAL_EXPORT struct shoal_team shoal_team_host;
SHOAL_EXPORT struct shoal_team *shoal_team_leaders_handle;
static struct shoal_team leaders;

/* ---- membership ---- */

static int by_world_cmp(const void *a, const void *b)
{
    const struct shoal_team_rank *x = a, *y = b;
    return (x->world > y->world) - (x->world < y->world);
}

int shoal_team_index_of_slow(const struct shoal_team *t, int world_pe)
{
    struct shoal_team_rank key = {world_pe, 0};
    const struct shoal_team_rank *r = bsearch(&key, t->by_world, t->n_pes, sizeof key, by_world_cmp);
    return r ? r->index : -1;
}

bool shoal_team_all_reachable(const struct shoal_team *t)
{
    for (int i = 0; i < t->n_pes; i++)
        if (!shoal.peers[shoal_team_pe(t, i)].base[SHOAL_SEG_HEAP])
            return false;
    return true;
}

/* Sets t's membership from the world PEs of its n members: a triplet when
 * they are evenly spaced (the fast path), else a member list and its sorted
 * lookup.  Takes ownership of world (freed when it becomes a triplet). */
void shoal_team_set_members(struct shoal_team *t, int *world, int n)
{
    int stride = n > 1 ? world[1] - world[0] : 1;
    bool triplet = stride != 0;
    for (int i = 2; i < n && triplet; i++)
        triplet = world[i] - world[i - 1] == stride;
    t->n_pes = n;
    t->start = world[0];
    t->stride = stride;
    if (triplet) {
        free(world);
        t->members = NULL;
        t->by_world = NULL;
        return;
    }
    t->members = world;
    t->by_world = malloc(n * sizeof *t->by_world);
    for (int i = 0; i < n; i++)
        t->by_world[i] = (struct shoal_team_rank){world[i], i};
    qsort(t->by_world, n, sizeof *t->by_world, by_world_cmp);
}

/* ---- predefined teams ---- */

static void predefined(struct shoal_team *t, int block, int *world, int n)
{
    *t = (struct shoal_team){.block = block, .predefined = true, .num_contexts = INT_MAX};
    shoal_team_set_members(t, world, n);
    t->my_pe = shoal_team_index_of(t, shoal.my_pe);
    t->psync = shoal_pool_psync(block);
    t->all_local = shoal_team_all_reachable(t);
}

/* World PEs for which keep(pe) holds, in world order. */
static int *select_pes(bool (*keep)(int pe), int *n)
{
    int *list = malloc(shoal.n_pes * sizeof *list);
    *n = 0;
    for (int pe = 0; pe < shoal.n_pes; pe++)
        if (keep(pe))
            list[(*n)++] = pe;
    return list;
}

static bool is_world(int pe) { return true; }
static bool is_load_store(int pe) { return shoal.peers[pe].base[SHOAL_SEG_HEAP] != NULL; }
static bool is_my_host(int pe) { return shoal.peers[pe].host == shoal.my_host; }

/* Hosts are numbered in order of their first PE (init.c), so a PE leads
 * its host when no lower PE sits on a host numbered as high. */
static int hosts_seen;
static bool is_leader(int pe)
{
    if (pe == 0)
        hosts_seen = 0;
    if (shoal.peers[pe].host < hosts_seen)
        return false;
    hosts_seen = shoal.peers[pe].host + 1;
    return true;
}

static void make_predefined(struct shoal_team *t, int block, bool (*keep)(int pe))
{
    int n;
    int *list = select_pes(keep, &n);
    predefined(t, block, list, n);
}

static void free_contexts(struct shoal_team *t)
{
    for (int i = 0; i < t->n_ctx; i++) {
        shoal_ctx_net_destroy(t->ctx[i]);
        free(t->ctx[i]);
    }
    t->n_ctx = 0;
}

static struct shoal_team *live_head;   /* user teams alive on this PE */

void shoal_team_link(struct shoal_team *t)
{
    t->live_prev = NULL;
    t->live_next = live_head;
    if (live_head)
        live_head->live_prev = t;
    live_head = t;
}

void shoal_team_unlink(struct shoal_team *t)
{
    if (t->live_prev)
        t->live_prev->live_next = t->live_next;
    else
        live_head = t->live_next;
    if (t->live_next)
        t->live_next->live_prev = t->live_prev;
}

void shoal_teams_init(void)
{
    shoal_pool_init();
    make_predefined(&shoal_team_world, SHOAL_BLOCK_WORLD, is_world);
    make_predefined(&shoal_team_shared, SHOAL_BLOCK_SHARED, is_load_store);
    make_predefined(&shoal_team_host, SHOAL_BLOCK_HOST, is_my_host);
    make_predefined(&leaders, SHOAL_BLOCK_LEADERS, is_leader);
    shoal_team_leaders_handle = leaders.my_pe >= 0 ? &leaders : NULL;
    live_head = NULL;
}

/* Also forgets the extensions' per-team state. */
static void free_object(struct shoal_team *t)
{
    shoal_team_ext_fini(t);
    free(t->members);
    free(t->by_world);
    free(t->ctx);
    t->members = NULL;
    t->by_world = NULL;
    t->ctx = NULL;
    t->n_ctx = t->ctx_cap = 0;
}

/* Last finalize: every PE is here, so teams and contexts go without any
 * communication.  The objects of user teams are freed; user handles to them
 * are dead (the spec: finalize destroys all teams). */
void shoal_teams_fini(void)
{
    while (live_head) {
        struct shoal_team *t = live_head;
        shoal_team_unlink(t);
        free_contexts(t);
        free_object(t);
        free(t);
    }
    struct shoal_team *pre[] = {&shoal_team_world, &shoal_team_shared, &shoal_team_host, &leaders};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++) {
        free_contexts(pre[i]);
        free_object(pre[i]);
    }
    shoal_team_leaders_handle = NULL;
    shoal_split_color_fini();
    shoal_pool_fini();
}

void shoal_team_free_object(struct shoal_team *t)
{
    free_object(t);
    free(t);
}

/* ---- contexts of a team ---- */

static void ctx_lock(struct shoal_team *t)
{
    while (__atomic_exchange_n(&t->ctx_lock, 1, __ATOMIC_ACQUIRE))
        shoal_cpu_relax();
}

static void ctx_unlock(struct shoal_team *t)
{
    __atomic_store_n(&t->ctx_lock, 0, __ATOMIC_RELEASE);
}

bool shoal_team_ctx_add(struct shoal_team *t, struct shoal_ctx *ctx)
{
    ctx_lock(t);
    if (t->n_ctx == t->ctx_cap) {
        int cap = t->ctx_cap ? 2 * t->ctx_cap : 4;
        struct shoal_ctx **grown = realloc(t->ctx, cap * sizeof *grown);
        if (grown) {
            t->ctx = grown;
            t->ctx_cap = cap;
        }
    }
    bool ok = t->n_ctx < t->ctx_cap;
    if (ok)
        t->ctx[t->n_ctx++] = ctx;
    ctx_unlock(t);
    return ok;
}

void shoal_team_ctx_remove(struct shoal_team *t, struct shoal_ctx *ctx)
{
    ctx_lock(t);
    for (int i = 0; i < t->n_ctx; i++)
        if (t->ctx[i] == ctx) {
            t->ctx[i] = t->ctx[--t->n_ctx];
            break;
        }
    ctx_unlock(t);
}
