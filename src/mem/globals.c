/* Global and static variables are symmetric: at first init the program's
 * writable data ([.data, .bss] of the executable, page-rounded, after RELRO)
 * is copied into a memfd that is mapped MAP_SHARED|MAP_FIXED over the same
 * range.  The program runs on unchanged, and PEs on the host map each
 * other's memfd, so globals are reached like heap memory: by offset.
 *
 * Every init shares them afresh (the memfd of the last init is closed once
 * the peers have mapped it, so no descriptor stays open between inits). */
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mem.h"

struct range {
    uintptr_t start, end, relro_end;
    int found;
};

/* The executable is the first object dl_iterate_phdr reports. */
static int find_data(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct range *r = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && !r->found) {
            r->start = lo;
            r->end = hi;
            r->found = 1;
        }
        if (ph->p_type == PT_GNU_RELRO)
            r->relro_end = hi;
    }
    return 1;
}

/* The kernel copies the range into the memfd: a raw system call, so no
 * sanitizer intercepts it.  A memcpy (or write(2), which ASan checks too)
 * would read the redzones ASan puts between a sanitized program's globals
 * and abort in shmem_init. */
static int copy_into(int fd, uintptr_t start, size_t len)
{
    for (size_t done = 0; done < len;) {
        long n = syscall(SYS_pwrite64, fd, (const void *)(start + done), len - done, (off_t)done);
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

int shoal_globals_share(struct shoal_segment *seg)
{
    struct range r = {0};
    dl_iterate_phdr(find_data, &r);
    if (!r.found)
        return -1;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = r.start > r.relro_end ? r.start : r.relro_end;
    start &= ~(page - 1);
    uintptr_t end = (r.end + page - 1) & ~(page - 1);
    if (end <= start)
        return -1;
    size_t len = end - start;
    int fd = shoal_memfd("shoal-globals", len);
    if (fd < 0)
        return -1;
    /* A store to a global between the copy and the remap would be lost: the
     * program's other threads must not write globals while shmem_init runs
     * (at the first init nothing else runs yet). */
    if (copy_into(fd, start, len) != 0 ||
        mmap((void *)start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        close(fd);
        return -1;
    }
    seg->base = (char *)start;
    seg->size = len;
    seg->fd = fd;
    return 0;
}
