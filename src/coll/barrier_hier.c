/* Hierarchical barrier for teams that span hosts: every member tells its
 * host's leader it has arrived (shared memory), the leaders run a
 * dissemination barrier among themselves (ceil(log2 hosts) network rounds
 * instead of ceil(log2 P)), then each leader releases its host.  Only
 * leaders touch the network, once per round.
 *
 * Like the other barriers it uses the team's barrier words, never a
 * collective's pSync slot, so a barrier still tells the collectives that
 * every member has left their previous call (coll_team_synced).  Its words,
 * all in the team's first pSync slot and keyed by the team's barrier epoch
 * (the same count on every member):
 *   arrive   on each leader: arrivals of its host, cumulative (epoch x the
 *            host's other members once all have arrived);
 *   release  on each member: the last epoch its leader released;
 *   barrier[TOP - k]  on each leader: the epoch of dissemination round k,
 *            counted down from below the tree barrier's words, so that the
 *            whole-team dissemination that ends a team's life (words from 0
 *            up, other partners) never shares a word with it: a late write
 *            of an older epoch from another partner would hide a newer one.
 * A team always runs the same barrier algorithm (the choice depends only on
 * the team and the environment), so no other barrier reads these words
 * with another meaning; the team layer zeroes them when the slot is freed.
 * On shared memory they change only by CPU atomics (a flag AMO in a job
 * that spans hosts would go through the NIC); without load/store
 * (SHOAL_COLL_NO_LOADSTORE) by AMOs and puts. */
#include "coll_internal.h"

enum { TOP = SHOAL_PSYNC_ROUNDS - 3 };   /* words TOP+1.. belong to barrier_tree.c */

static void arrive(const struct coll_hosts *h, struct shoal_psync *ps, bool shm)
{
    static const uint64_t one = 1;
    int leader = h->host_pes[0];
    if (shm) {
        __atomic_fetch_add(&((struct shoal_psync *)shoal_ptr(ps, leader))->arrive, 1, __ATOMIC_RELEASE);
        shoal_notify(leader);
    } else {
        shoal_amo(COLL_CTX, SHOAL_AMO_ADD, 8, &ps->arrive, NULL, &one, NULL, leader, false);
    }
}

static void release(const struct coll_hosts *h, struct shoal_psync *ps, bool shm, uint64_t epoch)
{
    for (int i = 1; i < h->n_host; i++) {
        int pe = h->host_pes[i];
        if (shm) {
            __atomic_store_n(&((struct shoal_psync *)shoal_ptr(ps, pe))->release, epoch, __ATOMIC_RELEASE);
            shoal_notify(pe);
        } else {
            shoal_amo(COLL_CTX, SHOAL_AMO_SET, 8, &ps->release, NULL, &epoch, NULL, pe, false);
        }
    }
}

static void leaders_dissem(const struct coll_hosts *h, struct shoal_psync *ps, uint64_t epoch)
{
    int n = h->n_hosts, me = h->my_leader_idx;
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        uint64_t *word = &ps->barrier[TOP - k];
        shoal_amo(COLL_CTX, SHOAL_AMO_SET, 8, word, NULL, &epoch, NULL, h->leader_pes[(me + d) % n], false);
        SHOAL_WAIT_WHILE(__atomic_load_n(word, __ATOMIC_ACQUIRE) < epoch);
    }
}

static bool host_shares_memory(const struct coll_hosts *h)
{
    if (coll_no_loadstore)
        return false;
    for (int i = 0; i < h->n_host; i++)
        if (!shoal.peers[h->host_pes[i]].base[SHOAL_SEG_HEAP])
            return false;
    return true;
}

void barrier_hier(struct shoal_team *t)
{
    const struct coll_hosts *h = coll_team_hosts(t);
    struct shoal_psync *ps = coll_psync(t, 0);
    uint64_t epoch = ++t->barrier_epoch;
    bool shm = host_shares_memory(h);
    if (h->my_leader_idx < 0) {
        arrive(h, ps, shm);
        SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&ps->release, __ATOMIC_ACQUIRE) < epoch);
        return;
    }
    uint64_t all = epoch * (uint64_t)(h->n_host - 1);
    SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&ps->arrive, __ATOMIC_ACQUIRE) < all);
    leaders_dissem(h, ps, epoch);
    release(h, ps, shm, epoch);
}
