/* shmemx_pcntr_*: Sandia OpenSHMEM's communication counters, read from the
 * profile's counts (prof/), so a tool and SHOAL_PROFILE agree.  Counting is
 * on with SHOAL_COUNTERS, SHOAL_PROFILE or SHOAL_TRACE; otherwise every
 * counter reads 0.  The counts are per PE, whatever the context. */
#include <shmemx.h>

#include "api.h"

struct io {
    uint64_t write, read;
};

static struct io as_io(const struct shoal_prof_totals *t)
{
    return (struct io){t->put + t->amo + t->signal, t->get};
}

static struct io issued(void)
{
    struct shoal_prof_totals t;
    shoal_prof_totals(&t);
    return as_io(&t);
}

static struct io completed(void)
{
    struct shoal_prof_totals t;
    shoal_prof_completed(&t);
    return as_io(&t);
}

SHOAL_API(void, shmemx_pcntr_get_issued_write, (shmem_ctx_t ctx, uint64_t *cntr_value))
{
    *cntr_value = issued().write;
}

SHOAL_API(void, shmemx_pcntr_get_issued_read, (shmem_ctx_t ctx, uint64_t *cntr_value))
{
    *cntr_value = issued().read;
}

SHOAL_API(void, shmemx_pcntr_get_completed_write, (shmem_ctx_t ctx, uint64_t *cntr_value))
{
    *cntr_value = completed().write;
}

SHOAL_API(void, shmemx_pcntr_get_completed_read, (shmem_ctx_t ctx, uint64_t *cntr_value))
{
    *cntr_value = completed().read;
}

SHOAL_API(void, shmemx_pcntr_get_completed_target, (uint64_t *cntr_value))
{
    *cntr_value = 0;   /* operations on this PE by others: not counted (shmemx.h) */
}

SHOAL_API(void, shmemx_pcntr_get_all, (shmem_ctx_t ctx, shmemx_pcntr_t *pcntr))
{
    struct io i = issued(), c = completed();
    *pcntr = (shmemx_pcntr_t){.pending_put = i.write - c.write, .pending_get = i.read - c.read,
                              .completed_put = c.write, .completed_get = c.read, .target = 0};
}
