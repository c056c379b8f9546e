/* The pSync pool: one block of symmetric scratch per team that may exist at
 * once, at the same offset on every PE, and this PE's availability bitmask
 * over the user blocks.  Blocks are claimed after the block agreement and
 * zeroed when their team is destroyed, so the next team finds clean flags. */
#include <pthread.h>
#include <stdlib.h>

#include "team_impl.h"

static char *pool;               /* block 0; blocks follow at block_stride */
static size_t block_stride;
static int n_blocks;
static uint64_t *avail;          /* bit b: user block SHOAL_BLOCKS_PREDEFINED + b is free here */
static int *holder;              /* per user block: priority of the creation holding it tentatively, or -1 */
static int n_words;
static uint64_t *color_area;
/* Guards avail, holder and the list of live teams; never held across
 * communication (threads may create teams from different parents at once). */
static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/* SHMEM_TEAMS_MAX, checked: the pool and bitmask scale with it. */
static int teams_max(void)
{
    long m = shoal_cfg.teams_max;
    if (m < 0 || m > (1L << 20))
        shoal_fatal("shmem_init", "SHMEM_TEAMS_MAX=%ld is out of range; set it between 0 and %ld "
                    "(teams that may exist at once, besides the predefined ones)", m, 1L << 20);
    return (int)m;
}

int shoal_pool_words(void) { return (teams_max() + 63) / 64; }

/* Offset in a block of destroy's barrier words, after the agreement scratch. */
static size_t last_words_at(void)
{
    return round_up(SHOAL_PSYNC_PER_TEAM * shoal_team_slot_bytes + shoal_block_agree_bytes(), SHOAL_CACHELINE);
}

static size_t pool_block_bytes(void)
{
    return last_words_at() + round_up(SHOAL_PSYNC_ROUNDS * sizeof(uint64_t), SHOAL_CACHELINE);
}

/* Colour exchange: (tag, payload) per world PE. */
static size_t color_area_bytes(void) { return round_up((size_t)shoal.n_pes * 16, SHOAL_CACHELINE); }

size_t shoal_teams_internal_bytes(void)
{
    shoal_team_ext_layout();
    size_t blocks = (size_t)SHOAL_BLOCKS_PREDEFINED + teams_max();
    return blocks * pool_block_bytes() + color_area_bytes() + 2 * SHOAL_CACHELINE;
}

/* At init, in the same order on every PE (internal memory is symmetric). */
void shoal_pool_init(void)
{
    shoal_team_ext_layout();
    n_blocks = SHOAL_BLOCKS_PREDEFINED + teams_max();
    block_stride = pool_block_bytes();
    pool = shoal_internal_alloc((size_t)n_blocks * block_stride);
    color_area = shoal_internal_alloc(color_area_bytes());
    n_words = shoal_pool_words();
    free(avail);
    free(holder);
    avail = calloc(n_words ? n_words : 1, sizeof *avail);
    holder = malloc((teams_max() ? teams_max() : 1) * sizeof *holder);
    if (!avail || !holder)
        shoal_fatal("shmem_init", "out of memory for the team pool's bitmask (SHMEM_TEAMS_MAX=%d)", teams_max());
    for (int b = 0; b < teams_max(); b++) {
        avail[b / 64] |= 1ull << (b % 64);
        holder[b] = -1;
    }
}

void shoal_pool_fini(void)
{
    free(avail);
    free(holder);
    avail = NULL;
    holder = NULL;
    pool = NULL;
    color_area = NULL;
}

char *shoal_pool_psync(int block)
{
    return pool + (size_t)block * block_stride;
}

uint64_t *shoal_pool_agree_area(int block)
{
    return (uint64_t *)(pool + (size_t)block * block_stride + SHOAL_PSYNC_PER_TEAM * shoal_team_slot_bytes);
}

uint64_t *shoal_pool_last_words(int block)
{
    return (uint64_t *)(pool + (size_t)block * block_stride + last_words_at());
}

uint64_t *shoal_pool_color_area(void) { return color_area; }

void shoal_pool_busy(uint64_t *bits)
{
    pthread_mutex_lock(&create_lock);
    for (int i = 0; i < n_words; i++)
        bits[i] = ~avail[i];
    pthread_mutex_unlock(&create_lock);
}

static bool is_free(int b) { return avail[b / 64] >> (b % 64) & 1; }
static void set_free(int b, bool f)
{
    if (f)
        avail[b / 64] |= 1ull << (b % 64);
    else
        avail[b / 64] &= ~(1ull << (b % 64));
}

/* Tentative claims, so no lock is held across the agreements: a block
 * another creation holds tentatively is waited for when that creation has
 * a lower priority (it never waits for us, so the waits cannot form a
 * cycle, and it settles after its own agreement), else it is a conflict. */
bool shoal_pool_try_claim(const int *blocks, int n, int prio)
{
    pthread_mutex_lock(&create_lock);
    for (int i = 0; i < n; i++) {
        int b = blocks[i] - SHOAL_BLOCKS_PREDEFINED, h = holder[b];
        if (is_free(b))
            continue;
        pthread_mutex_unlock(&create_lock);
        if (h <= prio)
            return false;    /* in use, or held by a creation that goes first */
        SHOAL_WAIT_WHILE(__atomic_load_n(&holder[b], __ATOMIC_ACQUIRE) == h);
        pthread_mutex_lock(&create_lock);
        i = -1;              /* look again at all of them */
    }
    for (int i = 0; i < n; i++) {
        int b = blocks[i] - SHOAL_BLOCKS_PREDEFINED;
        set_free(b, false);
        __atomic_store_n(&holder[b], prio, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&create_lock);
    return true;
}

/* After the agreement on the claims: keep them (the blocks are the new
 * teams'), or give them back.  Only for a claim that succeeded here: a
 * failed one holds nothing, and "giving back" a block another creation
 * holds (or a live team owns) would let two teams share it. */
void shoal_pool_settle(const int *blocks, int n, bool keep)
{
    pthread_mutex_lock(&create_lock);
    for (int i = 0; i < n; i++) {
        int b = blocks[i] - SHOAL_BLOCKS_PREDEFINED;
        set_free(b, !keep);
        __atomic_store_n(&holder[b], -1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&create_lock);
}

/* A freed block is zeroed, so the next team finds it as new: the extensions
 * write flags with per-team epochs or counts that restart with each team,
 * and the agreement cells are the team layer's own.  No PE writes into the
 * block any more (destroy's barrier), so nothing can land after the zeroing.
 * Each extension zeroes only what the team used: pages nobody touched stay
 * untouched (a block's data scratch is most of it). */
void shoal_pool_release(struct shoal_team *t)
{
    shoal_team_ext_clear(t);
    memset(shoal_pool_agree_area(t->block), 0, shoal_block_agree_bytes());
    memset(shoal_pool_last_words(t->block), 0, SHOAL_PSYNC_ROUNDS * sizeof(uint64_t));
    __atomic_thread_fence(__ATOMIC_RELEASE);
    pthread_mutex_lock(&create_lock);
    shoal_team_unlink(t);
    set_free(t->block - SHOAL_BLOCKS_PREDEFINED, true);
    pthread_mutex_unlock(&create_lock);
}

void shoal_pool_lock(void) { pthread_mutex_lock(&create_lock); }
void shoal_pool_unlock(void) { pthread_mutex_unlock(&create_lock); }
