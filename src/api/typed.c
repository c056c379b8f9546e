/* The out-of-line half of typed.h: reporting a bad context or PE. */
#include "typed.h"

void shoal_api_bad_ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    shoal_require_init(routine);
    if (!ctx)
        shoal_fatal(routine, "the context is SHMEM_CTX_INVALID (did shmem_ctx_create fail?)");
    struct shoal_team *t = shoal_ctx_of(ctx)->team;
    shoal_fatal(routine, "PE %d is out of range: the context's team has PEs 0..%d", pe, t->n_pes - 1);
}
