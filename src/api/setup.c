/* Library setup, exit and query routines. */
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api.h"

SHOAL_API(void, shmem_init, (void))
{
    if (shoal_init(SHMEM_THREAD_SINGLE, NULL) != 0)
        exit(1);   /* shoal_init said why */
}

SHOAL_API(int, shmem_init_thread, (int requested, int *provided))
{
    if (requested > SHMEM_THREAD_MULTIPLE)
        requested = SHMEM_THREAD_MULTIPLE;
    return shoal_init(requested, provided);
}

SHOAL_API(void, shmem_query_thread, (int *provided))
{
    *provided = shoal.thread_level;
}

SHOAL_API(void, shmem_query_initialized, (int *initialized))
{
    *initialized = shoal_initialized();
}

SHOAL_API(void, shmem_finalize, (void))
{
    shoal_finalize();
    if (!shoal_initialized())
        shoal_api_teams_forget();
}

SHOAL_API(void, shmem_global_exit, (int status))
{
    shoal_global_exit(status);
}

SHOAL_API(int, shmem_my_pe, (void))
{
    return shoal_initialized() ? shoal.my_pe : -1;
}

SHOAL_API(int, shmem_n_pes, (void))
{
    return shoal_initialized() ? shoal.n_pes : -1;
}

SHOAL_API(int, shmem_pe_accessible, (int pe))
{
    return shoal_initialized() && pe >= 0 && pe < shoal.n_pes &&
           (shoal.peers[pe].base[SHOAL_SEG_HEAP] || shoal_remote);
}

SHOAL_API(int, shmem_addr_accessible, (const void *addr, int pe))
{
    size_t off;
    return pshmem_pe_accessible(pe) && shoal_seg_of(addr, &off) >= 0;
}

SHOAL_API(void *, shmem_ptr, (const void *dest, int pe))
{
    if (!shoal_initialized() || pe < 0 || pe >= shoal.n_pes)
        return NULL;
    return shoal_ptr(dest, pe);
}

SHOAL_API(void, shmem_info_get_version, (int *major, int *minor))
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

SHOAL_API(void, shmem_info_get_name, (char *name))
{
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

/* The spec's levels switch Shoal's own profile (SHOAL_PROFILE, SHOAL_TRACE):
 * 0 off, 1 on, 2 flush (prof/prof.c). */
SHOAL_API(void, shmem_pcontrol, (int level, ...))
{
    shoal_prof_control(level);
}

/* Deprecated (1.2) names, still required. */
SHOAL_API(void, start_pes, (int npes))
{
    (void)npes;
    if (shoal_init(SHMEM_THREAD_SINGLE, NULL) != 0)
        exit(1);
}

SHOAL_API(int, _my_pe, (void))
{
    return pshmem_my_pe();
}

SHOAL_API(int, _num_pes, (void))
{
    return pshmem_n_pes();
}

SHOAL_API(double, shmemx_wtime, (void))
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
