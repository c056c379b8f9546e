/* Progress hooks: the network transport and pending split-phase barriers
 * register here, and every wait, test and communication call drives them. */
#include <pthread.h>
#include <stdlib.h>

#include "shoal.h"

enum { MAX_HOOKS = 16 };

struct hook {
    shoal_progress_fn fn;
    void *arg;
};
static struct hook hooks[MAX_HOOKS];
int shoal_progress_n;
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int in_progress;   /* a hook that waits must not re-enter the hooks */

void shoal_progress_add(shoal_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&hooks_lock);
    if (shoal_progress_n == MAX_HOOKS)
        shoal_fatal("shoal_progress_add", "more than %d progress hooks", MAX_HOOKS);
    hooks[shoal_progress_n] = (struct hook){fn, arg};
    __atomic_store_n(&shoal_progress_n, shoal_progress_n + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&hooks_lock);
}

void shoal_progress_remove(shoal_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&hooks_lock);
    for (int i = 0; i < shoal_progress_n; i++) {
        if (hooks[i].fn == fn && hooks[i].arg == arg) {
            hooks[i] = hooks[shoal_progress_n - 1];
            __atomic_store_n(&shoal_progress_n, shoal_progress_n - 1, __ATOMIC_RELEASE);
            break;
        }
    }
    pthread_mutex_unlock(&hooks_lock);
}

void shoal_progress(void)
{
    if (in_progress)
        return;
    in_progress = 1;
    int n = __atomic_load_n(&shoal_progress_n, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n && i < shoal_progress_n; i++)
        hooks[i].fn(hooks[i].arg);
    in_progress = 0;
}
