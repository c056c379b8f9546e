/* shmem_init and shmem_finalize put the layers together, bottom up and top
 * down: the base (launcher, symmetric memory, peers), teams (pool sized
 * from the configuration, predefined teams), collectives (algorithm names
 * checked), profiling; and back. */
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "../coll/coll.h"
#include "../coll/tuning.h"
#include "../prof/prof.h"
#include "../team/team.h"

static void finalize_step(bool at_exit);

/* One rule for every program (start_pes ones, and shmem_init ones that
 * return from main, or call exit(0), without shmem_finalize, or init more
 * often than they finalize): the init references left at exit are
 * finalized here.  That is collective, so each step first waits, bounded,
 * for every PE to reach finalize (shoal_await_finalizers).  A failing exit
 * (status != 0) skips it: the launcher ends the job, and PEs may be waiting
 * for this one in a collective it will never join. */
static void finalize_at_exit(int status, void *unused)
{
    (void)unused;
    if (shoal.init_count == 0 || status != 0)
        return;
    if (SHOAL_DEBUG_ON)
        shoal_warn("exit", "shmem_finalize was not called for %d shmem_init%s; finalizing implicitly "
                   "(call shmem_finalize before returning from main)", shoal.init_count,
                   shoal.init_count == 1 ? "" : "s");
    while (shoal.init_count > 0)
        finalize_step(true);
}

static void world_barrier(void)
{
    shoal_team_barrier(&shoal_team_world);
}

int shoal_init(int requested, int *provided)
{
    if (shoal.init_count++ > 0)
        goto done;
    if (shoal_core_boot(requested) != 0) {
        shoal.init_count = 0;
        return -1;
    }
    /* a bad tuning rule stops init before any PE waits for another */
    shoal_core_attach(shoal_teams_internal_bytes(), shoal_tuning_load(), shoal_tuning_agree);
    shoal_teams_init();
    shoal_coll_init();   /* validates SHMEM_*_ALGORITHM now, not at the first collective */
    shoal_prof_init(world_barrier);   /* SHOAL_PROFILE / SHOAL_TRACE: collective (aligns the trace clocks) */
    static bool at_exit_registered;
    if (!at_exit_registered && on_exit(finalize_at_exit, NULL) == 0)
        at_exit_registered = true;
    shoal_core_ready();
    if (shoal.my_pe == 0 && shoal_cfg.info)
        shoal_tuning_print(stdout);
done:
    if (provided)
        *provided = shoal.thread_level;
    return 0;
}

void shoal_finalize(void)
{
    finalize_step(false);
}

/* Every PE's network traffic has reached its target when this returns.
 * A world barrier over Shoal's own transports: while in it a PE still
 * answers the flushes of peers finishing their quiet (the launcher's
 * barrier may not poll, and MPI_Finalize may have taken it), and its own
 * messages are consumed by their targets inside it.  Then the launcher's
 * barrier (a no-op once MPI_Finalize has taken it): nobody closes an
 * endpoint while a peer still waits in the team barrier for a message. */
static void last_synchronization(void)
{
    shoal_team_barrier(&shoal_team_world);
    shoal_core_barrier();
}

static void finalize_step(bool at_exit)
{
    if (shoal.init_count == 0)
        return;
    shoal_quiet(&shoal_ctx_default);
    uint64_t arrival = __atomic_add_fetch(&shoal.my_ctl->finalizing, 1, __ATOMIC_RELEASE);
    if (at_exit)
        shoal_await_finalizers(arrival);
    shoal_team_barrier(&shoal_team_world);
    if (--shoal.init_count > 0)
        return;
    shoal_prof_finalize();   /* every way to finalize (explicit, at exit) writes the profile */
    shoal_core_quiet_all();   /* peers answer: none has passed the synchronization below */
    last_synchronization();
    shoal_coll_fini();
    shoal_teams_fini();
    shoal_core_fini();
}

void shoal_global_exit(int status)
{
    shoal_prof_exit();
    shoal_core_abort(status);
}
