/* What the files of the team layer share and nothing else needs. */
#ifndef SHOAL_TEAM_IMPL_H
#define SHOAL_TEAM_IMPL_H

#include "team.h"

/* Sets t's membership (n_pes, triplet or member list) from the world PEs of
 * its members in team order; takes ownership of world. */
void shoal_team_set_members(struct shoal_team *t, int *world, int n);
bool shoal_team_all_reachable(const struct shoal_team *t);

/* The list of user teams alive on this PE (finalize frees what is left). */
void shoal_team_link(struct shoal_team *t);
void shoal_team_unlink(struct shoal_team *t);
void shoal_team_free_object(struct shoal_team *t);

void shoal_split_color_fini(void);   /* forgets the colour exchange counters */

/* ---- extensions (team_ext.c) ---- */
void shoal_team_ext_layout(void);               /* before the pool is sized: fixes the block layout */
void shoal_team_ext_clear(struct shoal_team *t);   /* destroy: zero what t used of this PE's blocks */
void shoal_team_ext_fini(struct shoal_team *t);    /* free every extension's state of t */

/* ---- pSync pool (pool.c) ---- */
void shoal_pool_init(void);                          /* at init: allocates the pool, all user blocks free */
void shoal_pool_fini(void);
char *shoal_pool_psync(int block);                    /* first psync slot of block block */
uint64_t *shoal_pool_agree_area(int block);           /* block agreement scratch of block block */
uint64_t *shoal_pool_last_words(int block);           /* SHOAL_PSYNC_ROUNDS words: destroy's barrier */
int shoal_pool_words(void);                          /* 64-bit words of the availability bitmask */
/* Bit b set: user block SHOAL_BLOCKS_PREDEFINED + b is in use here, or held
 * by a creation in progress. */
void shoal_pool_busy(uint64_t *bits);
/* Holds blocks[0..n) for a creation of priority prio (its parent's block:
 * lower goes first); false, holding none, when another has them. */
bool shoal_pool_try_claim(const int *blocks, int n, int prio);
void shoal_pool_settle(const int *blocks, int n, bool keep);
/* Zeroes what the next team needs zero, unlinks t, frees its block. */
void shoal_pool_release(struct shoal_team *t);
void shoal_pool_lock(void);                          /* guards the list of live teams */
void shoal_pool_unlock(void);
uint64_t *shoal_pool_color_area(void);               /* colour exchange: (tag, payload) per world PE */

/* ---- block agreement (block_agree*.c) ---- */
/* OR-allreduce of busy (shoal_pool_words() words: bit b set = user block
 * SHOAL_BLOCKS_PREDEFINED + b is in use at some member) over the parent team,
 * in the parent's agreement scratch.  Collective over parent. */
void shoal_block_agree(struct shoal_team *parent, uint64_t *busy);
size_t shoal_block_agree_bytes(void);   /* scratch per pool block */

/* The algorithms; epoch is the parent's agreement count, the same on all members. */
void shoal_block_agree_shm(struct shoal_team *parent, uint64_t *busy, uint64_t epoch);
void shoal_block_agree_dissem(struct shoal_team *parent, uint64_t *busy, uint64_t epoch);
size_t shoal_block_agree_shm_bytes(void);
size_t shoal_block_agree_dissem_bytes(void);

#endif
