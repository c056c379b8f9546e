/* The progress hook table under concurrent change: reader threads drive
 * progress while a writer adds and removes hooks.  Every hook must be called
 * with its own argument (never another hook's), and a hook that was never
 * registered is never called.  Links the static library: the hooks are
 * internal. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/shoal.h"

enum { READERS = 3, ROUNDS = 200000, KINDS = 4 };

static int args[KINDS];
static long torn, calls;
static int stop;

#define HOOK(k)                                                 \
    static void hook##k(void *arg)                              \
    {                                                           \
        __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);        \
        if (arg != &args[k])                                    \
            __atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);     \
    }
HOOK(0)
HOOK(1)
HOOK(2)
HOOK(3)
static shoal_progress_fn hooks[KINDS] = {hook0, hook1, hook2, hook3};

static void *reader(void *unused)
{
    (void)unused;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
        shoal_poll();
    return NULL;
}

int main(void)
{
    pthread_t r[READERS];
    for (int i = 0; i < READERS; i++)
        pthread_create(&r[i], NULL, reader, NULL);
    /* Entry 0 stays; the others come and go, so removals move entries. */
    shoal_progress_add(hooks[0], &args[0]);
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 1; k < KINDS; k++)
            shoal_progress_add(hooks[k], &args[k]);
        for (int k = 1; k < KINDS; k++)
            shoal_progress_remove(hooks[(k + round) % (KINDS - 1) + 1], &args[(k + round) % (KINDS - 1) + 1]);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < READERS; i++)
        pthread_join(r[i], NULL);
    printf("%ld hook calls, %ld with another hook's argument, %d hooks left\n", calls, torn, shoal_progress_n);
    if (torn || shoal_progress_n != 1) {
        fprintf(stderr, "FAIL: torn hook entries or wrong count\n");
        return 1;
    }
    return 0;
}
