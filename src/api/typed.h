/* What the typed API files share: the rows of core/types.def by family,
 * the pairing of each routine with its shmem_ctx_ form, and the context/PE
 * translation every one-sided routine does.
 *
 * A typed routine family is written once, as a macro of (C type, TYPENAME),
 * and instantiated for the rows of types.def that belong to its family:
 *
 *     #define DEFINE_ADD(T, N) ...
 *     SHOAL_FOR_AMO(DEFINE_ADD)
 *
 * SHOAL_FOR_<FAMILY> lists are generated from the table at build time
 * (src/api/gen/gen_headers.py --families); tests use the same lists. */
#ifndef SHOAL_API_TYPED_H
#define SHOAL_API_TYPED_H

#include <shoal_type_families.h>

#include "api.h"

/* The transfer sizes of the sized routines (put8 ... put128), in bits. */
#define SHOAL_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* ---- context pairs ----
 * SHOAL_API_CTX(ret, NAME, (params), { body }) defines shmem_ctx_NAME with
 * a leading shmem_ctx_t ctx, and shmem_NAME running the same body on the
 * default context.  Both call shared inline workers, so neither form costs
 * a call more than the other. */
#define SHOAL_ARGS(...) __VA_ARGS__
#define SHOAL_API_CTX(ret, name, params, body)                                                    \
    SHOAL_API(ret, shmem_ctx_##name, (shmem_ctx_t ctx, SHOAL_ARGS params)) body                     \
    SHOAL_API(ret, shmem_##name, params)                                                           \
    {                                                                                              \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                       \
        body                                                                                       \
    }

/* The user-facing name of the routine being defined, for error messages:
 * every entry point is defined as pshmem_NAME (see SHOAL_API). */
#define SHOAL_ROUTINE (__func__ + 1)

/* The world PE that PE pe of ctx's team is.  Always rejects
 * SHMEM_CTX_INVALID and PE numbers outside the context's team (a compare
 * and a branch that is never taken: no measurable cost on a put, see
 * DESIGN.md "Argument checks"), since either would fault far from the call. */
_Noreturn void shoal_api_bad_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe);
SHOAL_INLINE int shoal_api_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    struct shoal_ctx *c = shoal_ctx_of(ctx);
    if (SHOAL_UNLIKELY(!c || (unsigned)pe >= (unsigned)c->team->n_pes))
        shoal_api_bad_ctx_pe(routine, ctx, pe);
    return shoal_ctx_pe(c, pe);
}

#endif
