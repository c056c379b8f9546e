/* Team creation from two threads of every PE at once, on different parents
 * (issue 12, item 4): thread 0 splits WORLD, thread 1 splits DUP (a copy of
 * WORLD), and even and odd PEs start them in opposite orders.  A creation
 * that held a process-wide lock across its agreement deadlocked here: PE 0
 * held it in WORLD's agreement waiting for PE 1, whose lock was held in
 * DUP's agreement waiting for PE 0.  Each new team is checked against a model
 * and by a sum over it, then destroyed (also concurrently). */
#include <pthread.h>
#include <unistd.h>

#include "teams_util.h"

#define ROUNDS 20

static int src[2], dst[2];
static shmem_team_t parent[2];

static void *creator(void *p)
{
    int id = (int)(long)p, me = shmem_my_pe(), n = shmem_n_pes();
    if ((me + id) % 2)
        usleep(20000);   /* the other thread's agreement starts first here, and second on the next PE */
    for (int r = 0; r < ROUNDS; r++) {
        /* Every second PE from (r % 2), or all PEs when that leaves none. */
        int start = n > 1 ? r % 2 : 0, stride = n > 1 ? 2 : 1, size = (n - start + stride - 1) / stride;
        shmem_team_t t;
        CHECK(shmem_team_split_strided(parent[id], start, stride, size, NULL, 0, &t) == 0,
              "thread %d round %d: split_strided(%d, %d, %d) failed", id, r, start, stride, size);
        struct model m;
        model_triplet(&m, start, stride, size);
        if (model_index(&m, me) < 0) {
            CHECK(t == SHMEM_TEAM_INVALID, "thread %d round %d: a team for a non-member", id, r);
            continue;
        }
        check_team(t, &m, "threaded split");
        src[id] = me + 1000 * id;
        CHECK(shmem_int_sum_reduce(t, &dst[id], &src[id], 1) == 0, "thread %d: sum_reduce", id);
        int want = 0;
        for (int i = 0; i < size; i++)
            want += m.world[i] + 1000 * id;
        CHECK(dst[id] == want, "thread %d round %d: sum %d, want %d", id, r, dst[id], want);
        shmem_team_destroy(t);
    }
    return NULL;
}

int main(void)
{
    int provided;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0 && provided == SHMEM_THREAD_MULTIPLE,
          "init_thread(MULTIPLE) gave %d", provided);
    parent[0] = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &parent[1]) == 0,
          "DUP of WORLD");
    pthread_t th[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, creator, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    shmem_team_destroy(parent[1]);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("team_threads: %d rounds on two parents from two threads: OK\n", ROUNDS);
    shmem_finalize();
    return 0;
}
