/* TEMPORARY: weak stand-ins for the collective entry points of coll.h that
 * nobody defines yet, so the library and its tests link.  Each one stops
 * the job with a clear message.  The real definitions (strong symbols)
 * replace these as they land; the collectives engineer deletes this file. */
#include "coll.h"

#define STUB(name) shoal_fatal(#name, "not implemented yet")

__attribute__((weak)) int shoal_coll_broadcast(struct shoal_team *t, void *dest, const void *src, size_t nbytes,
                                               int root)
{
    STUB(shoal_coll_broadcast);
}

__attribute__((weak)) int shoal_coll_collect(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    STUB(shoal_coll_collect);
}

__attribute__((weak)) int shoal_coll_fcollect(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    STUB(shoal_coll_fcollect);
}

__attribute__((weak)) int shoal_coll_alltoall(struct shoal_team *t, void *dest, const void *src, size_t nbytes)
{
    STUB(shoal_coll_alltoall);
}

__attribute__((weak)) int shoal_coll_alltoalls(struct shoal_team *t, void *dest, const void *src, ptrdiff_t dst,
                                               ptrdiff_t sst, size_t elem, size_t nelems)
{
    STUB(shoal_coll_alltoalls);
}

__attribute__((weak)) int shoal_coll_reduce(struct shoal_team *t, enum shoal_op op, enum shoal_dtype dt,
                                            void *dest, const void *src, size_t nreduce)
{
    STUB(shoal_coll_reduce);
}

__attribute__((weak)) int shoal_coll_scan(struct shoal_team *t, enum shoal_dtype dt, void *dest, const void *src,
                                          size_t nelems, bool inclusive)
{
    STUB(shoal_coll_scan);
}

__attribute__((weak)) void shoal_coll_barrier_as(const struct shoal_active_set *as)
{
    STUB(shoal_coll_barrier_as);
}

__attribute__((weak)) void shoal_coll_broadcast_as(const struct shoal_active_set *as, void *dest, const void *src,
                                                   size_t nbytes, int root)
{
    STUB(shoal_coll_broadcast_as);
}

__attribute__((weak)) void shoal_coll_collect_as(const struct shoal_active_set *as, void *dest, const void *src,
                                                 size_t nbytes)
{
    STUB(shoal_coll_collect_as);
}

__attribute__((weak)) void shoal_coll_fcollect_as(const struct shoal_active_set *as, void *dest, const void *src,
                                                  size_t nbytes)
{
    STUB(shoal_coll_fcollect_as);
}

__attribute__((weak)) void shoal_coll_alltoall_as(const struct shoal_active_set *as, void *dest, const void *src,
                                                  size_t nbytes)
{
    STUB(shoal_coll_alltoall_as);
}

__attribute__((weak)) void shoal_coll_alltoalls_as(const struct shoal_active_set *as, void *dest, const void *src,
                                                   ptrdiff_t dst, ptrdiff_t sst, size_t elem, size_t nelems)
{
    STUB(shoal_coll_alltoalls_as);
}

__attribute__((weak)) void shoal_coll_reduce_as(const struct shoal_active_set *as, enum shoal_op op,
                                                enum shoal_dtype dt, void *dest, const void *src, size_t nreduce,
                                                void *pwrk)
{
    STUB(shoal_coll_reduce_as);
}
