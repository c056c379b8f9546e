/* No descriptor of Shoal's stays open while the job runs (DESIGN.md, "No
 * names in /dev/shm"): after shmem_init no memfd of ours is in /proc/self/fd.
 * A second init after the last finalize shares the globals afresh: puts to a
 * global still reach the neighbour, and again nothing stays open. */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

#include "check.h"

static long box[2];

static int shoal_fds_open(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], target[300];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len <= 0)
            continue;
        target[len] = 0;
        if (strstr(target, "memfd:shoal-globals") || strstr(target, "memfd:shoal-heap")) {
            fprintf(stderr, "PE %d: fd %s is %s\n", shmem_my_pe(), e->d_name, target);
            n++;
        }
    }
    closedir(d);
    return n;
}

static void round_trip(int round)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(shoal_fds_open() == 0, "init %d left Shoal's memfds open", round);
    shmem_long_p(&box[0], 100L * round + me, (me + 1) % n);
    shmem_barrier_all();
    CHECK_EQ_LONG(box[0], 100L * round + (me + n - 1) % n);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    round_trip(1);
    shmem_finalize();
    shmem_init();
    round_trip(2);
    shmem_finalize();
    return 0;
}
