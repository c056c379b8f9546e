/* memfd segments, and mapping a peer's segment through /proc/<pid>/fd/<fd>:
 * no name ever exists in /dev/shm, so a crash can leave nothing behind. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem.h"

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

int shoal_heap_create(struct shoal_segment *seg, size_t size)
{
    int fd = shoal_memfd("shoal-heap", size);
    if (fd < 0)
        return -1;
    /* Reserve address space (no memory) with room to align, keep the
     * aligned part and map the heap over it. */
    size_t span = size + SHOAL_HEAP_BASE_ALIGN;
    char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *p = MAP_FAILED;
    if (r != MAP_FAILED) {
        char *at = (char *)(((uintptr_t)r + SHOAL_HEAP_BASE_ALIGN - 1) & ~(uintptr_t)(SHOAL_HEAP_BASE_ALIGN - 1));
        if (at > r)
            munmap(r, (size_t)(at - r));
        if (r + span > at + size)
            munmap(at + size, (size_t)(r + span - (at + size)));
        p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0);
    }
    if (p == MAP_FAILED) {
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
