/* Dissemination barrier: in round k each member signals member (i + 2^k)
 * and waits for member (i - 2^k); ceil(log2 P) rounds for any P, every
 * member busy in every round.  Signals count (see coll_internal.h), so a
 * fast PE may already signal the next barrier while others leave this one. */
#include "coll_internal.h"

void shoal_barrier_dissem(struct shoal_team *t)
{
    struct coll_area *a = (struct coll_area *)t->psync[0].coll;
    struct coll_call c = {
        .n = t->n_pes, .me = t->my_pe, .start = t->start, .stride = t->stride, .members = t->members,
        .flag = t->psync[0].barrier, .seen = a->barrier_seen,
    };
    t->barrier_epoch++;
    cc_barrier(&c, 0);
}
