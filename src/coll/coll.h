/* Collectives: every algorithm is written once against the core's RMA, AMO
 * and wait primitives; select.c picks one per call.  The API layer's typed
 * entry points (generated from core/types.def) call the shoal_coll_* entry
 * points below with a data type and byte counts. */
#ifndef SHOAL_COLL_H
#define SHOAL_COLL_H

#include "../team/team.h"

enum shoal_op { SHOAL_OP_AND, SHOAL_OP_OR, SHOAL_OP_XOR, SHOAL_OP_MAX, SHOAL_OP_MIN, SHOAL_OP_SUM, SHOAL_OP_PROD };

enum shoal_dtype {
#define SHOAL_TYPE(ctype, name, families) SHOAL_DT_##name,
#include "../core/types.def"
#undef SHOAL_TYPE
    SHOAL_DT_COUNT
};

/* Team collectives (team is valid and I am a member; 0 on success). */
int shoal_coll_broadcast(struct shoal_team *t, void *dest, const void *src, size_t nbytes, int root);
int shoal_coll_collect(struct shoal_team *t, void *dest, const void *src, size_t nbytes);   /* nbytes: mine */
int shoal_coll_fcollect(struct shoal_team *t, void *dest, const void *src, size_t nbytes);
int shoal_coll_alltoall(struct shoal_team *t, void *dest, const void *src, size_t nbytes);  /* per PE */
int shoal_coll_alltoalls(struct shoal_team *t, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                         size_t elem, size_t nelems);
int shoal_coll_reduce(struct shoal_team *t, enum shoal_op op, enum shoal_dtype dt, void *dest, const void *src,
                      size_t nreduce);
int shoal_coll_scan(struct shoal_team *t, enum shoal_dtype dt, void *dest, const void *src, size_t nelems,
                    bool inclusive);

/* Deprecated active-set forms: PE_start, logPE_stride, PE_size, user pSync (and pWrk). */
struct shoal_active_set {
    int start, logstride, size;
    long *psync;
};
void shoal_coll_barrier_as(const struct shoal_active_set *as);
void shoal_coll_broadcast_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes,
                             int root);
void shoal_coll_collect_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes);
void shoal_coll_fcollect_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes);
void shoal_coll_alltoall_as(const struct shoal_active_set *as, void *dest, const void *src, size_t nbytes);
void shoal_coll_alltoalls_as(const struct shoal_active_set *as, void *dest, const void *src, ptrdiff_t dst,
                             ptrdiff_t sst, size_t elem, size_t nelems);
void shoal_coll_reduce_as(const struct shoal_active_set *as, enum shoal_op op, enum shoal_dtype dt, void *dest,
                          const void *src, size_t nreduce, void *pwrk);

/* Barrier algorithms: all members arrive before any leaves; no quiet. */
void shoal_barrier_dissem(struct shoal_team *t);
void shoal_barrier_shm(struct shoal_team *t);
void shoal_barrier_tree(struct shoal_team *t);

/* Init hooks (api/lifecycle.c): check the SHMEM_*_ALGORITHM choices after
 * shoal_config_load; fini frees nothing that outlives a team today. */
void shoal_coll_init(void);
void shoal_coll_fini(void);

/* shmemx_collective_algorithm: force an algorithm from now on, as
 * SHMEM_<KIND>_ALGORITHM does at init; false, nothing changed, for a name
 * not known. */
bool shoal_coll_force(const char *kind, const char *alg);

/* team_sync: picks the barrier algorithm. */
void shoal_team_barrier(struct shoal_team *t);

#endif
