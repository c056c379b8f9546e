/* memfd segments, and mapping a peer's segment through /proc/<pid>/fd/<fd>:
 * no name ever exists in /dev/shm, so a crash can leave nothing behind. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"
#include "../core/shoal.h"

int shoal_memfd(const char *name, size_t size)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The heap's base is aligned to SHOAL_HEAP_ALIGN_MAX: offsets are what PEs
 * agree on, so an aligned offset is an aligned address on every PE only
 * when every base is at least that aligned.  Reserve room to slide the
 * mapping to an aligned place, then give the rest of the room back. */
int shoal_heap_create(struct shoal_segment *seg, size_t size)
{
    int fd = shoal_memfd("shoal-heap", size);
    if (fd < 0)
        return -1;
    size_t room = size + SHOAL_HEAP_ALIGN_MAX;
    char *r = mmap(NULL, room, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        close(fd);
        return -1;
    }
    char *at = (char *)(((uintptr_t)r + SHOAL_HEAP_ALIGN_MAX - 1) & ~(uintptr_t)(SHOAL_HEAP_ALIGN_MAX - 1));
    void *p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0);
    if (at > r)
        munmap(r, (size_t)(at - r));
    size_t tail = (size_t)(r + room - (at + size));
    if (tail)
        munmap(at + size, tail);
    if (p == MAP_FAILED) {
        munmap(at, size);
        close(fd);
        return -1;
    }
    seg->base = p;
    seg->size = size;
    seg->fd = fd;
    return 0;
}

char *shoal_segment_attach(const struct shoal_segment_id *id)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)id->pid, (int)id->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    void *p = mmap(NULL, id->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    close(fd);
    return p == MAP_FAILED ? NULL : p;
}

void shoal_segment_detach(char *base, size_t size)
{
    if (base)
        munmap(base, size);
}
