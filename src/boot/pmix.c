/* Bootstrap through PMIx: Slurm (srun --mpi=pmix), PRRTE (prterun) and Open
 * MPI's mpirun all run a PMIx server next to the PEs and tell them where it
 * is in the environment.
 *
 * Fences are started non-blocking and waited for while driving Shoal's
 * progress hooks: once the network transport is up, a PE sitting in a boot
 * barrier must still serve the one-sided operations of the others (with a
 * manual-progress provider nobody else would). */
#include <pmix.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "../core/shoal.h"

static pmix_proc_t me;
static int n_ranks;
static bool up;
/* PMIx was already up when shmem_init came (MPI_Init came first, in an MPI +
 * OpenSHMEM program): its owner decides when it ends.  Open MPI's
 * MPI_Finalize must be the last PMIx_Finalize of the process; when a
 * reference of ours outlives it, PMIx keeps delivering events to handlers
 * Open MPI has already unloaded (an occasional crash inside MPI_Finalize). */
static bool borrowed;
static unsigned gather_seq;   /* each allgather publishes under a fresh key */

static int pmix_detect(void)
{
    return getenv("PMIX_RANK") != NULL && (getenv("PMIX_NAMESPACE") || getenv("PMIX_SERVER_URI41") ||
                                           getenv("PMIX_SERVER_URI4") || getenv("PMIX_SERVER_URI3") ||
                                           getenv("PMIX_SERVER_URI21") || getenv("PMIX_SERVER_URI2"));
}

static int job_size(void)
{
    pmix_proc_t job;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &v) != PMIX_SUCCESS || !v)
        return -1;
    int n = v->type == PMIX_UINT32 ? (int)v->data.uint32 : v->type == PMIX_INT ? v->data.integer : -1;
    PMIX_VALUE_RELEASE(v);
    return n;
}

/* PMIx stays initialized until the process exits: OpenSHMEM 1.6 allows
 * shmem_init after shmem_finalize, and a PMIx client cannot reliably
 * reconnect once finalized. */
static void finalize_at_exit(void)
{
    if (up)
        PMIx_Finalize(NULL, 0);
    up = false;
}

/* The owner finalized PMIx (MPI_Finalize came before shmem_finalize). */
static bool owner_gone(void)
{
    return borrowed && !PMIx_Initialized();
}

static int pmix_init(int *rank, int *size)
{
    if (up && owner_gone()) {
        fprintf(stderr, "Shoal error: shmem_init: MPI_Finalize has ended this process's PMIx connection; "
                        "call shmem_init before MPI_Finalize\n");
        return -1;
    }
    if (!up) {
        borrowed = PMIx_Initialized();
        pmix_status_t rc = PMIx_Init(&me, NULL, 0);   /* borrowed: only to learn who we are */
        if (rc != PMIX_SUCCESS) {
            fprintf(stderr, "Shoal error: shmem_init: PMIx_Init failed (%s); the launcher set PMIX_RANK but "
                            "its PMIx server cannot be reached\n", PMIx_Error_string(rc));
            return -1;
        }
        if (borrowed)
            PMIx_Finalize(NULL, 0);   /* gives that reference back at once: the count stays the owner's */
        n_ranks = job_size();
        if (n_ranks <= 0) {
            fprintf(stderr, "Shoal error: shmem_init: the PMIx server did not say the job size "
                            "(%s)\n", PMIX_JOB_SIZE);
            return -1;
        }
        up = true;
        if (!borrowed)
            atexit(finalize_at_exit);
    }
    *rank = (int)me.rank;
    *size = n_ranks;
    return 0;
}

struct fence_wait {
    volatile int done;
    pmix_status_t status;
};

static void fence_done(pmix_status_t status, void *arg)
{
    struct fence_wait *w = arg;
    w->status = status;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

/* Wait for the launcher while serving network requests of the other PEs. */
static void fence(bool collect)
{
    pmix_info_t info;
    pmix_proc_t all;
    bool yes = true;
    struct fence_wait w = {0, PMIX_SUCCESS};
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, collect ? &info : NULL, collect ? 1 : 0, fence_done, &w);
    if (rc != PMIX_SUCCESS)
        shoal_fatal("shmem_init", "PMIx_Fence failed: %s (did another PE die?)", PMIx_Error_string(rc));
    for (unsigned spins = 0; !__atomic_load_n(&w.done, __ATOMIC_ACQUIRE); spins++) {
        shoal_poll();
        if (spins < 100) {
            sched_yield();
        } else {
            struct timespec t = {0, 20000};
            nanosleep(&t, NULL);
        }
    }
    PMIX_INFO_DESTRUCT(&info);
    if (w.status != PMIX_SUCCESS)
        shoal_fatal("shmem_init", "PMIx fence failed: %s (did another PE die?)", PMIx_Error_string(w.status));
}

/* Without PMIx the barriers still asked for are shmem_finalize's, which has
 * already synchronized every PE over Shoal's own transports (a team barrier
 * after quiet), so going on is safe. */
/* After the owner's PMIx_Finalize a no-op: shmem_finalize synchronizes over
 * Shoal's own transports first (api/lifecycle.c, last_synchronization). */
static void pmix_barrier(void)
{
    if (!owner_gone())
        fence(false);
}

static void pmix_allgather(const void *in, void *out, size_t len)
{
    char key[64];
    pmix_value_t val;
    snprintf(key, sizeof key, "shoal.ag.%u", gather_seq++);
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)in;
    val.data.bo.size = len;
    if (PMIx_Put(PMIX_GLOBAL, key, &val) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS)
        shoal_fatal("shmem_init", "PMIx_Put/PMIx_Commit of %zu bytes failed", len);
    fence(true);
    for (int r = 0; r < n_ranks; r++) {
        pmix_proc_t p;
        pmix_value_t *v = NULL;
        PMIX_LOAD_PROCID(&p, me.nspace, (pmix_rank_t)r);
        pmix_status_t rc = PMIx_Get(&p, key, NULL, 0, &v);
        if (rc != PMIX_SUCCESS || !v || v->type != PMIX_BYTE_OBJECT || v->data.bo.size != len)
            shoal_fatal("shmem_init", "PMIx_Get of PE %d's %s failed (%s)", r, key, PMIx_Error_string(rc));
        memcpy((char *)out + (size_t)r * len, v->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(v);
    }
}

static _Noreturn void pmix_abort(int status)
{
    if (up && !owner_gone()) {
        char msg[96];
        snprintf(msg, sizeof msg, "Shoal: PE %d ended the job with status %d", (int)me.rank, status);
        PMIx_Abort(status, msg, NULL, 0);   /* the launcher kills the other PEs */
    }
    _exit(status);
}

static void pmix_fini(void)
{
}

const struct shoal_boot shoal_boot_pmix = {
    "pmix", pmix_detect, pmix_init, pmix_allgather, pmix_barrier, pmix_abort, pmix_fini,
};
