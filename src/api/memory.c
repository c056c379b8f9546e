/* Symmetric memory management.  Every allocator is a collective on the
 * world team: allocation barriers on exit, free on entry; size 0 returns
 * NULL without a barrier.  Implicit barriers quiet only the default context. */
#include <stdio.h>

#include "api.h"
#include "../coll/coll.h"

size_t shoal_heap_largest_free(void);

/* The heap may have grown: the network transport makes the new blocks
 * reachable (ofi_mr.c registers lazily where registration pins memory). */
static void world_barrier(void)
{
    shoal_quiet(&shoal_ctx_default);
    shoal_team_barrier(&shoal_team_world);
    shoal_remote_heap_grown();
}

/* Always checked (not only under SHMEM_DEBUG): before init the heap does
 * not exist, and "heap exhausted" would send the user the wrong way. */
static void *allocate(const char *routine, size_t size, size_t align)
{
    shoal_require_init(routine);
    void *p = shoal_heap_alloc(size, align);
    if (!p)
        shoal_warn(routine, "symmetric heap exhausted: %zu bytes wanted, largest free block %zu bytes "
                   "of %zu; raise SHMEM_SYMMETRIC_SIZE (now %zu bytes)", size, shoal_heap_largest_free(),
                   shoal.seg_size[SHOAL_SEG_HEAP] - shoal.heap_internal, shoal_cfg.heap_size);
    world_barrier();
    return p;
}

SHOAL_API(void *, shmem_malloc, (size_t size))
{
    return size ? allocate("shmem_malloc", size, 0) : NULL;
}

SHOAL_API(void *, shmem_malloc_with_hints, (size_t size, long hints))
{
    (void)hints;   /* every block already supports remote atomics and signals */
    return size ? allocate("shmem_malloc_with_hints", size, 0) : NULL;
}

SHOAL_API(void *, shmem_calloc, (size_t count, size_t size))
{
    if (!count || !size)
        return NULL;
    shoal_require_init("shmem_calloc");
    if (size > SIZE_MAX / count) {
        shoal_warn("shmem_calloc", "%zu x %zu bytes overflows size_t; returning NULL (ask for less)", count,
                   size);
        world_barrier();
        return NULL;
    }
    void *p = shoal_heap_alloc(count * size, 0);
    if (p)
        memset(p, 0, count * size);   /* before the barrier: peers may write into it after */
    else
        shoal_warn("shmem_calloc", "symmetric heap exhausted: %zu bytes wanted; raise SHMEM_SYMMETRIC_SIZE",
                   count * size);
    world_barrier();
    return p;
}

/* The spec asks for a power-of-two multiple of sizeof(void *); smaller
 * powers of two (1, 2, 4) are rounded up to it rather than refused, as
 * other libraries and public test suites expect a block.  Every block is
 * at least 16-byte aligned anyway. */
SHOAL_API(void *, shmem_align, (size_t alignment, size_t size))
{
    if (!size)
        return NULL;
    shoal_require_init("shmem_align");
    if (alignment & (alignment - 1) || alignment > SHOAL_HEAP_ALIGN_MAX) {
        shoal_warn("shmem_align", "alignment %zu is not a power of two up to %zu; returning NULL (pass a "
                   "power of two)", alignment, SHOAL_HEAP_ALIGN_MAX);
        world_barrier();
        return NULL;
    }
    return allocate("shmem_align", size, alignment);
}

SHOAL_API(void, shmem_free, (void *ptr))
{
    if (!ptr)
        return;
    shoal_require_init("shmem_free");
    world_barrier();
    shoal_heap_free(ptr);
}

SHOAL_API(void *, shmem_realloc, (void *ptr, size_t size))
{
    if (!ptr)
        return pshmem_malloc(size);
    if (!size) {
        pshmem_free(ptr);
        return NULL;
    }
    shoal_require_init("shmem_realloc");
    world_barrier();   /* peers may still be writing into the old block */
    size_t old = shoal_heap_usable(ptr);
    if (!old)
        shoal_fatal("shmem_realloc", "%p was not returned by a symmetric allocator (or was freed already); "
                    "pass a live block from shmem_malloc, shmem_calloc, shmem_align or shmem_realloc", ptr);
    void *p = old >= size ? ptr : shoal_heap_alloc(size, 0);
    if (p && p != ptr) {
        memcpy(p, ptr, old);
        shoal_heap_free(ptr);
    }
    if (!p)
        shoal_warn("shmem_realloc", "symmetric heap exhausted: %zu bytes wanted; raise SHMEM_SYMMETRIC_SIZE",
                   size);
    world_barrier();
    return p;
}

/* Deprecated (1.2) names. */
SHOAL_API(void *, shmalloc, (size_t size)) { return pshmem_malloc(size); }
SHOAL_API(void, shfree, (void *ptr)) { pshmem_free(ptr); }
SHOAL_API(void *, shrealloc, (void *ptr, size_t size)) { return pshmem_realloc(ptr, size); }
SHOAL_API(void *, shmemalign, (size_t alignment, size_t size)) { return pshmem_align(alignment, size); }
