/* A user's program built with -fsanitize=address,undefined (libshoal itself
 * is not): shmem_init must not trip over ASan's redzones around the
 * program's globals, and nothing Shoal leaves behind at exit is a leak.
 * Globals of odd sizes sit between redzones; puts to them must still land. */
#include <shmem.h>

#include "check.h"

static char odd[3];
static int word = 7;
static long big[100];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    shmem_char_p(&odd[1], (char)('a' + me), next);
    shmem_int_p(&word, me, next);
    long mine[100];
    for (int i = 0; i < 100; i++)
        mine[i] = me * 1000 + i;
    shmem_long_put(big, mine, 100, next);
    long *heap = shmem_calloc(n, sizeof(long));
    shmem_long_fcollect(SHMEM_TEAM_WORLD, heap, &big[99], 1);
    shmem_barrier_all();
    CHECK(odd[1] == 'a' + prev, "odd[1] %c", odd[1]);
    CHECK_EQ_LONG(word, prev);
    for (int i = 0; i < 100; i++)
        CHECK_EQ_LONG(big[i], prev * 1000 + i);
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        CHECK_EQ_LONG(heap[pe], ((pe + n - 1) % n) * 1000 + 99);
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
