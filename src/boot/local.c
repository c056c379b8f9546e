/* Bootstrap under our own oshrun: everything goes through the control memfd. */
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "boot.h"
#include "local_ctl.h"
#include "../core/shoal.h"

static struct shoal_local_ctl *ctl;
static int my_rank, n_ranks;

static int local_detect(void)
{
    return getenv("SHOAL_LOCAL_FD") != NULL;
}

static int local_init(int *rank, int *size)
{
    if (!ctl) {
        if (!getenv("SHOAL_LOCAL_FD") || !getenv("SHOAL_PE"))   /* SHOAL_BOOTSTRAP=local outside oshrun */
            return -1;
        int fd = atoi(getenv("SHOAL_LOCAL_FD"));
        int n = atoi(getenv("SHOAL_NPES") ? getenv("SHOAL_NPES") : "0");
        if (n <= 0)
            return -1;
        ctl = mmap(NULL, shoal_local_ctl_size(n), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (ctl == MAP_FAILED || ctl->magic != SHOAL_LOCAL_MAGIC) {
            ctl = NULL;
            return -1;
        }
        close(fd);
        my_rank = atoi(getenv("SHOAL_PE"));
        n_ranks = n;
    }
    *rank = my_rank;
    *size = n_ranks;
    __atomic_store_n(shoal_local_state(ctl, my_rank), SHOAL_PE_RUNNING, __ATOMIC_RELEASE);
    return 0;
}

static void local_barrier(void)
{
    uint32_t gen = __atomic_load_n(&ctl->bar_gen, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&ctl->bar_count, 1, __ATOMIC_ACQ_REL) == (uint32_t)n_ranks) {
        __atomic_store_n(&ctl->bar_count, 0, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ctl->bar_gen, 1, __ATOMIC_RELEASE);
        syscall(SYS_futex, &ctl->bar_gen, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
        return;
    }
    while (__atomic_load_n(&ctl->bar_gen, __ATOMIC_ACQUIRE) == gen)
        syscall(SYS_futex, &ctl->bar_gen, FUTEX_WAIT, gen, NULL, NULL, 0);
}

static void local_allgather(const void *in, void *out, size_t len)
{
    for (size_t done = 0; done < len; done += SHOAL_LOCAL_SLOT) {
        size_t chunk = len - done < SHOAL_LOCAL_SLOT ? len - done : SHOAL_LOCAL_SLOT;
        memcpy(shoal_local_slot(ctl, my_rank), (const char *)in + done, chunk);
        local_barrier();
        for (int i = 0; i < n_ranks; i++)
            memcpy((char *)out + (size_t)i * len + done, shoal_local_slot(ctl, i), chunk);
        local_barrier();
    }
}

static _Noreturn void local_abort(int status)
{
    if (ctl && !__atomic_exchange_n(&ctl->exit_requested, 1, __ATOMIC_ACQ_REL)) {
        ctl->exit_status = status;
        ctl->exit_pe = my_rank;
    }
    _exit(status);
}

static void local_fini(void)
{
    /* The mapping stays: a later shmem_init (1.6 allows re-init) uses it again. */
    __atomic_store_n(shoal_local_state(ctl, my_rank), SHOAL_PE_FINALIZED, __ATOMIC_RELEASE);
}

const struct shoal_boot shoal_boot_local = {
    "local", local_detect, local_init, local_allgather, local_barrier, local_abort, local_fini,
};
