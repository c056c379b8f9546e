/* Barrier for teams whose members all share memory: one arrival counter and
 * one generation word on the team's first PE.  The last to arrive resets the
 * counter and bumps the generation; the others wait for the bump (waking
 * through the doorbell, so oversubscribed PEs sleep).  Nothing depends on
 * values left by an earlier team that used the same pSync slot. */
#include <sched.h>

#include "coll_internal.h"

/* With more PEs than cores, the released PEs that hold the cores let one
 * member leave first (a few yields at most, while it has not): what
 * follows a barrier most often waits for it (a broadcast from it, data it
 * writes), and the PEs left running would otherwise wait for it there, a
 * context switch later.  Which member is a guess (coll_team_barrier_lead):
 * the root of the broadcast that followed the team's previous barrier;
 * nobody after other calls or in a loop of barriers, where the yields are
 * context switches inside the next call.  4 PEs on 2 cores, 6 alternating runs, when
 * member 0 always led: broadcast 8 B from member 0 2.2 -> 0.12 us (Open
 * MPI, whose barrier releases from rank 0: 0.48), the barrier 2.7 -> 4.2
 * (6.1), sum-reduce 1 long 3.1 -> 4.4 (5.3).  A raw counter barrier with
 * plain loads and stores, timed the benchmark's way, shows the same trade
 * (4 runs each: barrier 2.2-3.1 us without the yields, 3.2-4.5 with them;
 * broadcast 1.1-1.6 against 0.05-0.15).  A hint only: a stale value from
 * an earlier team in this slot costs at most the yields. */
enum { FIRST_YIELDS = 4 };

static void let_first_leave(const struct shoal_team *t, struct shoal_psync *r, uint64_t gen, int lead)
{
    if (!shoal.oversubscribed || lead < 0)
        return;
    if (t->my_pe == lead) {
        __atomic_store_n(&r->first_left, gen + 1, __ATOMIC_RELEASE);
        return;
    }
    for (int i = 0; i < FIRST_YIELDS && __atomic_load_n(&r->first_left, __ATOMIC_ACQUIRE) != gen + 1; i++)
        sched_yield();
}

void shoal_barrier_shm(struct shoal_team *t)
{
    int n = t->n_pes;
    struct shoal_psync *r = shoal_ptr(coll_psync(t, 0), shoal_team_pe(t, 0));
    int lead = coll_team_barrier_lead(t);
    t->barrier_epoch++;
    uint64_t gen = __atomic_load_n(&r->release, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&r->arrive, 1, __ATOMIC_ACQ_REL) == (uint64_t)n) {
        __atomic_store_n(&r->arrive, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&r->release, gen + 1, __ATOMIC_RELEASE);
        for (int i = 0; i < n; i++)
            if (i != t->my_pe)
                shoal_notify(shoal_team_pe(t, i));
        let_first_leave(t, r, gen, lead);
        return;
    }
    SHOAL_WAIT_WHILE_LOCAL(__atomic_load_n(&r->release, __ATOMIC_ACQUIRE) == gen);
    let_first_leave(t, r, gen, lead);
}
