/* Progress hooks: the network transport and pending split-phase barriers
 * register here, and every wait, test and communication call drives them.
 *
 * Readers take no lock: the hooks live in an immutable table, and a change
 * (rare: a few per init) builds a new table under the lock and publishes it
 * with one pointer store.  A reader walks the table it loaded, so it never
 * sees a half-moved entry (a function with another hook's argument).  Old
 * tables are never freed, since a reader may still be walking one; they
 * stay reachable through the new table, so leak checkers stay quiet.  A
 * thread already walking the old table may call a removed hook once more:
 * owners remove theirs only when no other thread can be in a SHMEM call
 * (finalize). */
#include <pthread.h>
#include <stdlib.h>

#include "shoal.h"

enum { MAX_HOOKS = 16 };

struct hook {
    shoal_progress_fn fn;
    void *arg;
};
struct hook_table {
    int n;
    struct hook hook[MAX_HOOKS];
    const struct hook_table *older;   /* the table this one replaced */
};
static const struct hook_table no_hooks;
static const struct hook_table *current = &no_hooks;
int shoal_progress_n;   /* current->n, read by shoal_poll without following the pointer */
int shoal_progress_handover_fd = -1;
uint64_t shoal_requests_served;
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;
/* A hook that waits must not re-enter the hooks.  Initial-exec, as
 * shoal_user_routine: every look of a wait in a job across hosts reads it,
 * and the general model's __tls_get_addr call was 1% of a fetch-add loop's
 * time (perf, 1 x 1 hosts); four bytes fit the static TLS surplus that a
 * dlopen'ed libshoal (shmem4py) draws on. */
static __thread int in_progress __attribute__((tls_model("initial-exec")));

/* Under hooks_lock: a copy of the current table to edit. */
static struct hook_table *next_table(const char *routine)
{
    struct hook_table *t = malloc(sizeof *t);
    if (!t)
        shoal_fatal(routine, "out of memory for the progress hook table");
    *t = *current;
    t->older = current;
    return t;
}

static void publish(struct hook_table *t)
{
    __atomic_store_n(&current, t, __ATOMIC_RELEASE);
    __atomic_store_n(&shoal_progress_n, t->n, __ATOMIC_RELEASE);
}

void shoal_progress_add(shoal_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&hooks_lock);
    if (current->n == MAX_HOOKS)
        shoal_fatal("shoal_progress_add", "more than %d progress hooks", MAX_HOOKS);
    struct hook_table *t = next_table("shoal_progress_add");
    t->hook[t->n++] = (struct hook){fn, arg};
    publish(t);
    pthread_mutex_unlock(&hooks_lock);
}

void shoal_progress_remove(shoal_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&hooks_lock);
    for (int i = 0; i < current->n; i++) {
        if (current->hook[i].fn == fn && current->hook[i].arg == arg) {
            struct hook_table *t = next_table("shoal_progress_remove");
            t->n--;
            for (int j = i; j < t->n; j++)
                t->hook[j] = t->hook[j + 1];
            publish(t);
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
    const struct hook_table *t = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
    for (int i = 0; i < t->n; i++)
        t->hook[i].fn(t->hook[i].arg);
    in_progress = 0;
}
