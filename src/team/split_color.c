/* Colour split (shmemx_team_split_color), like MPI_Comm_split: members of
 * the parent passing the same colour form one team, ordered by key, ties by
 * parent rank.  The result is any subset, so teams here are often not
 * triplets.
 *
 * Every member first sends (colour, key) to every other member: one entry
 * per sender's world PE in each receiver's exchange area, tagged with how
 * many entries that sender has sent that receiver so far.  A receiver knows
 * how many it has read from each sender, so it waits for exactly the next
 * tag and can tell a late entry from a stale one, even when a PE of another
 * parent is already writing for a later split.  A sender cannot overwrite an
 * entry unread: its next entry to me belongs to a later split, which it
 * reaches only after the block agreement of this one, where I arrive only
 * after reading.  O(P) messages per PE; colour splits are rare. */
#include <pthread.h>
#include <stdlib.h>

#include "team_impl.h"

static uint64_t *sent, *received;   /* per world PE: exchange entries sent to / read from it */
/* One exchange area per PE: colour splits on this PE take turns (strided
 * and 2-D creations do not wait for them). */
static pthread_mutex_t exchange_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static uint64_t pack(int color, int key) { return (uint64_t)(uint32_t)color << 32 | (uint32_t)key; }
static int color_of(uint64_t v) { return (int)(int32_t)(v >> 32); }
static int key_of(uint64_t v) { return (int)(int32_t)(uint32_t)v; }

static void ensure_counters(void)
{
    if (!sent) {
        sent = calloc(shoal.n_pes, sizeof *sent);
        received = calloc(shoal.n_pes, sizeof *received);
    }
}

/* Send my entry to every member, then read every member's into all[]. */
static void exchange(struct shoal_team *parent, uint64_t mine, uint64_t *all)
{
    uint64_t *area = shoal_pool_color_area();
    uint64_t *block = area + 2 * (size_t)shoal.my_pe;   /* my entry: tag, payload */
    for (int i = 0; i < parent->n_pes; i++) {
        int pe = shoal_team_pe(parent, i);
        shoal_put_signal(&shoal_ctx_default, block + 1, &mine, sizeof mine, block, ++sent[pe], SHOAL_SIG_SET,
                         pe, false);
    }
    for (int i = 0; i < parent->n_pes; i++) {
        int pe = shoal_team_pe(parent, i);
        uint64_t *e = area + 2 * (size_t)pe, want = ++received[pe];
        SHOAL_WAIT_WHILE(__atomic_load_n(e, __ATOMIC_ACQUIRE) < want);
        all[i] = e[1];
    }
}

struct ranked {
    int key, rank;
};

static int by_key_then_rank(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Parent ranks of my colour in team order; n_pes 0 when color < 0. */
static int *members_of_my_color(const struct shoal_team *parent, const uint64_t *all, int color,
                                struct shoal_team_spec *spec)
{
    int n = parent->n_pes, count = 0;
    struct ranked *r = malloc(n * sizeof *r);
    for (int i = 0; i < n && color >= 0; i++)
        if (color_of(all[i]) == color)
            r[count++] = (struct ranked){key_of(all[i]), i};
    qsort(r, count, sizeof *r, by_key_then_rank);
    int *ranks = malloc((count ? count : 1) * sizeof *ranks);
    spec->n_pes = count;
    for (int i = 0; i < count; i++) {
        ranks[i] = r[i].rank;
        if (r[i].rank == parent->my_pe)
            spec->my_pe = i;
    }
    free(r);
    spec->ranks = ranks;
    return ranks;
}

int shoal_team_split_color(struct shoal_team *parent, int color, int key, int num_contexts,
                           struct shoal_team **out, const char *routine)
{
    uint64_t *all = malloc(parent->n_pes * sizeof *all);
    struct shoal_team_spec spec = {.num_contexts = num_contexts};
    pthread_mutex_lock(&exchange_lock);
    ensure_counters();
    exchange(parent, pack(color < 0 ? -1 : color, key), all);
    int *ranks = members_of_my_color(parent, all, color, &spec);
    int rc = shoal_team_create(parent, 1, &spec, out, routine);
    pthread_mutex_unlock(&exchange_lock);
    free(ranks);
    free(all);
    return rc;
}

void shoal_split_color_fini(void)
{
    free(sent);
    free(received);
    sent = received = NULL;
}
