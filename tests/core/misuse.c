/* Calls made outside shmem_init..shmem_finalize, for misuse.py: each must
 * stop the job with one line saying shmem_init was not called (or
 * shmem_finalize was), not a PE range of 0..-1, "heap exhausted" or
 * "not symmetric", and never a crash.
 *   put_before_init, get_before_init, malloc_before_init, free_before_init,
 *   put_after_finalize (heap), put_global_after_finalize, malloc_after_finalize */
#include <string.h>

#include <shmem.h>

static long global_word;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    static long got;
    if (!strcmp(mode, "put_before_init"))
        shmem_long_p(&global_word, 1, 0);
    if (!strcmp(mode, "get_before_init"))
        got = shmem_long_g(&global_word, 0);
    if (!strcmp(mode, "malloc_before_init"))
        shmem_malloc(64);
    if (!strcmp(mode, "free_before_init"))
        shmem_free(&got);
    shmem_init();
    long *heap_word = shmem_malloc(sizeof(long));
    int next = (shmem_my_pe() + 1) % shmem_n_pes();
    shmem_finalize();
    if (!strcmp(mode, "put_after_finalize"))
        shmem_long_p(heap_word, 1, next);
    if (!strcmp(mode, "put_global_after_finalize"))
        shmem_long_p(&global_word, 1, next);
    if (!strcmp(mode, "malloc_after_finalize"))
        shmem_malloc(64);
    return (int)got;
}
