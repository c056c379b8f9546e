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

/* Public handles are pointers to the internal objects. */
SHOAL_INLINE struct shoal_ctx *shoal_ctx_of(shmem_ctx_t ctx) { return (struct shoal_ctx *)ctx; }
SHOAL_INLINE struct shoal_team *shoal_team_of(shmem_team_t team) { return (struct shoal_team *)team; }

/* The team a team-based call runs on, or NULL (the call then returns
 * nonzero, with a SHMEM_DEBUG warning) when it is SHMEM_TEAM_INVALID or this
 * PE is not a member. */
struct shoal_team *shoal_api_member_team(const char *routine, shmem_team_t team);

/* World PE of PE number pe of a context (whose PE numbers are relative to its team). */
SHOAL_INLINE int shoal_ctx_pe(struct shoal_ctx *c, int pe)
{
    struct shoal_team *t = c->team;
    return t == &shoal_team_world ? pe : shoal_team_pe(t, pe);
}

#endif
