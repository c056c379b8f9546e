/* Symmetric segments: memfd-backed memory that every PE of the host maps. */
#ifndef SHOAL_MEM_H
#define SHOAL_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct shoal_segment {
    char *base;
    size_t size;
    int fd;
};

/* What a PE tells the others about one segment so they can map it. */
struct shoal_segment_id {
    int32_t pid;
    int32_t fd;
    uint64_t size;
};

int shoal_memfd(const char *name, size_t size);
int shoal_globals_share(struct shoal_segment *seg);
/* The heap's base is aligned to this, so that an offset aligned to any
 * power of two up to it (every PE allocates the same offsets) is an
 * address so aligned on every PE: shmem_align(8 MiB) works. */
#define SHOAL_HEAP_BASE_ALIGN ((size_t)1 << 30)
int shoal_heap_create(struct shoal_segment *seg, size_t size);
/* Map a segment of a PE on this host (through /proc/pid/fd); NULL on failure. */
char *shoal_segment_attach(const struct shoal_segment_id *id);
void shoal_segment_detach(char *base, size_t size);

void shoal_heap_allocator_init(char *base, size_t internal, size_t size);
void shoal_heap_allocator_fini(void);

#endif
