/* Bruck-style reduction (004 §5.1.3): in step k each member sends its
 * partial result to the member 2^k to its left (mod the power of two) and
 * reduces what arrives from 2^k to its right; after log2 P steps each holds
 * the reduction of all.  Same cost as recursive doubling, but each member
 * talks to two different members per step.  Non-power-of-two teams fold as
 * in recursive doubling; scratch regions and chunking as there. */
#include "coll_internal.h"

void reduce_bruck(const struct coll_call *c, const struct coll_reduce *r)
{
    reduce_pairwise_chunked(c, r, true);
}
