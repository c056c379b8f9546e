/* The control block our oshrun shares with its PEs: a memfd it creates
 * before forking and passes by file descriptor (SHOAL_LOCAL_FD), so nothing
 * is ever named in /dev/shm and nothing can be left behind. */
#ifndef SHOAL_LOCAL_CTL_H
#define SHOAL_LOCAL_CTL_H

#include <stddef.h>
#include <stdint.h>

#define SHOAL_LOCAL_MAGIC 0x53484f414cu   /* "SHOAL" */
enum { SHOAL_LOCAL_HEADER = 4096, SHOAL_LOCAL_SLOT = 1024 };

struct shoal_local_ctl {
    uint64_t magic;
    int32_t npes;
    uint32_t bar_count;       /* boot barrier: arrivals */
    uint32_t bar_gen;         /* boot barrier: futex word, bumped by the last arrival */
    int32_t exit_requested;   /* shmem_global_exit / fatal error: oshrun ends the job */
    int32_t exit_status;
    int32_t exit_pe;
};

/* Slot of PE i: the allgather exchange area. */
static inline char *shoal_local_slot(struct shoal_local_ctl *c, int i)
{
    return (char *)c + SHOAL_LOCAL_HEADER + (size_t)i * SHOAL_LOCAL_SLOT;
}

/* State of PE i, so oshrun can tell a PE that exits without shmem_finalize
 * (its peers would wait for it forever) from one that is done. */
enum { SHOAL_PE_STARTED = 0, SHOAL_PE_RUNNING = 1, SHOAL_PE_FINALIZED = 2 };
static inline int32_t *shoal_local_state(struct shoal_local_ctl *c, int i)
{
    return (int32_t *)((char *)c + SHOAL_LOCAL_HEADER + (size_t)c->npes * SHOAL_LOCAL_SLOT) + i;
}

static inline size_t shoal_local_ctl_size(int npes)
{
    return SHOAL_LOCAL_HEADER + (size_t)npes * (SHOAL_LOCAL_SLOT + sizeof(int32_t));
}

#endif
