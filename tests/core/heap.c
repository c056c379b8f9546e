/* Symmetric heap: every allocator, symmetry of addresses, shmem_ptr to
 * every PE, data moved between PEs, and the spec's corner cases. */
#include <stdint.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

static void check_neighbour_data(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    size_t count = 100003;   /* odd, spans many pages */
    int *buf = shmem_malloc(count * sizeof *buf);
    CHECK(buf != NULL, "malloc failed");
    for (size_t i = 0; i < count; i++)
        buf[i] = -1;
    int *src = malloc(count * sizeof *src);
    for (size_t i = 0; i < count; i++)
        src[i] = (int)(me * 1000003 + i);
    shmem_barrier_all();
    shmem_int_put(buf, src, count, (me + 1) % n);
    shmem_barrier_all();
    int from = (me + n - 1) % n;
    for (size_t i = 0; i < count; i++)
        CHECK(buf[i] == (int)(from * 1000003 + i), "buf[%zu] = %d", i, buf[i]);
    for (int pe = 0; pe < n; pe++) {
        int *p = shmem_ptr(buf, pe);
        CHECK(p != NULL, "shmem_ptr to PE %d is NULL", pe);
        CHECK(p[7] == (int)(((pe + n - 1) % n) * 1000003 + 7), "shmem_ptr view of PE %d wrong", pe);
    }
    free(src);
    shmem_free(buf);
}

/* Same layout on every PE: the distance between two blocks (addresses may
 * differ between PEs under ASLR, offsets may not). */
static void check_symmetry(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    static uint64_t addrs[1024];
    char *anchor = shmem_malloc(8);
    void *blocks[5];
    size_t sizes[5] = {1, 24, 4096, 100000, 3};
    for (int i = 0; i < 5; i++)
        blocks[i] = shmem_malloc(sizes[i]);
    shmem_free(blocks[1]);
    blocks[1] = shmem_align(256, 40);
    CHECK(((uintptr_t)blocks[1] & 255) == 0, "shmem_align(256) gave %p", blocks[1]);
    /* below sizeof(void *) (still a power of two), and beyond the page size */
    for (size_t a = 2; a <= ((size_t)1 << 23); a *= 4) {
        void *p = shmem_align(a, 100);
        CHECK(p && ((uintptr_t)p & (a - 1)) == 0, "shmem_align(%zu) gave %p", a, p);
        shmem_free(p);
    }
    uint64_t mine = (uint64_t)((char *)blocks[1] - anchor);
    for (int pe = 0; pe < n && pe < 1024; pe++)
        shmem_uint64_p(&addrs[me], mine, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < n && pe < 1024; pe++)
        CHECK(addrs[pe] == mine, "PE %d has the block at offset %llx, I at %llx", pe,
              (unsigned long long)addrs[pe], (unsigned long long)mine);
    for (int i = 0; i < 5; i++)
        shmem_free(blocks[i]);
    shmem_free(anchor);
}

static void check_calloc_realloc(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *z = shmem_calloc(1000, sizeof(long));
    for (int i = 0; i < 1000; i++)
        CHECK(z[i] == 0, "calloc not zero at %d", i);
    for (int i = 0; i < 1000; i++)
        z[i] = me + i;
    long *bigger = shmem_realloc(z, 50000 * sizeof(long));
    CHECK(bigger != NULL, "realloc failed");
    for (int i = 0; i < 1000; i++)
        CHECK(bigger[i] == me + i, "realloc lost data at %d", i);
    shmem_long_p(&bigger[49999], me, (me + 1) % n);
    shmem_barrier_all();
    CHECK_EQ_LONG(bigger[49999], (me + n - 1) % n);
    shmem_free(bigger);
}

static void check_corner_cases(void)
{
    CHECK(shmem_malloc(0) == NULL, "malloc(0) not NULL");
    CHECK(shmem_calloc(0, 8) == NULL && shmem_calloc(8, 0) == NULL, "calloc with 0 not NULL");
    shmem_free(NULL);
    void *p = shmalloc(64);   /* deprecated names */
    CHECK(p != NULL, "shmalloc failed");
    p = shrealloc(p, 128);
    shfree(p);
    p = shmemalign(64, 64);
    CHECK(((uintptr_t)p & 63) == 0, "shmemalign");
    shfree(p);
    void *h = shmem_malloc_with_hints(100, SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(h != NULL, "malloc_with_hints");
    shmem_free(h);
}

/* Many allocations and frees in a pattern that fragments, then one big block:
 * the allocator must have coalesced everything back. */
static void check_reuse(void)
{
    enum { N = 500 };
    void *b[N];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            b[i] = shmem_malloc(64 + (size_t)(i % 7) * 100);
        for (int i = 0; i < N; i += 2)
            shmem_free(b[i]);
        for (int i = 1; i < N; i += 2)
            shmem_free(b[i]);
    }
    void *big = shmem_malloc(1 << 20);
    CHECK(big != NULL, "heap did not coalesce");
    shmem_free(big);
}

int main(void)
{
    shmem_init();
    check_neighbour_data();
    check_symmetry();
    check_calloc_realloc();
    check_corner_cases();
    check_reuse();
    shmem_finalize();
    return 0;
}
