/* The symmetric heap allocator.  Every PE makes the same calls in the same
 * order, so a deterministic allocator gives every PE the same offsets: no
 * communication is needed to agree on addresses.  Bookkeeping lives in
 * private memory, so untouched heap pages never become resident. */
#include <pthread.h>
#include <stdlib.h>

#include "mem.h"
#include "../core/shoal.h"

enum { MIN_ALIGN = 16 };

struct extent {           /* a free range of the heap, kept sorted by offset */
    size_t off, len;
    struct extent *next;
};

struct used {             /* an allocated block: open-addressing table by offset */
    size_t off_plus_1;    /* 0: empty, SIZE_MAX: deleted */
    size_t len;
};

static struct extent *free_list;
static struct used *used;
static size_t used_cap, used_n, used_fill;   /* fill counts deleted slots too */
static char *base;
static size_t internal_end, internal_used, heap_end;
static size_t high_water;   /* end of the furthest block ever allocated */
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t align_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static size_t slot_of(size_t off) { return (off * 0x9E3779B97F4A7C15ull >> 7) & (used_cap - 1); }

static void used_put(size_t off, size_t len);

static void used_grow(void)
{
    struct used *old = used;
    size_t old_cap = used_cap;
    if (!used_cap)
        used_cap = 256;
    else if (used_n * 4 > used_cap)   /* mostly live: grow; mostly deleted: rehash in place */
        used_cap *= 2;
    used = calloc(used_cap, sizeof *used);
    used_n = used_fill = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].off_plus_1 && old[i].off_plus_1 != SIZE_MAX)
            used_put(old[i].off_plus_1 - 1, old[i].len);
    free(old);
}

static void used_put(size_t off, size_t len)
{
    if ((used_fill + 1) * 2 > used_cap)
        used_grow();
    size_t i = slot_of(off);
    while (used[i].off_plus_1 && used[i].off_plus_1 != SIZE_MAX)
        i = (i + 1) & (used_cap - 1);
    if (!used[i].off_plus_1)
        used_fill++;
    used[i] = (struct used){off + 1, len};
    used_n++;
}

static struct used *used_find(size_t off)
{
    if (!used_cap)
        return NULL;
    for (size_t i = slot_of(off); used[i].off_plus_1; i = (i + 1) & (used_cap - 1))
        if (used[i].off_plus_1 == off + 1)
            return &used[i];
    return NULL;
}

void shoal_heap_allocator_init(char *heap_base, size_t internal, size_t size)
{
    base = heap_base;
    internal_end = internal;
    internal_used = 0;
    heap_end = size;
    high_water = internal;
    free_list = malloc(sizeof *free_list);
    *free_list = (struct extent){internal, size - internal, NULL};
}

void shoal_heap_allocator_fini(void)
{
    while (free_list) {
        struct extent *n = free_list->next;
        free(free_list);
        free_list = n;
    }
    free(used);
    used = NULL;
    used_cap = used_n = used_fill = 0;
    base = NULL;
    heap_end = internal_end = high_water = 0;
}

size_t shoal_heap_high_water(void)
{
    pthread_mutex_lock(&heap_lock);
    size_t h = high_water;
    pthread_mutex_unlock(&heap_lock);
    return h;
}

void *shoal_internal_alloc(size_t size)
{
    size_t off = align_up(internal_used, SHOAL_CACHELINE);
    if (off > internal_end || size > internal_end - off)
        shoal_fatal("shmem_init", "internal symmetric region too small (%zu bytes wanted, %zu left); "
                    "lower SHMEM_TEAMS_MAX", size, internal_end - (off < internal_end ? off : internal_end));
    internal_used = off + size;
    return base + off;
}

/* Carve [at, at+size) out of free extent e (prev points at e's link). */
static void carve(struct extent **link, struct extent *e, size_t at, size_t size)
{
    size_t end = e->off + e->len, tail = end - (at + size);
    if (at > e->off) {
        e->len = at - e->off;
        if (tail) {
            struct extent *t = malloc(sizeof *t);
            *t = (struct extent){at + size, tail, e->next};
            e->next = t;
        }
    } else if (tail) {
        e->off = at + size;
        e->len = tail;
    } else {
        *link = e->next;
        free(e);
    }
}

void *shoal_heap_alloc(size_t size, size_t align)
{
    if (align < MIN_ALIGN)
        align = MIN_ALIGN;
    if (align > SHOAL_HEAP_ALIGN_MAX || size > heap_end - internal_end)
        return NULL;   /* before rounding: SIZE_MAX would wrap to 0 */
    size = align_up(size ? size : 1, MIN_ALIGN);
    void *result = NULL;
    pthread_mutex_lock(&heap_lock);
    for (struct extent **link = &free_list, *e; (e = *link); link = &e->next) {
        size_t at = align_up(e->off, align), end = e->off + e->len;   /* offsets < heap_end: no wrap */
        if (at <= end && size <= end - at) {
            carve(link, e, at, size);
            used_put(at, size);
            if (at + size > high_water)
                high_water = at + size;
            result = base + at;
            break;
        }
    }
    pthread_mutex_unlock(&heap_lock);
    return result;
}

/* Insert a free range in offset order, merging with its neighbours. */
static void release(size_t off, size_t len)
{
    struct extent **link = &free_list, *prev = NULL;
    while (*link && (*link)->off < off) {
        prev = *link;
        link = &(*link)->next;
    }
    struct extent *next = *link;
    if (prev && prev->off + prev->len == off) {
        prev->len += len;
        if (next && prev->off + prev->len == next->off) {
            prev->len += next->len;
            prev->next = next->next;
            free(next);
        }
    } else if (next && off + len == next->off) {
        next->off = off;
        next->len += len;
    } else {
        struct extent *e = malloc(sizeof *e);
        *e = (struct extent){off, len, next};
        *link = e;
    }
}

void shoal_heap_free(void *ptr)
{
    size_t off = (size_t)((char *)ptr - base);
    pthread_mutex_lock(&heap_lock);
    struct used *u = used_find(off);
    if (!u) {
        pthread_mutex_unlock(&heap_lock);
        shoal_fatal("shmem_free", "%p was not returned by a symmetric allocator (or was freed already); "
                    "free each block from shmem_malloc, shmem_calloc, shmem_align or shmem_realloc once", ptr);
    }
    size_t len = u->len;
    u->off_plus_1 = SIZE_MAX;
    used_n--;
    release(off, len);
    pthread_mutex_unlock(&heap_lock);
}

size_t shoal_heap_usable(void *ptr)
{
    pthread_mutex_lock(&heap_lock);
    struct used *u = used_find((size_t)((char *)ptr - base));
    size_t len = u ? u->len : 0;
    pthread_mutex_unlock(&heap_lock);
    return len;
}

/* Largest free block, for the heap-exhausted message. */
size_t shoal_heap_largest_free(void)
{
    size_t best = 0;
    pthread_mutex_lock(&heap_lock);
    for (struct extent *e = free_list; e; e = e->next)
        if (e->len > best)
            best = e->len;
    pthread_mutex_unlock(&heap_lock);
    return best;
}
