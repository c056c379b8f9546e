/* The team handles this PE's user holds: the predefined teams and every
 * team a split returned and destroy has not yet taken.  A handle that is
 * neither (destroyed, from before the last finalize, never initialized) is
 * reported by name instead of being followed into freed memory.
 *
 * An open-addressing set of pointers that lookups read without a lock:
 * a removed entry becomes a tombstone (entries never move, so a lookup
 * racing with a destroy never misses a live team), and growing publishes
 * a new table with one pointer store.  Old tables stay reachable from the
 * new one and are never freed (a lookup may still be reading one). */
#include <pthread.h>
#include <stdlib.h>
#include <shmemx.h>

#include "api.h"

#define TOMBSTONE ((struct shoal_team *)1)

struct handle_set {
    size_t mask;                      /* slots - 1, slots a power of two */
    size_t used;                      /* live entries and tombstones */
    const struct handle_set *older;   /* the table this one replaced */
    struct shoal_team *slot[];
};
static struct handle_set *current;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t home(const struct handle_set *s, const struct shoal_team *t)
{
    uintptr_t h = (uintptr_t)t >> 4;
    return (h ^ (h >> 12)) * 0x9E3779B97F4A7C15ull >> 7 & s->mask;
}

static bool contains(const struct handle_set *s, const struct shoal_team *t)
{
    if (!s)
        return false;
    for (size_t i = home(s, t);; i = (i + 1) & s->mask) {
        struct shoal_team *e = __atomic_load_n(&s->slot[i], __ATOMIC_ACQUIRE);
        if (e == t)
            return true;
        if (!e)
            return false;
    }
}

/* Under set_lock: a table of `slots` slots holding the live entries of s. */
static struct handle_set *rebuilt(const char *routine, const struct handle_set *s, size_t slots)
{
    struct handle_set *n = calloc(1, sizeof *n + slots * sizeof n->slot[0]);
    if (!n)
        shoal_fatal(routine, "out of memory for the set of team handles");
    n->mask = slots - 1;
    n->older = s;
    for (size_t i = 0; s && i <= s->mask; i++) {
        struct shoal_team *e = s->slot[i];
        if (e && e != TOMBSTONE) {
            size_t j = home(n, e);
            while (n->slot[j])
                j = (j + 1) & n->mask;
            n->slot[j] = e;
            n->used++;
        }
    }
    return n;
}

void shoal_api_team_add(const char *routine, struct shoal_team *t)
{
    pthread_mutex_lock(&set_lock);
    struct handle_set *s = current;
    if (!s || (s->used + 1) * 2 > s->mask + 1) {
        s = rebuilt(routine, s, s ? (s->mask + 1) * 2 : 64);
        __atomic_store_n(&current, s, __ATOMIC_RELEASE);
    }
    size_t i = home(s, t);
    while (s->slot[i] && s->slot[i] != TOMBSTONE)
        i = (i + 1) & s->mask;
    if (!s->slot[i])
        s->used++;
    __atomic_store_n(&s->slot[i], t, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&set_lock);
}

void shoal_api_team_drop(struct shoal_team *t)
{
    pthread_mutex_lock(&set_lock);
    struct handle_set *s = current;
    for (size_t i = s ? home(s, t) : 0; s && s->slot[i]; i = (i + 1) & s->mask)
        if (s->slot[i] == t) {
            __atomic_store_n(&s->slot[i], TOMBSTONE, __ATOMIC_RELEASE);
            break;
        }
    pthread_mutex_unlock(&set_lock);
}

/* The last finalize freed every team: no handle from before stays valid. */
void shoal_api_teams_forget(void)
{
    pthread_mutex_lock(&set_lock);
    if (current) {
        struct handle_set *empty = rebuilt("shmem_finalize", NULL, current->mask + 1);
        empty->older = current;   /* still reachable: a lookup may be reading it */
        __atomic_store_n(&current, empty, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&set_lock);
}

static bool predefined(const struct shoal_team *t)
{
    return t == &shoal_team_world || t == &shoal_team_shared || t == &shoal_team_host ||
           t == shoal_team_leaders_handle;
}

struct shoal_team *shoal_api_team(const char *routine, shmem_team_t team)
{
    struct shoal_team *t = shoal_team_of(team);
    if (SHOAL_LIKELY(t == SHMEM_TEAM_INVALID || predefined(t) ||
                     contains(__atomic_load_n(&current, __ATOMIC_ACQUIRE), t)))
        return t;
    shoal_require_init(routine);
    shoal_fatal(routine, "team handle %p is not a live team (destroyed, from before the last "
                "shmem_finalize, or never set by a split): pass a team from a successful split that is "
                "not yet destroyed, a predefined team, or SHMEM_TEAM_INVALID", (void *)t);
}
