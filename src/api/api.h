/* What every API file includes: the core, the internal team/context view
 * of the public handles, and SHOAL_API, which defines a routine once as
 * pshmem_NAME and makes shmem_NAME a weak alias of it (the profiling
 * interface: a tool may define shmem_NAME and call pshmem_NAME). */
#ifndef SHOAL_API_H
#define SHOAL_API_H

#include <shmem.h>

#include "../core/shoal.h"
#include "../team/team.h"
#include "../prof/prof.h"

#define SHOAL_API(ret, name, params)                                                      \
    SHOAL_EXPORT ret p##name params;                                                      \
    extern __typeof__(p##name) name __attribute__((weak, alias("p" #name), visibility("default"))); \
    ret p##name params

/* Setup and teardown of every layer (lifecycle.c). */
int shoal_init(int requested, int *provided);   /* 0 on success */
void shoal_finalize(void);
_Noreturn void shoal_global_exit(int status);

/* Public handles are pointers to the internal objects. */
SHOAL_INLINE struct shoal_ctx *shoal_ctx_of(shmem_ctx_t ctx) { return (struct shoal_ctx *)ctx; }
SHOAL_INLINE struct shoal_team *shoal_team_of(shmem_team_t team) { return (struct shoal_team *)team; }

/* The set of team handles the user may pass (team_handles.c).  shoal_api_team
 * returns the team of a handle, NULL for SHMEM_TEAM_INVALID, and takes the
 * job down with a message naming routine for any other handle that is not a
 * live team (destroyed, or garbage). */
struct shoal_team *shoal_api_team(const char *routine, shmem_team_t team);
void shoal_api_team_add(const char *routine, struct shoal_team *t);   /* a split returned it */
void shoal_api_team_drop(struct shoal_team *t);                       /* destroyed */
void shoal_api_teams_forget(void);                                    /* the last finalize */

/* SHOAL_AS_USER_CALL(routine, call): call, with routine named as the user's
 * call in any error raised inside it (the outermost name wins). */
SHOAL_INLINE const char *shoal_api_enter(const char *routine)
{
    const char *outer = shoal_user_routine;
    if (!outer)
        shoal_user_routine = routine;
    return outer;
}
SHOAL_INLINE void shoal_api_leave(const char *outer) { shoal_user_routine = outer; }
#define SHOAL_AS_USER_CALL(routine, call)                                                          \
    __extension__({                                                                                \
        const char *shoal_outer_ = shoal_api_enter(routine);                                       \
        __typeof__(call) shoal_rc_ = (call);                                                       \
        shoal_api_leave(shoal_outer_);                                                             \
        shoal_rc_;                                                                                 \
    })

/* The team a team-based call runs on, or NULL (the call then returns
 * nonzero, with a SHMEM_DEBUG warning) when it is SHMEM_TEAM_INVALID or this
 * PE is not a member. */
struct shoal_team *shoal_api_member_team(const char *routine, shmem_team_t team);

/* Under SHMEM_DEBUG: the size-byte word at addr of world PE pe is symmetric
 * and naturally aligned (CPU and NIC atomics need both). */
void shoal_api_check_amo(const char *routine, const void *addr, size_t size, int pe);

/* World PE of PE number pe of a context (whose PE numbers are relative to its team). */
SHOAL_INLINE int shoal_ctx_pe(struct shoal_ctx *c, int pe)
{
    struct shoal_team *t = c->team;
    return t == &shoal_team_world ? pe : shoal_team_pe(t, pe);
}

#endif
