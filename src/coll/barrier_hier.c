/* Hierarchical barrier for teams that span hosts: every member tells its
 * host's leader it has arrived (shared memory), the leaders run a
 * dissemination barrier among themselves (ceil(log2 hosts) network rounds
 * instead of ceil(log2 P)), then each leader releases its host.  Only
 * leaders touch the network, once per round.  A team call like the other
 * collectives (the next of the team's pSync slots), so the usual rules hold:
 * every signal is awaited within the call, and nobody leaves before every
 * member has arrived. */
#include "hier_host.h"

enum { L_ARRIVE = 0, L_RELEASE = 1 };   /* host lines */

void barrier_hier(struct shoal_team *t)
{
    const struct coll_hosts *h = coll_team_hosts(t);
    coll_team_call(t, BANK_CALL);   /* takes the slot; the phases below use its banks */
    t->barrier_epoch++;
    struct coll_call host = coll_team_phase(t, BANK_HOST, h->host_pes, h->n_host, h->my_host_idx);
    if (h->my_leader_idx < 0) {
        host_signal(&host, 0, L_ARRIVE);
        host_await(&host, L_RELEASE, 1);
        return;
    }
    host_await(&host, L_ARRIVE, h->n_host - 1);
    struct coll_call leaders = coll_team_phase(t, BANK_LEADERS, h->leader_pes, h->n_hosts, h->my_leader_idx);
    cc_barrier(&leaders, 0);
    for (int i = 1; i < h->n_host; i++)
        host_signal(&host, i, L_RELEASE);
}
