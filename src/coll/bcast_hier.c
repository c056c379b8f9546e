/* Hierarchical broadcast for teams that span hosts.  Each host has one
 * representative: the root on the root's host (so a root that is not its
 * host's leader costs no extra hop), the leader elsewhere.  Members tell
 * their representative they have arrived (shared memory); the
 * representatives broadcast among themselves over the network with the
 * algorithm the selection picks for them (binomial once there are a few
 * hosts); each then copies the data into its host members' dests.
 * A representative waits for its host before the network phase, so when
 * any member leaves, every member of every host has entered (the rule of
 * coll_internal.h), whatever the placement of hosts in the team. */
#include <stdlib.h>

#include "hier_host.h"

enum { L_ARRIVE = 0, L_DATA = 1 };   /* host lines */

/* Index of team member m among its host's members. */
static int index_on_host(const struct coll_hosts *h, int m)
{
    int k = 0;
    for (int i = 0; i < m; i++)
        k += h->member_host[i] == h->member_host[m];
    return k;
}

void bcast_hier(struct shoal_team *t, const struct coll_call *c, void *dest, const void *src, size_t n, int root)
{
    const struct coll_hosts *h = coll_team_hosts(t);
    int root_host = h->member_host[root], my_host = h->member_host[t->my_pe];
    int rep = my_host == root_host ? index_on_host(h, root) : 0;
    struct coll_call host = coll_team_phase(t, BANK_HOST, h->host_pes, h->n_host, h->my_host_idx);
    if (h->my_host_idx != rep) {
        host_signal(&host, rep, L_ARRIVE);
        host_await(&host, L_DATA, 1);
        return;
    }
    host_await(&host, L_ARRIVE, h->n_host - 1);
    int *reps = (int *)cc_tmp((size_t)h->n_hosts * sizeof(int), 4);   /* 0-3: the network phase */
    memcpy(reps, h->leader_pes, h->n_hosts * sizeof(int));
    reps[root_host] = shoal_team_pe(t, root);
    struct coll_call leaders = coll_team_phase(t, BANK_LEADERS, reps, h->n_hosts, my_host);
    leaders.synced = c->synced;   /* a barrier before the call: every member has left the ones before */
    coll_bcast_run(&leaders, dest, src, n, root_host, true);
    for (int i = 0; i < h->n_host; i++)
        if (i != rep)
            host_put_signal(&host, i, dest, dest, n, L_DATA);
}
