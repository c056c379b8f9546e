/* The pSync pool: one block of symmetric scratch per team that may exist at
 * once, at the same offset on every PE, and this PE's availability bitmask
 * over the user blocks.  Blocks are claimed after the slot agreement and
 * zeroed when their team is destroyed, so the next team finds clean flags. */
#include <pthread.h>
#include <stdlib.h>

#include "team_impl.h"

static char *pool;               /* block 0; blocks follow at block_stride */
static size_t block_stride;
static int n_blocks;
static uint64_t *avail;          /* bit b: user block SHOAL_SLOTS_PREDEFINED + b is free here */
static int n_words;
static uint64_t *color_area;
/* Recursive: a colour split holds it across its exchange and the creation. */
static pthread_mutex_t create_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

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
    return round_up(SHOAL_PSYNC_PER_TEAM * shoal_team_slot_bytes + shoal_slot_agree_bytes(), SHOAL_CACHELINE);
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
    size_t blocks = (size_t)SHOAL_SLOTS_PREDEFINED + teams_max();
    return blocks * pool_block_bytes() + color_area_bytes() + 2 * SHOAL_CACHELINE;
}

/* At init, in the same order on every PE (internal memory is symmetric). */
void shoal_pool_init(void)
{
    shoal_team_ext_layout();
    n_blocks = SHOAL_SLOTS_PREDEFINED + teams_max();
    block_stride = pool_block_bytes();
    pool = shoal_internal_alloc((size_t)n_blocks * block_stride);
    color_area = shoal_internal_alloc(color_area_bytes());
    n_words = shoal_pool_words();
    free(avail);
    avail = calloc(n_words ? n_words : 1, sizeof *avail);
    for (int b = 0; b < teams_max(); b++)
        avail[b / 64] |= 1ull << (b % 64);
}

void shoal_pool_fini(void)
{
    free(avail);
    avail = NULL;
    pool = NULL;
    color_area = NULL;
}

char *shoal_pool_psync(int slot)
{
    return pool + (size_t)slot * block_stride;
}

uint64_t *shoal_pool_agree_area(int slot)
{
    return (uint64_t *)(pool + (size_t)slot * block_stride + SHOAL_PSYNC_PER_TEAM * shoal_team_slot_bytes);
}

uint64_t *shoal_pool_last_words(int slot)
{
    return (uint64_t *)(pool + (size_t)slot * block_stride + last_words_at());
}

uint64_t *shoal_pool_color_area(void) { return color_area; }

void shoal_pool_available(uint64_t *bits)
{
    memcpy(bits, avail, n_words * sizeof *bits);
}

void shoal_pool_claim(int slot)
{
    int b = slot - SHOAL_SLOTS_PREDEFINED;
    avail[b / 64] &= ~(1ull << (b % 64));
}

/* A freed block is zeroed, so the next team finds it as new: the extensions
 * write flags with per-team epochs or counts that restart with each team,
 * and the agreement cells are the team layer's own.  No PE writes into the
 * block any more (destroy's barrier), so nothing can land after the zeroing.
 * Each extension zeroes only what the team used: pages nobody touched stay
 * untouched (a slot's data scratch is most of it). */
void shoal_pool_release(struct shoal_team *t)
{
    int b = t->slot - SHOAL_SLOTS_PREDEFINED;
    shoal_team_ext_clear(t);
    memset(shoal_pool_agree_area(t->slot), 0, shoal_slot_agree_bytes());
    memset(shoal_pool_last_words(t->slot), 0, SHOAL_PSYNC_ROUNDS * sizeof(uint64_t));
    __atomic_thread_fence(__ATOMIC_RELEASE);
    avail[b / 64] |= 1ull << (b % 64);
}

void shoal_pool_lock(void) { pthread_mutex_lock(&create_lock); }
void shoal_pool_unlock(void) { pthread_mutex_unlock(&create_lock); }
