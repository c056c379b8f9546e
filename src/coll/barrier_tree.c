/* Tree barrier: arrivals are counted up a 4-ary tree rooted at member 0,
 * the release comes back down it.  2 log4 P steps, but each PE handles at
 * most five messages, where dissemination sends log2 P; the better choice
 * for very large teams over the network. */
#include "coll_internal.h"

enum { ARITY = 4, F_UP = 0, F_DOWN = 1 };
enum { TREE_WORD = SHOAL_PSYNC_ROUNDS - 2 };   /* away from the dissemination rounds */

void barrier_tree_call(const struct coll_call *c)
{
    int first_child = c->me * ARITY + 1, kids = 0;
    for (int k = first_child; k < first_child + ARITY && k < c->n; k++)
        kids++;
    cc_await(c, F_UP, kids);
    if (c->me > 0) {
        cc_signal(c, (c->me - 1) / ARITY, F_UP);
        cc_await(c, F_DOWN, 1);
    }
    for (int k = 0; k < kids; k++)
        cc_signal(c, first_child + k, F_DOWN);
}

void shoal_barrier_tree(struct shoal_team *t)
{
    struct coll_area *a = (struct coll_area *)coll_psync(t, 0)->coll;
    struct coll_call c = {
        .n = t->n_pes, .me = t->my_pe, .start = t->start, .stride = t->stride, .members = t->members,
        .flag = &coll_psync(t, 0)->barrier[TREE_WORD], .seen = &a->barrier_seen[TREE_WORD],
    };
    t->barrier_epoch++;
    barrier_tree_call(&c);
}
