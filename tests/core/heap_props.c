/* Allocator properties under a random, seeded sequence of shmem_malloc,
 * shmem_calloc, shmem_realloc, shmem_align and shmem_free calls, with
 * extreme sizes (0, 1, odd, page +/- 1, most of the heap, more than the heap,
 * SIZE_MAX and its neighbours) and alignments (1 to 2^31, non powers of two).
 * After every call, checked against a model the test keeps itself:
 *   - symmetric: every PE got the same offset (or NULL);
 *   - aligned as asked, inside the user part of the heap (never in the
 *     library's internal region before it), overlapping no live block;
 *   - contents kept: each block holds its own pattern until freed, calloc
 *     zeroes, realloc keeps the common prefix, a failed realloc keeps all;
 *   - requests larger than the heap fail;
 * and at the end the heap is empty again: one block of the whole heap fits
 * at the lowest offset.
 * usage: heap_props [seed [operations]]; run with SHMEM_SYMMETRIC_SIZE=8m. */
#include <stdint.h>
#include <string.h>

#include <shmem.h>

#include "check.h"

enum { MAX_LIVE = 48, EDGE = 4096 };
static const size_t HEAP = (size_t)8 << 20;   /* SHMEM_SYMMETRIC_SIZE of the ctest rows */

struct block {
    unsigned char *p;
    size_t size;
    unsigned char id;
};
static struct block live[MAX_LIVE];
static int n_live;
static unsigned char *lo;   /* the first user offset: where a block goes in an empty heap */
static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t pick_size(void)
{
    static const size_t edges[] = {0, 1, 3, 15, 16, 17, 4095, 4096, 4097, 65535, 65537};
    switch (next() % 20) {
    case 0: return edges[next() % (sizeof edges / sizeof edges[0])];
    case 1: return HEAP / 3 + next() % 100;
    case 2: return HEAP - next() % 8192;   /* fits only in an (almost) empty heap */
    case 3: return HEAP + 1 + next() % 4096;
    case 4: {
        static const size_t huge[] = {SIZE_MAX, SIZE_MAX - 15, SIZE_MAX - 4095, SIZE_MAX / 2 + 1, SIZE_MAX / 2,
                                      (size_t)1 << 46, (size_t)1 << 62};
        return huge[next() % (sizeof huge / sizeof huge[0])];
    }
    default: return (size_t)(next() % 20000) | 1;   /* odd, mostly small */
    }
}

static size_t pick_align(void)
{
    switch (next() % 8) {
    case 0: return (size_t)3 << (next() % 8);   /* not a power of two: NULL */
    case 1: return (size_t)1 << (28 + next() % 4);  /* 256 MiB .. 2 GiB: beyond this heap or the limit */
    default: return (size_t)1 << (next() % 24);
    }
}

/* Only the ends of big blocks are filled: enough to catch an overlap, without
 * touching megabytes.  fn sees the filled bytes among the first `upto`. */
static void each_byte_upto(struct block *b, size_t upto, void (*fn)(unsigned char *, unsigned char, size_t),
                           unsigned char v)
{
    size_t head = b->size <= 2 * EDGE ? b->size : EDGE, tail = b->size <= 2 * EDGE ? b->size : b->size - EDGE;
    fn(b->p, v, head < upto ? head : upto);
    if (tail < upto)
        fn(b->p + tail, v, (upto < b->size ? upto : b->size) - tail);
}
static void each_byte(struct block *b, void (*fn)(unsigned char *, unsigned char, size_t), unsigned char v)
{
    each_byte_upto(b, b->size, fn, v);
}
static void fill(unsigned char *p, unsigned char v, size_t n) { memset(p, v, n); }
static void expect(unsigned char *p, unsigned char v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        CHECK(p[i] == v, "byte %p is %d, want %d (blocks overlap or data moved)", (void *)(p + i), p[i], v);
}

/* Same result on every PE: max and min of the offset (all ones for NULL). */
static void check_symmetric(const void *p, const char *what, size_t size, size_t align)
{
    static uint64_t src[2], dst[2];
    uint64_t off = p ? (uint64_t)((const unsigned char *)p - lo) : UINT64_MAX;
    src[0] = off;
    src[1] = ~off;
    shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, dst, src, 2);
    CHECK(dst[0] == off && ~dst[1] == off, "%s(size %zu, align %zu): offsets differ between PEs (%llx..%llx)",
          what, size, align, (unsigned long long)~dst[1], (unsigned long long)dst[0]);
}

static void check_new(const unsigned char *p, size_t size, size_t align, const struct block *except)
{
    CHECK((uintptr_t)p % (align > 8 ? align : 8) == 0, "%p not aligned to %zu", (void *)p, align);
    CHECK(p >= lo && size <= HEAP && p + size <= lo + HEAP, "%p (+%zu) outside the user heap [%p, +%zu)",
          (void *)p, size, (void *)lo, HEAP);
    for (int i = 0; i < n_live; i++)
        if (&live[i] != except)
            CHECK(p + size <= live[i].p || live[i].p + live[i].size <= p, "%p (+%zu) overlaps %p (+%zu)",
                  (void *)p, size, (void *)live[i].p, live[i].size);
}

static unsigned char next_id(void)
{
    static unsigned char id;
    return (unsigned char)(++id ? id : ++id);   /* never 0: calloc's zeroes stay distinct */
}

static int tracing;
#define TRACE(...) do { if (tracing) fprintf(stderr, __VA_ARGS__); } while (0)

static void add(unsigned char *p, size_t size)
{
    TRACE("add %p +%zu\n", (void *)p, size);
    struct block *b = &live[n_live++];
    *b = (struct block){p, size, next_id()};
    each_byte(b, fill, b->id);
}

