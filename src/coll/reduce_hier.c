/* Hierarchical reduction for teams that span hosts (000 §V-B, §VI): reduce
 * among the members of each host over shared memory, then among one leader
 * per host, then each leader writes the result into its host members'
 * dests.  Only the leaders cross the network, once each way per step.
 * Each phase has its own flag bank and scratch half in the call's pSync
 * slot, and picks its own algorithm for its group. */
#include "coll_internal.h"

enum { F_HOST_DONE = 59, F_RESULT = 60 };   /* above every flat algorithm's flags */


void reduce_hier(struct shoal_team *t, const struct coll_reduce *r)
{
    const struct coll_hosts *h = coll_team_hosts(t);
    struct coll_call host = coll_team_phase(t, BANK_HOST, h->host_pes, h->n_host, h->my_host_idx);
    coll_reduce_run(&host, r);
    if (h->my_leader_idx < 0) {
        /* My dest may still have been in use after my host's leader left
         * phase 1 (a member's last step can trail its partner's): the leader
         * writes the result only after this. */
        cc_signal(&host, 0, F_HOST_DONE);
        cc_await(&host, F_RESULT, 1);
        return;
    }
    struct coll_call leaders = coll_team_phase(t, BANK_LEADERS, h->leader_pes, h->n_hosts, h->my_leader_idx);
    struct coll_reduce again = *r;
    again.src = r->dest;
    coll_reduce_run(&leaders, &again);
    size_t bytes = r->count * r->elem;
    cc_await(&host, F_HOST_DONE, h->n_host - 1);
    for (int i = 1; i < h->n_host; i++)
        cc_put_signal(&host, i, r->dest, r->dest, bytes, F_RESULT);
}