static void drop(int i)
{
    TRACE("drop %p +%zu\n", (void *)live[i].p, live[i].size);
    each_byte(&live[i], expect, live[i].id);
    shmem_free(live[i].p);
    live[i] = live[--n_live];
}

static void do_alloc(int kind)
{
    size_t size = pick_size(), count = 1, align = 0;
    unsigned char *p;
    const char *what = kind == 0 ? "shmem_malloc" : kind == 1 ? "shmem_calloc" : "shmem_align";
    if (kind == 0) {
        p = shmem_malloc(size);
    } else if (kind == 1) {
        count = 1 + next() % 5;
        if (next() % 10 == 0)
            count = SIZE_MAX / 2;   /* count * size overflows for size > 2 */
        p = shmem_calloc(count, size);
    } else {
        align = pick_align();
        p = shmem_align(align, size);
    }
    check_symmetric(p, what, size, align);
    int overflow = size && count > SIZE_MAX / size;
    size_t bytes = overflow ? SIZE_MAX : count * size;
    if (bytes == 0 || bytes > HEAP || overflow || (align & (align - 1)) || align > ((size_t)1 << 30)) {
        CHECK(p == NULL, "%s(count %zu, size %zu, align %zu) gave %p, want NULL", what, count, size, align,
              (void *)p);
        return;
    }
    if (!p)
        return;   /* fragmentation: allowed, and symmetric (checked above) */
    check_new(p, bytes, align, NULL);
    if (kind == 1) {
        struct block z = {p, bytes, 0};
        each_byte(&z, expect, 0);
    }
    add(p, bytes);
}

static void do_realloc(void)
{
    int i = (int)(next() % n_live);
    struct block *b = &live[i];
    size_t size = next() % 4 ? (size_t)(next() % 30000) : pick_size();
    unsigned char *p = shmem_realloc(b->p, size);
    TRACE("realloc %p +%zu -> %p +%zu\n", (void *)b->p, b->size, (void *)p, size);
    check_symmetric(p, "shmem_realloc", size, 0);
    if (size == 0) {   /* frees the block */
        CHECK(p == NULL, "shmem_realloc(%p, 0) gave %p", (void *)b->p, (void *)p);
        live[i] = live[--n_live];
        return;
    }
    if (!p) {   /* the old block stays, untouched */
        CHECK(size > b->size, "shmem_realloc to a smaller size (%zu < %zu) failed", size, b->size);
        each_byte(b, expect, b->id);
        return;
    }
    check_new(p, size, 0, b);
    struct block kept = {p, b->size, b->id};
    each_byte_upto(&kept, size, expect, b->id);
    *b = (struct block){p, size, next_id()};
    each_byte(b, fill, b->id);
}

static void whole_heap_fits_at_lo(const char *when)
{
    unsigned char *all = shmem_malloc(HEAP);
    CHECK(all == lo, "%s: the whole heap (%zu bytes) came back at %p, want %p", when, HEAP, (void *)all,
          (void *)lo);
    CHECK(shmem_malloc(HEAP) == NULL, "%s: a second whole heap fit", when);
    shmem_free(all);
}

/* The defects that were found by hand, checked first by name: sizes that
 * wrapped when rounded, alignments of 32 KiB and up that were relative to a
 * page-aligned base, and alignments below sizeof(void *) that gave NULL. */
static void known_edges(void)
{
    static const size_t huge[] = {SIZE_MAX, SIZE_MAX - 4095, SIZE_MAX - 15, SIZE_MAX / 2 + 1, (size_t)1 << 62};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        CHECK(shmem_malloc(huge[i]) == NULL, "shmem_malloc(%zu) gave a block", huge[i]);
        CHECK(shmem_align(4096, huge[i]) == NULL, "shmem_align(4096, %zu) gave a block", huge[i]);
        CHECK(shmem_calloc(1, huge[i]) == NULL, "shmem_calloc(1, %zu) gave a block", huge[i]);
    }
    unsigned char *after = shmem_malloc(64);
    CHECK(after == lo, "after the failed calls shmem_malloc(64) gave %p, want %p", (void *)after, (void *)lo);
    shmem_free(after);
    for (size_t a = 1; a <= ((size_t)1 << 22); a <<= 1) {
        unsigned char *p = shmem_align(a, 100);
        CHECK(p != NULL && (uintptr_t)p % (a > 8 ? a : 8) == 0, "shmem_align(%zu, 100) gave %p", a, (void *)p);
        check_symmetric(p, "shmem_align", 100, a);
        shmem_free(p);
    }
}

int main(int argc, char **argv)
{
    unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261125;
    long ops = argc > 2 ? atol(argv[2]) : 1500;
    shmem_init();
    tracing = getenv("HEAP_PROPS_TRACE") != NULL;
    rng = seed * 0x9E3779B97F4A7C15ull | 1;
    lo = shmem_malloc(1);
    CHECK(lo != NULL, "shmem_malloc(1) on an empty heap failed");
    shmem_free(lo);
    whole_heap_fits_at_lo("at start");
    CHECK(shmem_malloc(HEAP + 1) == NULL, "a block larger than the heap fit");
    known_edges();
    for (long op = 0; op < ops; op++) {
        unsigned r = (unsigned)(next() % 10);
        if (n_live && (r < 3 || n_live == MAX_LIVE))
            drop((int)(next() % n_live));
        else if (n_live && r < 5)
            do_realloc();
        else
            do_alloc((int)(r % 3));
    }
    while (n_live)
        drop(n_live - 1);
    whole_heap_fits_at_lo("at the end");
    if (shmem_my_pe() == 0)
        printf("heap_props: seed %llu, %ld operations on %d PEs: ok\n", seed, ops, shmem_n_pes());
    shmem_finalize();
    return 0;
}
